# The board's service side: what it does besides a game, and seldom. It starts up, says HELLO,
# sends a snapshot (SNAP: at the handshake and when the host lost a frame), answers RAW (every
# sensor's raw level, for `upref doctor` and the sensor self-test), starts and finishes a
# calibration, and carries out SET, ECHO and REBOOT.
#
# It also makes the App's objects at boot (init: the queue, the writer, the scanner, the reader's
# watcher, the counters), code that runs once.
#
# Loaded on demand, for the heap: app.App imports this module for the occasion and lets it go at
# the next pass of its loop, so its code takes no heap while a game runs (the commands a game
# sends all the time, LED and BEEP, stay in app.py; loading this module from flash takes about
# 5 ms of the scan period, which holds it). Everything here works on the App it is given: it
# never imports app.py (App.fw_version and App.scan_ms are what it reads of the loop).

import sys
import time

from micropython import const

import wire

_SLOT_US = const(2000)  # a RAW frame is written while this much is left before the next scan
# (app.py's _RFID_STEP_US): on a slow chip the frames go out every other pass
_CAL_SAMPLES = const(32)
_DEBOUNCE_MIN = const(5)
_DEBOUNCE_MAX = const(500)
_BEEP_STEPS = const(8)  # feedback.py's most steps of a beep pattern


def hello(a):
    """HELLO fw= proto= board= holes= caps= rfid= reset= boot= [resets=] (docs/protocol.md)."""
    w = a.w
    w.begin(b"HELLO")
    w.arg(b"fw=")
    w.raw(a.fw_version.encode())
    w.kv(b"proto", wire.PROTO_VERSION)
    w.arg(b"board=")
    w.raw(a.hw.board_id)
    w.kv(b"holes", a.hw.holes)
    w.arg(b"caps=hall,rfid,led,buzzer,button,since")
    w.arg(b"rfid=")
    if a.rfid_version < 0:
        w.raw(b"none")
    else:
        w.hex(a.rfid_version, 2)
    w.arg(b"reset=")
    w.raw(a.hw.reset_cause)
    w.arg(b"boot=")
    if a.boot_id is None:
        a.boot_id = boot_id()
    w.raw(a.boot_id)
    counts = getattr(a.hw, "reset_counts", None)  # since power-on, from RTC memory (lib/resets.py)
    if counts is not None:
        w.arg(b"resets=")
        w.raw(counts)
    w.end()


def boot_id():
    """Four hex digits, random per boot: the host tells by them whether sequence numbers it
    saved belong to this boot."""
    try:
        import os

        r = os.urandom(2)
        v = (r[0] << 8) | r[1]
    except (ImportError, AttributeError, OSError):
        import random

        v = random.getrandbits(16)
    return ("%04X" % v).encode()


def boot(a):
    """Start the RFID reader, say HELLO, settle the scanner on what is in the holes now (so the
    first snapshot reports it rather than an empty board), then SNAP."""
    try:
        a.reader.init()
        a.rfid_version = a.reader.version
    except OSError as e:
        a.rfid_ok = False
        a.fault(b"rfid", b"reader", wire.safe_text(str(e)).encode())
    hello(a)
    start = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < a.scanner.debounce_ms + 2 * a.scan_ms:
        a.scan_cycle(time.ticks_ms(), quiet=True)
        a.out.pump(time.ticks_us())
        time.sleep_ms(a.scan_ms)
    snapshot(a)
    a.out.pump(time.ticks_us())


