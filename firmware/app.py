# The board's main loop: scan the holes, watch the RFID field and the button, answer the host.
#
# No game rules live here: the board reports what it senses (docs/protocol.md) and obeys
# feedback commands. The loop runs at a fixed rate on ticks_ms: the sensors are scanned every
# SCAN_MS, the empty RFID field looked at every period and a card that lies there read again
# every RFID_MS, a heartbeat sent every HB_MS, host commands read without blocking in between.
# No pass of the loop may hold up the next scan by more than a period: a card read is done one
# exchange at a time (cards.CardWatcher.step), each started only while the time left before the
# next scan, counted in ticks_us, holds its budget (_RFID_STEP_US), but a card that answers and
# is not yet reported is read on until 4 ms after the next scan was due (_RFID_ARRIVAL_US); a card is sent to the host as soon as its last SELECT is done (the card is halted by the next
# read); a command that needs a module from flash is carried out a pass after the module is
# loaded (_deferred), and long replies (RAW, SINCE) go out a frame or two a pass; frames leave
# through a queue that writes only what the UART's FIFO has room for (frame_queue.FrameQueue),
# a hole's frame right after its scan. The heartbeat says how the loop keeps up: the worst lateness of a
# scan, the mean and worst time spent per scan period, how many scans were late, the card reads
# done and the heap left (measured at the heartbeat, never in the scan). A scan cycle allocates nothing
# (tests/firmware prove it under the MicroPython unix port with the heap locked).
#
# What a game does not need while it plays is loaded when asked for and let go afterwards, so
# its code takes no heap the rest of the time: the board's service side (service.py: boot,
# HELLO, SNAP, RAW, CAL, SET, ECHO, REBOOT), the calibration (calib.py) and the replay for SINCE
# (since.py). Importing a module from flash takes about 5 ms of the 10 ms scan period, so what
# the loop runs all the time (LED, BEEP, the scan, the reader, the heartbeat) stays here.
#
# Ctrl-C. MicroPython's own interrupt character is switched off while the loop runs
# (micropython.kbd_intr(-1)), and the loop reads 0x03 itself: at the start of a line (right
# after a line end, or before anything else) it is a deliberate interrupt, as mpremote sends it
# (`\r\x03`), and raises KeyboardInterrupt, so the REPL can always take over; inside a line it
# is line noise (one bit flip turns `C` into 0x03), and that line is dropped and counted.
#
# Any other exception is reported as a FAULT frame and the loop starts again. However run()
# ends, its `finally` hands the watchdog back to its timer and re-arms Ctrl-C.

import gc
import sys
import time

import micropython
from micropython import const

from array import array  # noqa: F401 - the App's attributes are typed by these names (below)

import wire
from holes import HoleScanner, KIND_WORDS, REASON_WORDS  # noqa: F401
from cards import CardWatcher, ARRIVED, LEFT, BUSY, NONE  # noqa: F401
from feedback import Feedback, parse_rgb, parse_pattern  # noqa: F401
from frame_queue import FrameQueue  # noqa: F401
from ring import Ring  # noqa: F401 - its 2 KB ring is made first, before anything fragments the heap


FW_VERSION = "0.2.0"
CALIB_FILE = "calib.json"

