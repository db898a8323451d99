# Runs first at every boot and soft reboot. Keep it tiny: a mistake here can keep the board
# from starting, so nothing in it may raise.
import micropython

try:
    micropython.alloc_emergency_exception_buf(100)  # lets an interrupt handler report a fault
    import machine

    # ESP32_GENERIC starts its CPU at 160 MHz (ESP-IDF's default; MicroPython's board build does
    # not ask for more): the firmware's scan timing and hardware/power.json assume 240 MHz.
    machine.freq(240000000)
    import watchdog

    watchdog.release()  # fed by a timer until main.py's loop takes over (lib/watchdog.py)
except Exception as e:  # noqa: BLE001 - report and carry on to the REPL
    print("boot.py:", e)
