# Runs at every boot after boot.py. The board reports what it senses over USB serial
# (docs/protocol.md); Ctrl-C from the host stops it and leaves the REPL to mpremote.
import sys

# The modules the loop loads when asked for (service, since, calib) live in /lib, which
# MicroPython searches last (sys.path is "", ".frozen", "/lib"): each such import first looks
# for the module, a package of that name, .py and .mpy, in "/" on the flash. While the loop
# runs, /lib is searched first (app.py and board.py, in "/", are imported once, below).
if "/lib" in sys.path:
    sys.path.remove("/lib")
    sys.path.insert(0, "/lib")

import app  # noqa: E402
import board  # noqa: E402

app.App(board.Board()).run()