SCAN_MS = const(10)
RFID_MS = const(30)  # a card that lies on the reader is read again this often
_RFID_IDLE_MS = const(10)  # the empty field is looked at every scan period: a wake-up that no
# card answers is one short exchange (about 1 ms of the slow chip's time, the air's 0.34 ms in
# it), and a card tapped waits half as long to be seen as at RFID_MS
HB_MS = const(1000)
_BUTTON_MS = const(20)
_CTRL_C = const(3)
_SCANS_WRAP = const(1000000000)  # the heartbeat's scan count wraps here, below 2**30
_OUT_BYTES = const(768)  # room for the frames of a busy pass (a heartbeat, a snapshot, a sticker
# read and every hole at once take about 750 bytes; a RAW reply goes out a hole a pass, a SINCE
# replay while since.py's 400 bytes are free), as the UART drains 115 bytes a scan period
_SLEEP_MAX_MS = const(2)  # longest sleep while output waits for the FIFO or a read goes on
# An RFID exchange takes its frames' time on the air (a SELECT about 1.2 ms, the sticker's
# FAST_READ 3.5 ms) and seven SPI transactions and its polls, plus the interpreter around them:
# one starts only while this much is left before the next scan (docs/simulator.md has the
# figures; an arrival's exchanges go on past it, below).
_RFID_STEP_US = const(2000)
# A card that answers and is not yet reported (an arrival) is read on past the slot, until 4 ms
# after the next scan was due: on a slow chip its UID (five exchanges) is read in the pass the
# card first answers in, and its sticker and frames in the next; the next scan is then late by
# up to 4 ms and one exchange (at most 3 ms at the slow end), within its period. When that is
# over too, its next frame goes out before the scan (CardWatcher.ahead): its time on the air
# passes while the scan goes on.
_RFID_ARRIVAL_US = const(-5000)
# A chip too slow to leave that much between scans would never read a card: once no exchange has
# run for this long while a read is due, the reader's exchanges go on past the slot as an
# arrival's do, and the next scan is late, within its period (docs/simulator.md, "The chip's
# time").
_RFID_STARVED_MS = const(30)
_MS_US = const(1000)  # what a scan's start time in whole ms may hide: the slot is that much shorter
_LATE_MS = const(5)  # a scan begun half a period or more after its time is a late one (HB nlate=)
_SENSOR = const(0)  # holes.py's kind of a sensor's fault (a hole's is 1)
# what the ring keeps of an event the loop makes (ring.Ring.code: its kind, then its numbers)
_EV_HOLE = const(1)
_EV_BTN = const(2)
_EV_FAULT = const(5)
_EV_CLEAR = const(6)
MISS_LIMIT = const(3)  # polls without the card before it is gone: 90 ms, and a card at the
# edge of the field (answering one read in two or three) never flaps


def _forget(name):
    """Let a module loaded on demand go, so its code no longer takes heap."""
    if name in sys.modules:
        del sys.modules[name]


def _service():
    """The board's service side (service.py: boot, HELLO, SNAP, RAW, CAL, SET, ECHO, REBOOT),
    loaded for the occasion; the loop lets it go again at its next pass, so its code takes no
    heap while a game runs."""
    import service

    return service


def _since():
    """The replay of the kept events for SINCE (since.py), loaded while one goes on."""
    import since

    return since