def snapshot(a):
    """SNAP holes= card= btn= presses= faults= (docs/protocol.md): the codes of the holes, the card
    on the reader, the button, its presses since boot, and every fault as runs of sensors
    s<a>-<b>, holes h<n>, rfid (the reader), cards (several on the reader)."""
    w = a.w
    sc = a.scanner
    w.begin(b"SNAP")
    w.arg(b"holes=")
    for h in range(a.hw.holes):
        if h:
            w.raw(b",")
        w.int(sc.codes[h])
    w.arg(b"card=")
    if a.cards.present:
        w.hexbytes(a.cards.uid, a.cards.uid_len)
    else:
        w.raw(b"-")
    w.arg(b"btn=")
    w.int(a.button)
    w.kv(b"presses", a.presses)
    w.arg(b"faults=")
    first = True
    k = 0
    n = sc.n_sensors
    while k < n:  # runs of faulted sensors as s<a>-<b>, so all 40 fit in one frame
        if not sc.sensor_fault[k]:
            k += 1
            continue
        j = k
        while j + 1 < n and sc.sensor_fault[j + 1]:
            j += 1
        if not first:
            w.raw(b",")
        w.raw(b"s")
        w.int(k + 1)
        if j > k:
            w.raw(b"-")
            w.int(j + 1)
        first = False
        k = j + 1
    for h in range(a.hw.holes):
        if sc.hole_fault[h]:
            if not first:
                w.raw(b",")
            w.raw(b"h")
            w.int(h + 1)
            first = False
    if not a.rfid_ok:
        if not first:
            w.raw(b",")
        w.raw(b"rfid")
        first = False
    if a.crowded:
        if not first:
            w.raw(b",")
        w.raw(b"cards")
        first = False
    if first:
        w.raw(b"-")
    w.end()


def raw_step(a):
    """The next hole's frame of the RAW reply under way (a.raw: its sequence number, the hole,
    0-based, and the scan count at the frame before): RAW <hole> <l1,..> <z1,..>; after the
    last hole's, the OK. At most a hole a pass, and only while the slot before the next scan
    has room and the heartbeat is not due, or two scans have gone by without a frame: the ten frames at once took a slow
    chip five scan periods, and a frame in every pass would make each scan later than the one
    before."""
    seq, h, at = a.raw
    if 0 <= a.scans - at < 2 and (a._rfid_left_us() < _SLOT_US or time.ticks_diff(time.ticks_ms(), a._next_hb) >= 0):
        return  # no room before the next scan, or the heartbeat's pass
    w = a.w
    per = a.hw.per_hole
    levels = a.levels
    zeros = a.scanner.zero
    w.begin(b"RAW")
    w.arg_int(h + 1)
    w.arg(b"")
    for p in range(per):
        if p:
            w.raw(b",")
        w.int(levels[h * per + p])
    w.arg(b"")
    for p in range(per):
        if p:
            w.raw(b",")
        w.int(zeros[h * per + p] + a.scanner.shift)  # the zero as the scan uses it
    w.end()
    if h + 1 < a.hw.holes:
        a.raw = (seq, h + 1, a.scans)
    else:
        a.raw = None
        a.reply_ok(seq, "RAW")


def _calibrator(a):
    """A Calibrator for CAL: the pin map's calibration limits and the scanner's rails."""
    import calib

    sc = a.scanner
    s = calib.CalSettings(samples=_CAL_SAMPLES, rail_low=sc.rail_low, rail_high=sc.rail_high)
    t = a.hw.thresholds
    s.cal_max_offset = t.get("cal_max_offset", 3000)
    s.zero_low = t.get("cal_zero_low", 25000)
    s.zero_high = t.get("cal_zero_high", 35500)
    return calib.Calibrator(sc.n_sensors, sc.per_hole, sc.ref, s)


def command(a, seq, cmd, args):
    """SNAP, HELLO, RAW, CAL, SET, ECHO, TAGW, REBOOT, and an LED or BEEP the loop could not
    take; anything else is refused. ValueError for bad arguments (App answers it with ERR)."""
    if cmd == "SNAP":
        snapshot(a)
    elif cmd == "LED" or cmd == "BEEP":
        feedback_refused(a, seq, cmd, args)
    elif cmd == "HELLO":
        hello(a)
    elif cmd == "RAW":  # the frames follow, one hole a pass (raw_step), then the OK
        if a.raw is not None:  # one under way: it ends here, and this one starts again at hole 1
            a.reply_ok(a.raw[0], cmd)
        a.raw = (seq, 0, a.scans)
    elif cmd == "CAL":
        a.cal = _calibrator(a)
        a.cal.seq = seq  # for its answer, when its scans are in
    elif cmd == "SET":
        for arg in args:
            key, _, val = arg.partition("=")
            if key == "debounce":
                ms = int(val)
                if ms < _DEBOUNCE_MIN or ms > _DEBOUNCE_MAX:
                    raise ValueError("debounce %d ms out of %d..%d" % (ms, _DEBOUNCE_MIN, _DEBOUNCE_MAX))
                a.scanner.set_debounce(ms)
            else:
                raise ValueError("unknown setting %s" % key)
        a.reply_ok(seq, cmd)
    elif cmd == "ECHO":
        w = a.w
        w.begin(b"ECHO")
        w.arg(b"")
        w.hex(seq, 4)
        for arg in args:
            w.arg(arg.encode())
        w.end()
    elif cmd == "TAGW" and a.cards.tags is not None:
        _tagw(a, seq, args)
    elif cmd == "REBOOT":
        a.reply_ok(seq, cmd)
        a.out.flush()
        time.sleep_ms(20)
        a.hw.reset()
    else:
        a.reply_err(seq, cmd, "unknown command")


