# ruff: noqa: F821  (metadata/module are provided by MicroPython's manifest loader)
# pyright: reportUndefinedVariable=false
metadata(
    description="NXP MFRC522 ISO/IEC 14443-3 type A reader driver (UIDs of 4, 7 and 10 bytes).",
    version="0.1.0",
)

module("mfrc522.py", opt=3)
module("mfrc522_setup.py", opt=3)
module("mfrc522_extra.py", opt=3)