class App:
    """The board's behaviour, given its hardware `hw` (board.Board on the board): `hw.mux`
    (a HallMux), `hw.reader` (an MFRC522), `hw.led`, `hw.buzzer`, `hw.port`, the hall layout
    (`holes`, `per_hole`, `thresholds`), `board_id`, `reset_cause`, `reset_counts` (or None),
    `button_pressed()`, `watchdog()`, `release_watchdog()` and `reset()`."""

    # what the modules loaded on demand read of the loop through the App they are given (they
    # never import app.py: main.py imports it, and nothing imports back into it)
    fw_version = FW_VERSION  # HELLO fw=
    scan_ms = SCAN_MS
    hb_ms = HB_MS
    out_bytes = _OUT_BYTES
    miss_limit = MISS_LIMIT

    # made by service.init (declared here for the type checker; MicroPython ignores these)
    boot_id: "bytes | None"
    ring: "Ring"
    out: "FrameQueue"
    w: "wire.FrameWriter"
    lines: "wire.LineReader"
    cards: "CardWatcher"
    feedback: "Feedback"
    cal: "object | None"
    levels: "array"
    scanner: "HoleScanner"
    raw: "tuple | None"
    _deferred: "tuple | None"

    calib_path = CALIB_FILE  # where the calibration is kept (another for a test's App)

    def __init__(self, hw, calib_path=CALIB_FILE):
        self.hw = hw
        if calib_path != CALIB_FILE:
            self.calib_path = calib_path  # (the board's App holds no attribute for it)
        self.reader = hw.reader  # the RFID reader (an MFRC522)
        # the loop's objects, the sensors' side and the counters: code run once, at boot, so
        # it lives in service.py (service.init) and takes no heap afterwards
        _service().init(self, hw)

    # ---- frames -------------------------------------------------------------------------

    def send_heartbeat(self, now):
        w = self.w
        w.begin(b"HB")
        ms = self._up_ms + time.ticks_diff(now, self._up_at)
        self._up_at = now
        self._up_s += ms // 1000
        ms %= 1000
        self._up_ms = ms
        w.arg(b"up=")
        if self._up_s:  # seconds, then the ms as three digits: no big int is ever made
            w.int(self._up_s)
            w.int(ms // 100)
            w.int(ms // 10 % 10)
            w.int(ms % 10)
        else:
            w.int(ms)
        w.kv(b"scans", self.scans)
        w.kv(b"sps", self.sps)
        w.kv(b"cmd", self.cmds)
        w.kv(b"bad", self.bad + self.lines.overlong)
        w.kv(b"rfe", self.cards.errors)
        w.kv(b"rfr", self.cards.reinits)
        w.kv(b"flt", self.faults)
        w.kv(b"late", self.late_ms)
        n = self._per_n
        w.kv(b"tscan", (self._per_sum + n // 2) // n if n else 0)
        w.kv(b"tmax", self._per_max)
        w.kv(b"odrop", self.out.dropped)
        # nlate= reads= heap= heaplo=: the late scans and the card reads since the last
        # heartbeat, the free heap now and the least seen at a heartbeat since boot, in whole
        # KB. gc.mem_free() neither allocates nor collects; read here, once a second, not in
        # the scan
        free = gc.mem_free()
        if self.heap_low < 0 or free < self.heap_low:
            self.heap_low = free
        w.kv(b"nlate", self.late_n)
        w.kv(b"reads", self.reads)
        w.kv(b"heap", free >> 10)
        w.kv(b"heaplo", self.heap_low >> 10)
        w.end()
        # how the loop keeps up, counted afresh until the next heartbeat (service.py starts
        # them at boot)
        self.late_ms = 0  # worst lateness of a scan
        self.late_n = 0  # scans begun _LATE_MS or more after their time
        self.reads = 0  # card reads that found a card
        self._per_sum = 0  # busy time of the scan periods that ended (us), their count and worst
        self._per_n = 0
        self._per_max = 0

    def fault(self, kind, where, text):
        """FAULT <kind> <where> <text>; kind/where/text are bytes."""
        self.faults += 1
        w = self.w
        w.begin(b"FAULT", True)
        w.arg(kind)
        w.arg(where)
        w.arg(text)
        w.end()

    def clear(self, kind, where):
        w = self.w
        w.begin(b"CLEAR", True)
        w.arg(kind)
        w.arg(where)
        w.end()

    def reply_ok(self, seq, cmd, detail=None):
        w = self.w
        w.begin(b"OK")
        w.arg(b"")
        w.hex(seq, 4)
        w.arg(cmd.encode())
        if detail:
            w.arg(detail.encode())
        w.end()

    def reply_err(self, seq, cmd, reason):
        w = self.w
        w.begin(b"ERR")
        w.arg(b"")
        w.hex(seq, 4)
        w.arg(cmd.encode())
        w.arg(wire.safe_text(reason).encode())
        w.end()

    # ---- the loop -----------------------------------------------------------------------

    def boot(self):
        """Start the reader, say HELLO, settle the scanner on what is in the holes, SNAP."""
        _service().boot(self)

    def scan_cycle(self, now, quiet=False):
        """One sensor scan: read, classify, debounce, report. Allocates nothing."""
        self.hw.mux.scan(self.levels)  # the hall sensors' multiplexers (a HallMux)
        sc = self.scanner
        sc.update(self.levels, now)
        self.scans += 1
        if self.scans >= _SCANS_WRAP:
            self.scans = 0  # 115 days at 100 a second: stays a small int (sps is modular)
        if not quiet and (sc.n_changed or sc.n_fault_events):
            w = self.w
            for i in range(sc.n_changed):
                h = sc.changed[i]
                w.begin(b"HOLE", True)
                w.arg_int(h + 1)
                w.arg_int(sc.codes[h])
                self.ring.code = _EV_HOLE | (h + 1) << 8 | sc.codes[h] << 16
                w.end()
            ev = sc.fault_events  # kind, index, reason (0: cleared) of each
            for i in range(0, 3 * sc.n_fault_events, 3):
                kind = ev[i]
                reason = ev[i + 2]
                if reason:
                    self.faults += 1
                w.begin(b"FAULT" if reason else b"CLEAR", True)
                w.arg(KIND_WORDS[kind])
                w.arg(b"s" if kind == _SENSOR else b"h")
                w.int(ev[i + 1] + 1)
                if reason:
                    w.arg(REASON_WORDS[reason])
                if ev[i + 1] < 255:  # its number in a byte (a board of more sensors: kept as text)
                    self.ring.code = (_EV_FAULT if reason else _EV_CLEAR) | kind << 8 | (ev[i + 1] + 1) << 16 | reason << 24
                w.end()
        if self.cal is not None:  # a calibration under way: service.py stays loaded for it
            _service().calibrate_step(self)

    def poll_rfid(self):
        """One exchange with the RFID field (a read takes a few); returns the event: BUSY while
        the read goes on, ARRIVED and LEFT once sent to the host."""
        cw = self.cards
        reads = cw.reads
        ev = cw.step()
        if ev == BUSY or (ev == NONE and cw.reads == reads and cw.crowded == self.crowded and cw.ok == self.rfid_ok):
            return ev  # (the empty field, looked at every period: nothing to tell)
        self.reads += cw.reads - reads  # HB reads=: the reads that found a card
        if cw.crowded != self.crowded:
            self.crowded = cw.crowded
            if cw.crowded:
                self.fault(b"rfid", b"field", b"two cards on the reader")
            else:
                self.clear(b"rfid", b"field")
        w = self.w
        t = cw.tags
        if ev == ARRIVED and t is not None and t.length >= 0:
            # TAG <uid> <length> <hex|->: the NDEF message the card carries, as much of it as
            # was read, just before its CARD frame; its record is kept beside the ring, for
            # SINCE to send before the CARD + (ring.Tags, docs/protocol.md)
            w.begin(b"TAG")
            w.arg(b"")
            w.hexbytes(cw.uid, cw.uid_len)
            w.arg_int(t.length)
            w.arg(b"" if t.n else b"-")
            w.hexbytes(t.buf, t.n)
            w.end()
            self.out.pump(time.ticks_us())  # on the line while its record is kept and the CARD frame made
            self.ring.tag(t.length, t.buf, t.n)
        if ev == ARRIVED or ev == LEFT:
            w.begin(b"CARD", True)
            w.arg(b"+" if ev == ARRIVED else b"-")
            w.arg(b"")
            w.hexbytes(cw.uid, cw.uid_len)
            w.end()
            self.out.pump(time.ticks_us())  # now, not after a heartbeat made in this pass
        if cw.ok != self.rfid_ok:
            self.rfid_ok = cw.ok
            if cw.ok:
                self.rfid_version = self.reader.version
                self.clear(b"rfid", b"reader")
            else:
                self.fault(b"rfid", b"reader", wire.safe_text(cw.last_error).encode())
        return ev

    def _rfid_left_us(self):
        """Microseconds left for RFID steps before the next scan."""
        return self._slot_us - time.ticks_diff(time.ticks_us(), self._scan_us)

    def run_rfid(self, now):
        """RFID exchanges while a read is due or under way and each fits its budget before
        the next scan; a card that arrives or leaves ends the pass's reading, so its CARD
        frame goes out at once. A card that answers and is not yet reported goes on being read
        past the slot (_RFID_ARRIVAL_US); the empty field is looked at every
        period, a card that lies there read again every RFID_MS."""
        cw = self.cards
        if cw.reading:
            if cw.present and time.ticks_diff(now, self._next_hb) >= 0:
                return  # the heartbeat's pass: the reader waits a pass, but for a card arriving
        elif time.ticks_diff(now, self._next_rfid) < 0 or time.ticks_diff(now, self._next_hb) >= 0:
            return  # no read due (the slot need not be measured), or the heartbeat's pass
        slot = self._slot_us
        scan_us = self._scan_us
        starved = time.ticks_diff(now, self._rfid_at) >= _RFID_STARVED_MS and (
            cw.reading or time.ticks_diff(now, self._next_rfid) >= _RFID_STARVED_MS
        )  # no exchange for that long, while one was due all along
        while slot - time.ticks_diff(time.ticks_us(), scan_us) >= (
            _RFID_ARRIVAL_US if starved or (cw.reading and not cw.present) else _RFID_STEP_US
        ):
            if not cw.reading:
                if time.ticks_diff(now, self._next_rfid) < 0:
                    return
                every = RFID_MS if cw.present else _RFID_IDLE_MS
                self._next_rfid = time.ticks_add(self._next_rfid, every)
                if time.ticks_diff(now, self._next_rfid) > every:
                    self._next_rfid = time.ticks_add(now, every)
            self._rfid_at = now
            ev = self.poll_rfid()
            if ev != BUSY and (ev == ARRIVED or ev == LEFT or not cw.reading):
                if ev == LEFT and time.ticks_diff(self._next_rfid, now) > _RFID_IDLE_MS:
                    self._next_rfid = time.ticks_add(now, _RFID_IDLE_MS)  # the empty field's pace
                return
        if cw.reading and not cw.present:  # an arrival's read goes on past the slot, and when
            cw.ahead()  # that is over too, its next frame goes out now: its time on the air and
            # the card's answer pass while the next scan goes on

    def poll_button(self, now):
        v = self.hw.button_pressed()
        if v != self._btn_raw:
            self._btn_raw = v
            self._btn_since = now
        elif v != self.button and time.ticks_diff(now, self._btn_since) >= _BUTTON_MS:
            self.button = v
            if v:
                self.presses += 1
            w = self.w
            w.begin(b"BTN", True)
            w.arg_int(v)
            self.ring.code = _EV_BTN | v << 8
            w.end()

    def poll_host(self):
        """Read what the host sent, without blocking, and act on each whole line; not in the
        heartbeat's pass. A command whose module the loop had to load from flash for it
        (_deferred) is carried out here, at a later pass that has the slot for it (or two
        scans later at most)."""
        if time.ticks_diff(time.ticks_ms(), self._next_hb) >= 0:
            return  # the heartbeat's pass: the host waits a pass (with it, an import would hold the next scan back)
        if self._deferred is not None:
            seq, cmd, args, at = self._deferred
            if 0 <= self.scans - at < 2 and self._rfid_left_us() < _RFID_STEP_US:
                return  # not in this pass: no room before the next scan (two scans later at most)
            if ("since" if cmd == "SINCE" else "service") not in sys.modules:
                _since() if cmd == "SINCE" else _service()  # its module now, the command later
                self._deferred = (seq, cmd, args, self.scans)
                return
            self._deferred = None
            try:
                self.command(seq, cmd, args)
            except ValueError as e:
                self.reply_err(seq, cmd, str(e))
            return
        port = self.hw.port
        lines = self.lines
        while True:
            c = port.read_byte()
            if c < 0:
                return
            if c == _CTRL_C:
                if lines.at_start():
                    raise KeyboardInterrupt  # deliberate: mpremote sends \r\x03
                lines.drop()  # line noise inside a line: drop the line, count it
                self.bad += 1
                continue
            if lines.feed(c):
                self._line(lines.buf, lines.n)
                if self._deferred is not None:
                    return  # the next line waits for this command: one waits at a time

    def _line(self, buf, n):
        star = wire.check(buf, n)
        if star < 0:
            self.bad += 1
            return
        seq, cmd, args = wire.split(buf, star)
        self.cmds += 1
        if cmd != "LED" and cmd != "BEEP" and ("since" if cmd == "SINCE" else "service") not in sys.modules:
            # what the loop does not carry out itself needs since.py (SINCE) or service.py: the
            # module comes from flash (about 5 ms) at a later pass that has room for it, the
            # command at the pass after, so that no pass holds the next scan back a period
            self._deferred = (seq, cmd, args, self.scans)
            return
        try:
            self.command(seq, cmd, args)
        except ValueError as e:
            self.reply_err(seq, cmd, str(e))

    def command(self, seq, cmd, args):
        """Carry out a host command: the ones a game sends all the time (LED, BEEP) and SINCE
        here, the rest (SNAP, HELLO, RAW, CAL, SET, ECHO, REBOOT) by the service module, loaded
        for them. An LED or BEEP whose arguments do not parse goes to the service module too,
        which says why (ValueError): its words take no heap while a game runs."""
        if cmd == "LED" or cmd == "BEEP":
            if self._feedback(cmd, args):
                self.reply_ok(seq, cmd)
            elif "service" in sys.modules:
                _service().command(self, seq, cmd, args)
            else:
                self._deferred = (seq, cmd, args, self.scans)  # at a later pass, with service.py
        elif cmd == "SINCE":  # replay the kept events after a sequence number (ring.py)
            replay = _since()
            replay.begin(self.ring, seq, args)
            self.replay = replay
        else:
            _service().command(self, seq, cmd, args)

    def _feedback(self, cmd, args):
        """LED <rrggbb> [ms] or BEEP <hz:ms,...> carried out; False, with nothing done, when its
        arguments do not parse or are out of range."""
        try:
            if cmd == "LED":
                r, g, b = parse_rgb(args[0])
                self.feedback.set_led(r, g, b, int(args[1]) if len(args) > 1 else 0, time.ticks_ms())
            else:
                self.feedback.beep(parse_pattern(args[0]), time.ticks_ms())
        except (ValueError, IndexError):
            return False
        return True

    @micropython.native
    def step(self, now):
        """One pass of the loop at time `now`: the scan if due, the host, the button, one RFID
        exchange if a read is due or under way, the heartbeat, feedback, output as the FIFO
        drains, the watchdog."""
        t0 = time.ticks_us()
        if time.ticks_diff(now, self._next_scan) >= 0:
            late = time.ticks_diff(now, self._next_scan)
            if late > self.late_ms:
                self.late_ms = late
            if late >= _LATE_MS:
                self.late_n += 1
            p = self._period_us  # the scan period that ends here
            self._per_sum += p
            self._per_n += 1
            if p > self._per_max:
                self._per_max = p
            self._period_us = 0
            self._scan_us = t0
            self.scan_cycle(now)
            self.out.pump(time.ticks_us())  # a hole's frame leaves now, not after the reader's turn
            self._next_scan = time.ticks_add(self._next_scan, SCAN_MS)
            if time.ticks_diff(now, self._next_scan) > 0:
                # a whole period behind: the next scan one period from now, not a burst of
                # late ones (so no scan is ever late by more than a period)
                self._next_scan = time.ticks_add(now, SCAN_MS)
            # the slot for RFID steps: up to the next scan, less the ms that `now` may hide
            self._slot_us = time.ticks_diff(self._next_scan, now) * _MS_US - _MS_US
        self.poll_host()
        self.poll_button(now)
        if self.raw is not None:  # a RAW reply under way: a hole's frame a pass at most, before
            _service().raw_step(self)  # the reader's turn, which takes what is left of the slot
        elif self.cal is None and self._deferred is None and "service" in sys.modules:
            _forget("service")  # loaded for a service command: let it go
        self.run_rfid(now)
        if time.ticks_diff(now, self._next_hb) >= 0:
            self._heartbeat(now)
        self.feedback.update(now)
        if self.replay is not None:  # OLD frames for SINCE, as the output queue and the slot have room
            self._replay_step()
        t1 = time.ticks_us()
        self.out.pump(t1)
        if self.wdt is not None:
            self.wdt.feed()
        self._period_us += time.ticks_diff(time.ticks_us(), t0)

    def _heartbeat(self, now):
        """The heartbeat's pass (once a second, out of the native step: its code is
        executable memory, which is scarce)."""
        self.sps = (self.scans - self._scans_at_hb) % _SCANS_WRAP
        self._scans_at_hb = self.scans
        self.send_heartbeat(now)
        self._next_hb = time.ticks_add(self._next_hb, HB_MS)
        if time.ticks_diff(now, self._next_hb) > HB_MS:
            self._next_hb = time.ticks_add(now, HB_MS)

    def _replay_step(self):
        """A pass of a SINCE replay: its next OLD frames, while the output queue has room and
        the slot too (or every other scan); its module let go at its end."""
        replay = self.replay
        if replay is None:
            return
        room = self._rfid_left_us() >= _RFID_STEP_US or self.scans & 1
        replay.step(self.ring, self.w, _OUT_BYTES - self.out.queued if room else 0)
        if not self.ring.replaying:
            self.replay = None
            _forget("since")  # the replay is over: let its code go

    def loop(self, until=None):
        """Run steps at the scan rate until an exception (or until() is true, for tests)."""
        now = time.ticks_ms()
        self._next_scan = now
        self._next_rfid = now
        self._rfid_at = now  # when the reader last had an exchange
        self._next_hb = time.ticks_add(now, HB_MS)
        while until is None or not until():
            self.step(time.ticks_ms())
            wait = time.ticks_diff(self._next_scan, time.ticks_ms())
            if self.cards.reading and self._rfid_left_us() >= _RFID_STEP_US:
                wait = 0  # the read's next exchange at once, while it fits before the scan
            elif self.out.queued and wait > _SLEEP_MAX_MS:
                wait = _SLEEP_MAX_MS  # the FIFO drains 23 bytes in 2 ms
            if wait > 0:
                time.sleep_ms(wait)

    def report(self, e, where=b"loop"):
        """An exception becomes a FAULT frame; reporting itself must never fail."""
        try:
            self.fault(b"exc", where, wire.safe_text("%s: %s" % (type(e).__name__, e)).encode())
        except Exception:  # noqa: BLE001 - a failing report must not kill the board
            pass

    def run(self, until=None):
        """Boot, then loop for ever; a fault is reported and the loop starts again.

        Ctrl-C leaves (KeyboardInterrupt, see the top of this file). Whatever ends run() (Ctrl-C
        while booting, while the loop runs or during the pause after a fault, SystemExit, a
        MemoryError that escapes), the watchdog goes back to its timer and Ctrl-C to
        MicroPython, so a board left at the REPL is never reset under mpremote 8 s later.
        """
        self.wdt = self.hw.watchdog()
        try:
            micropython.kbd_intr(-1)
            try:
                self.boot()
            except Exception as e:  # noqa: BLE001 - reported; the loop still runs
                self.report(e, b"boot")
            while until is None or not until():
                try:
                    self.loop(until)
                except KeyboardInterrupt:
                    raise
                except Exception as e:  # noqa: BLE001 - every fault is reported, then the loop restarts
                    self.report(e)
                    time.sleep_ms(100)
        finally:
            micropython.kbd_intr(_CTRL_C)
            try:
                self.feedback.off()
            except Exception:  # noqa: BLE001 - the watchdog below matters more
                pass
            self.hw.release_watchdog()  # a timer feeds it while the REPL is in charge