def calibrate_step(a):
    """One scan of a calibration under way (CAL): add the levels just read; once the scans are
    all in, finish it (calibrated) and let calib.py go."""
    cal = a.cal
    cal.add(a.levels)
    if not cal.done():
        return
    a.cal = None
    try:
        calibrated(a, cal)
    finally:
        sys.modules.pop("calib", None)


def calibrated(a, cal):
    """A calibration's scans are all in: check, save and use the zeros, or say why not."""
    from array import array

    import calib

    n = cal.n_sensors
    zeros = array("H", [0] * cal.n_levels)  # the reference's zero last, if there is one
    try:
        cal.result(zeros)
    except ValueError as e:
        a.reply_err(cal.seq, "CAL", str(e))
        return
    try:
        ref = ref_path(a.calib_path)
        calib.forget(ref)
        cal.save(a.calib_path, zeros[:n])
        if cal.n_levels > n:
            cal.save(ref, zeros[n:])
    except OSError as e:
        a.reply_err(cal.seq, "CAL", "cannot write %s: %s" % (a.calib_path, e))
        return
    a.scanner.set_zero(zeros)
    a.reply_ok(cal.seq, "CAL", "sensors=%d" % n)


# ---- the App, made at boot (app.App.__init__) -----------------------------------------


def feedback_refused(a, seq, cmd, args):
    """LED <rrggbb> [ms] or BEEP <hz:ms,...> whose arguments the loop could not take
    (App.command): ValueError saying what is wrong, first thing first, with feedback.py's
    limits; carried out if nothing is."""
    from feedback import parse_pattern, parse_rgb

    if not args:
        raise ValueError("LED needs a colour rrggbb" if cmd == "LED" else "BEEP needs a pattern hz:ms,...")
    if cmd == "LED":
        try:
            r, g, b = parse_rgb(args[0])
        except ValueError:
            raise ValueError("LED colour must be 6 hex digits rrggbb, got %r" % args[0]) from None
        try:
            ms = int(args[1]) if len(args) > 1 else 0
        except ValueError:
            raise ValueError("LED time must be a whole number of ms, got %r" % args[1]) from None
        a.feedback.set_led(r, g, b, ms, time.ticks_ms())
    else:
        steps = args[0].split(",")
        if len(steps) > _BEEP_STEPS:
            raise ValueError("beep pattern has %d steps, at most %d" % (len(steps), _BEEP_STEPS))
        for part in steps:
            hz, _, ms = part.partition(":")
            try:
                hz, ms = int(hz), int(ms)
            except ValueError:
                raise ValueError("beep step must be hz:ms, got %r" % part) from None
            if hz != 0 and (hz < 20 or hz > 20000):
                raise ValueError("beep frequency out of 20..20000 Hz: %d" % hz)
            if ms < 1 or ms > 5000:
                raise ValueError("beep step out of 1..5000 ms: %d" % ms)
        a.feedback.beep(parse_pattern(args[0]), time.ticks_ms())
    a.reply_ok(seq, cmd)


