# ruff: noqa: F821  (metadata/module are provided by MicroPython's manifest loader)
metadata(
    description="Linear hall sensors read through CD74HC4067 analog multiplexers sharing select lines.",
    version="0.1.0",
)

module("hallmux.py", opt=3)
