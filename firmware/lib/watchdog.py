# The board's watchdog, and who feeds it.
#
# An ESP32's watchdog cannot be stopped once started, and it survives a soft reboot. So it is
# started in boot.py, which runs at every boot and soft reboot, and a timer feeds it whenever
# the main loop is not the one in charge: at the REPL, in mpremote's raw REPL (where main.py
# does not run), during a deploy. The main loop takes the feeding over with take() and feeds
# it itself, so a hung loop resets the board; after Ctrl-C it hands it back with release().

import machine
from micropython import const

_TIMEOUT_MS = const(8000)
_KEEPER_MS = const(1000)
_TIMER_ID = const(0)

_wdt = None
_timer = None


def _feed(_t):
    if _wdt is not None:
        _wdt.feed()


def release():
    """Start the watchdog if needed and let a timer feed it (the REPL is in charge)."""
    global _wdt, _timer
    if _wdt is None:
        _wdt = machine.WDT(timeout=_TIMEOUT_MS)
    if _timer is None:
        _timer = machine.Timer(_TIMER_ID)
    _timer.init(mode=machine.Timer.PERIODIC, period=_KEEPER_MS, callback=_feed)
    _wdt.feed()


def take():
    """Stop the timer: from now on the caller must feed the returned watchdog."""
    global _wdt
    if _wdt is None:
        _wdt = machine.WDT(timeout=_TIMEOUT_MS)
    if _timer is not None:
        _timer.deinit()
    _wdt.feed()
    return _wdt
