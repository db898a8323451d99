"""The board's own figures on the wire: the heartbeat's late scans, card reads and heap, and
HELLO's resets since power-on, read as the firmware writes them and written back the same."""

from __future__ import annotations

import pytest
from upref.link import protocol as p

HB = (b"@0042 HB up=5000 scans=500 sps=100 cmd=3 bad=0 rfe=0 rfr=0 flt=0 late=6 tscan=3480 "
      b"tmax=4760 odrop=0 nlate=2 reads=47 heap=92 heaplo=88")
HELLO = (b"@0000 HELLO fw=0.2.0 proto=2 board=A4CF12345678 holes=10 "
         b"caps=hall,rfid,led,buzzer,button,since rfid=92 reset=wdt boot=3F9A resets=1,0,2,0")


def framed(body: bytes) -> bytes:
    return body + b"*%04X\r\n" % p.crc16(body[1:])


def test_a_heartbeat_with_the_bring_up_figures_reads_and_writes_back_the_same() -> None:
    frame = p.decode(framed(HB))
    hb = p.parse_event(frame)
    assert hb == p.Heartbeat(5000, 500, 100, 3, 0, 0, 0, 0, late_ms=6, tscan_us=3480,
                             tmax_us=4760, odrop=0, nlate=2, reads=47, heap_kb=92, heaplo_kb=88)
    assert p.encode_event(0x42, hb) == framed(HB)


def test_hello_names_the_resets_since_power_on_by_cause() -> None:
    hello = p.parse_event(p.decode(framed(HELLO)))
    assert isinstance(hello, p.Hello)
    assert dict(zip(p.RESET_KINDS, hello.resets or (), strict=True)) == {
        "soft": 1, "hard": 0, "wdt": 2, "other": 0}
    assert p.encode_event(0, hello) == framed(HELLO)


@pytest.mark.parametrize("bad", [b"resets=1,0,2", b"resets=1,0,2,x", b"resets=1,0,256,0"])
def test_a_malformed_resets_count_is_dropped_as_bad_arguments(bad: bytes) -> None:
    frame = p.decode(framed(HELLO.replace(b"resets=1,0,2,0", bad)))
    with pytest.raises(p.InvalidFrameError) as err:
        p.parse_event(frame)
    assert err.value.kind == "args" and "resets" in str(err.value)
