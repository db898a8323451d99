# How often the loop looks at the RFID field and how soon a tapped card is reported, on the fake
# board (app_harness.py). The slot the scans leave the reader is counted here in exchanges (the
# App's own _rfid_left_us, replaced: 5 ms after each scan, 3 ms an exchange), so that the
# machine's speed decides nothing. Runs under pytest and under the MicroPython unix port.
import time

from app_harness import UID7, make, sent


class _Counted:
    """The fake reader, with its reads and exchanges counted."""

    def __init__(self, reader):
        self._r = reader
        self.starts = 0
        self.exchanges = 0
        self.at_scan = 0  # exchanges before the last scan

    def __getattr__(self, name):
        return getattr(self._r, name)

    def read_start(self):
        self.starts += 1
        self._r.read_start()

    def read_step(self, into):
        self.exchanges += 1
        return self._r.read_step(into)


def _counted(a, hw):
    r = _Counted(hw.rfid)
    a.cards._reader = r
    scan = a.scan_cycle

    def scan_cycle(now, quiet=False):
        r.at_scan = r.exchanges
        scan(now, quiet)

    a.scan_cycle = scan_cycle
    a._rfid_left_us = lambda: 5000 - 3000 * (r.exchanges - r.at_scan)
    return r


def test_the_empty_field_is_looked_at_every_scan_period_and_a_card_lying_there_every_other():
    hw, a = make()
    r = _counted(a, hw)
    t = time.ticks_ms()
    for i in range(20):  # 200 ms of the board's time, a step a scan period
        a.step(time.ticks_add(t, 10 * i))
    assert r.starts >= 19, r.starts  # the empty field: every period
    hw.rfid.set_field([UID7])
    for i in range(20, 40):
        a.step(time.ticks_add(t, 10 * i))
    assert ("CARD", ["+", "04A1B2C3D4E5F6"]) in sent(a)
    before = r.starts
    for i in range(40, 80):  # 400 ms with the card lying there
        a.step(time.ticks_add(t, 10 * i))
    assert 18 <= r.starts - before <= 22, r.starts - before  # every 20 ms


def test_a_card_that_answers_is_read_whole_and_reported_in_the_same_pass():
    # two exchanges fit a period's slot: the slot alone would spread the card's read (six
    # exchanges) over three periods
    hw, a = make()
    hw.rfid.steps = 6
    r = _counted(a, hw)
    t = time.ticks_ms()
    a.step(t)
    sent(a)
    hw.rfid.set_field([UID7])
    for i in range(1, 4):
        exchanges = r.exchanges
        a.step(time.ticks_add(t, 10 * i))
        if r.exchanges > exchanges:  # the pass in which the card first answered
            break
    assert ("CARD", ["+", "04A1B2C3D4E5F6"]) in sent(a), r.exchanges


def test_once_a_card_has_left_the_field_is_looked_at_every_period_again():
    hw, a = make()
    r = _counted(a, hw)
    hw.rfid.set_field([UID7])
    t = time.ticks_ms()
    i = 0
    while ("CARD", ["+", "04A1B2C3D4E5F6"]) not in sent(a) and i < 20:
        a.step(time.ticks_add(t, 10 * i))
        i += 1
    hw.rfid.set_field([])
    gone = False
    while not gone and i < 60:
        a.step(time.ticks_add(t, 10 * i))
        gone = ("CARD", ["-", "04A1B2C3D4E5F6"]) in sent(a)
        i += 1
    assert gone
    before = r.starts
    for k in range(i, i + 4):  # the next card may come at once: four periods, four looks
        a.step(time.ticks_add(t, 10 * k))
    assert r.starts - before == 4, r.starts - before
