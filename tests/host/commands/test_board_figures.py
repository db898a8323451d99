"""The board's own figures as `upref doctor` and the bring-up suite word them: each with its
unit, and a plain word when it is outside what a working board shows."""

from __future__ import annotations

from upref.commands.board_figures import BoardFigures, Figure
from upref.link.notices import BoardReset
from upref.link.protocol import CardArrived, Heartbeat, Hello


def hb(up_ms: int = 1000, *, tscan: int = 3000, tmax: int = 4500, late: int = 0, nlate: int = 0,
       reads: int = 0, heap: int = 90, heaplo: int = 88) -> Heartbeat:
    return Heartbeat(up_ms, 100, 100, 0, 0, 0, 0, 0, late_ms=late, tscan_us=tscan, tmax_us=tmax,
                     odrop=0, nlate=nlate, reads=reads, heap_kb=heap, heaplo_kb=heaplo)


def hello(reset: str = "power", resets: tuple[int, ...] | None = (0, 0, 0, 0)) -> Hello:
    return Hello("0.2.0", 2, "240AC4A236BB", 10, ("hall", "rfid", "since"), "92", reset, "0AB1",
                 resets)


def shown(figs: BoardFigures, card: bool = False) -> dict[str, Figure]:
    return {f.name: f for f in figs.figures(card_present=card)}


def test_a_board_that_keeps_up_shows_every_figure_with_its_unit_and_no_trouble() -> None:
    figs = BoardFigures()
    figs.take(hello())
    figs.take(hb(reads=48))
    got = shown(figs, card=True)
    assert got["scan time"].value == "3.0 ms mean, 4.5 ms worst per 10 ms period"
    assert got["late scans"].value == "0 in the last second (0 while watching), worst 0 ms behind"
    assert got["card reads"].value == "48 a second"
    assert got["heap"].value == "90 KB free now, 88 KB at the least, 90 KB at the most"
    assert "since power-on: soft 0, hard 0, wdt 0, other 0" in got["resets"].value
    assert not [f for f in got.values() if f.trouble]


def test_a_scan_that_overruns_its_period_is_too_slow_and_a_busy_one_tight() -> None:
    figs = BoardFigures()
    figs.take(hb(tscan=5000, tmax=12400))
    assert shown(figs)["scan time"].trouble.startswith("TOO SLOW")
    figs.take(hb(2000, tscan=7200, tmax=9000))
    assert shown(figs)["scan time"].trouble.startswith("TIGHT")


def test_the_pass_that_reads_an_arriving_card_past_its_period_is_no_trouble_unless_a_scan_fell_behind() -> None:
    figs = BoardFigures()
    figs.take(hb(tscan=6500, tmax=8000))
    figs.take(CardArrived("04A1B2C3D4E5F6"))
    figs.take(hb(2000, tscan=6600, tmax=14200, late=7))  # its read ran 4 ms past the next scan's time
    scan = shown(figs)["scan time"]
    assert scan.trouble == "" and scan.value.endswith("(a card arrived: its read runs past its period)")
    figs.take(hb(3000, tscan=6600, tmax=13000, late=6))  # the pass may be told a heartbeat later
    assert shown(figs)["scan time"].trouble == ""
    figs.take(hb(4000, tscan=6600, tmax=13000, late=6))  # no card came near this one
    assert shown(figs)["scan time"].trouble.startswith("TOO SLOW")
    figs.take(CardArrived("04A1B2C3D4E5F6"))
    figs.take(hb(5000, tscan=6600, tmax=23000, late=12))  # a scan more than a period late
    assert shown(figs)["scan time"].trouble.startswith("TOO SLOW")


def test_late_scans_are_named_and_added_up_while_watching() -> None:
    figs = BoardFigures()
    figs.take(hb(nlate=3, late=7))
    figs.take(hb(2000, nlate=2, late=25))
    late = shown(figs)["late scans"]
    assert late.value == "2 in the last second (5 while watching), worst 25 ms behind"
    assert late.trouble.startswith("FALLING BEHIND")


def test_card_reads_are_per_second_of_the_board_s_clock_and_slow_only_with_a_card_there() -> None:
    figs = BoardFigures()
    figs.take(hb(1000, reads=0))
    figs.take(hb(3000, reads=10))  # two seconds between these heartbeats
    assert shown(figs, card=True)["card reads"].value == "5 a second"
    assert shown(figs, card=True)["card reads"].trouble.startswith("SLOW")
    assert shown(figs, card=False)["card reads"].value == "5 a second (no card on the reader)"
    assert shown(figs, card=False)["card reads"].trouble == ""


def test_a_low_heap_and_a_watchdog_reset_are_trouble_and_a_reset_seen_is_named() -> None:
    figs = BoardFigures()
    figs.take(hb(heap=12, heaplo=12))
    assert shown(figs)["heap"].trouble.startswith("LOW")
    figs.take(hb(2000, heap=30, heaplo=12))  # a collection: the live data leave 30 KB
    figs.take(hb(3000, heap=4, heaplo=4))  # garbage again, soon collected
    heap = shown(figs)["heap"]
    assert heap.value == "4 KB free now, 4 KB at the least, 30 KB at the most" and not heap.trouble
    figs.take(hb(4000, heap=12, heaplo=4))
    figs.take(BoardReset(hello("wdt", (0, 0, 1, 0))))
    resets = shown(figs)["resets"]
    assert resets.value == ("last start: wdt; since power-on: soft 0, hard 0, wdt 1, other 0; "
                            "seen here: wdt")
    assert resets.trouble.startswith("WATCHDOG")


def test_a_board_that_keeps_no_counts_says_so_and_an_older_heartbeat_still_shows() -> None:
    figs = BoardFigures()
    figs.take(hello(resets=None))
    figs.take(Heartbeat(1000, 100, 100, 0, 0, 0, 0, 0))
    got = shown(figs)
    assert "not kept by this board" in got["resets"].value
    assert "make deploy" in got["scan time"].value
    assert "card reads" not in got and "heap" not in got