def init(a, hw):
    """Everything the loop of App `a` keeps, on hardware `hw` (app.App says what it holds)."""
    from cards import CardWatcher
    from feedback import Feedback
    from frame_queue import FrameQueue
    from ring import boot_ring

    boot_ms = time.ticks_ms()
    a.boot_id = None  # 4 hex digits, made by the first HELLO (boot_id())
    a.ring = boot_ring(boot_ms)  # the recent events, kept for SINCE (ring.py), timed from boot_ms
    a.replay = None  # since.py while a replay for SINCE goes on
    a.out = FrameQueue(hw.port, a.out_bytes)
    a.w = wire.FrameWriter(a.out, a.ring)
    a.lines = wire.LineReader()
    _init_sensors(a, hw)
    # the reader of an arriving sticker's NDEF message (ntag.py), made with the reader (wiring)
    a.cards = CardWatcher(a.reader, miss_limit=a.miss_limit, tags=getattr(hw, "tags", None))
    a.rfid_version = -1
    a.rfid_ok = True
    a.crowded = False  # several cards on the reader (told to the host as a fault)
    a.feedback = Feedback(hw.led, hw.buzzer)
    a.cal = None
    a.raw = None  # a RAW reply under way: (its sequence number, the next hole, the scan count)
    a._deferred = None  # a command waiting for a pass after its module was loaded for it
    a.wdt = None
    _init_counters(a, boot_ms)
    sys.modules.pop("making", None)  # the objects' making (making.py), done: let go


def _init_sensors(a, hw):
    """The hall sensors' side: their levels, the scanner with the zeros saved by the last
    calibration (if any) and the limits of the next one."""
    from array import array

    from holes import HoleScanner

    n = hw.holes * hw.per_hole
    ref = getattr(hw.mux, "has_ref", False)  # levels[n]: the reference channel
    a.levels = array("H", [0] * (n + 1 if ref else n))
    # a missing threshold takes its default (the calibration's limits are read at a CAL)
    a.scanner = HoleScanner(hw.holes, hw.per_hole, hw.thresholds)
    a.scanner.ref = ref
    zeros = _load_zeros(a.calib_path, n, ref)  # no reference zero: its first reading
    if zeros is not None:
        a.scanner.set_zero(zeros)


def _load_zeros(path, n, ref=False):
    """The sensors' n zeros, and the reference channel's after them when it was saved."""
    zeros = load(path, n)
    if zeros is not None and ref:
        r = load(ref_path(path), 1)
        if r is not None:
            zeros.append(r[0])
    return zeros


def load(path, n):
    """The n zeros saved at path as array('H'), or None if missing, unreadable or corrupt
    (calib.save writes it, at a calibration's end)."""
    import json
    from array import array

    try:
        with open(path) as f:
            data = json.loads(f.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, list) or len(data) != n:
        return None
    for v in data:
        if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > 65535:
            return None
    return array("H", data)


def ref_path(path):
    """Where the reference channel's zero is kept, next to the sensors' zeros at path."""
    return (path[:-5] if path.endswith(".json") else path) + "_ref.json"


def _init_counters(a, boot_ms):
    """What the heartbeat counts, the uptime, the button and the loop's timing, from now."""
    a.scans = 0
    a.sps = 0
    a._scans_at_hb = 0
    a.cmds = 0
    a.bad = 0
    a.faults = 0
    # uptime as whole seconds and ms: ticks_diff wraps after 2**29 ms (6.2 days), and an
    # uptime in ms leaves the small ints of the 32-bit chip after 12.4 days (then every
    # heartbeat would allocate); seconds last 34 years
    a._up_s = 0
    a._up_ms = 0
    a._up_at = boot_ms
    # button
    a.button = 0
    a.presses = 0  # since boot: a snapshot lets the host count presses it missed
    a._btn_raw = 0
    a._btn_since = 0
    # how the loop keeps up, since the last heartbeat (app.App.send_heartbeat starts them again)
    a.late_ms = 0
    a.late_n = 0
    a.reads = 0
    a._per_sum = 0
    a._per_n = 0
    a._per_max = 0
    a.heap_low = -1  # the least free heap seen at a heartbeat (bytes), -1 before the first
    a._period_us = 0  # busy time of the scan period under way
    a._scan_us = time.ticks_us()  # when the last scan began, and the time it left
    a._slot_us = 0  # for RFID steps before the next scan
    now = time.ticks_ms()
    a._next_scan = now
    a._next_rfid = now
    a._rfid_at = now  # when the reader last had an exchange (app.run_rfid)
    a._next_hb = time.ticks_add(now, a.hb_ms)


def _tagw(a, seq, args):
    """TAGW: a sticker written and read back (ntag_write.py, loaded for it and let go, with the
    reader's register access it imports). Only a board that reads stickers knows the command."""
    import ntag_write

    try:
        ntag_write.command(a, seq, args)
    finally:
        for m in ("ntag_write", "mfrc522_setup"):
            if m in sys.modules:
                del sys.modules[m]

