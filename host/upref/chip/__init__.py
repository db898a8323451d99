"""What the ESP32 chip does, as its maker documents it: pure numbers and functions, no I/O.

`esp32_adc` is the ADC1 transfer curve (a voltage at the pin to what `read_u16` reads, per
chip reference voltage). One description of the chip, read by both sides that need it: the
simulated chip's stand-ins (`upref/sim/standins/`, where this folder is on the MicroPython
process's path beside them, so the modules here run unchanged under MicroPython: no typing,
integers only) and the hardware package's magnet checks (`upref/hardware/magnetics.py`).
"""
