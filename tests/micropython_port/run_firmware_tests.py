# Runs tests/firmware/test_*.py under the MicroPython unix port (no pytest there).
# Usage: micropython -X heapsize=120K run_firmware_tests.py ROOT [MPYDIR|-] [module ...]
# MPYDIR holds the firmware compiled by mpy-cross, as the board runs it (compiling .py source
# at import time needs far more heap than the board has); "-" imports the sources instead.
# Prints one line per test and a closing "N passed, M failed"; exits 1 on any failure.
import gc
import os
import sys

root = sys.argv[1]
for sub in ("/firmware", "/firmware/lib", "/firmware/drivers/mfrc522",
            "/firmware/drivers/hallmux", "/host/upref/sim/standins", "/host/upref/chip", "/tests/firmware"):
    sys.path.insert(0, root + sub)
if len(sys.argv) > 2 and sys.argv[2] != "-":
    sys.path.insert(0, sys.argv[2])

names = sys.argv[3:]
if not names:
    names = sorted(f[:-3] for f in os.listdir(root + "/tests/firmware")
                   if f.startswith("test_") and f.endswith(".py"))
passed = 0
failed = 0
for name in names:
    gc.collect()  # modules stay loaded: collect first so the heap does not fragment
    mod = __import__(name)
    for attr in sorted(dir(mod)):
        if not attr.startswith("test_"):
            continue
        fn = getattr(mod, attr)
        gc.collect()
        try:
            fn()
            passed += 1
            print("PASS", name + "." + attr)
        except Exception as e:
            failed += 1
            print("FAIL", name + "." + attr, repr(e))
            sys.print_exception(e)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
