# ruff: noqa: F821  (metadata/module are provided by MicroPython's manifest loader)
metadata(
    description="Linear hall sensors read through CD74HC4067 analog multiplexers sharing select lines, optionally with a switched supply per bank.",
    version="0.2.0",
)

module("hallmux.py", opt=3)
module("hallmux_plan.py", opt=3)
