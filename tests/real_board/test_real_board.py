"""The bring-up suite: the checks a builder runs on the first real board, in the order of
docs/build.md ("Bring-up"), each printing what it measured. Run only when BOARD_PORT names a
board:

    make bringup PORT=/dev/ttyUSB0        (pytest tests/real_board -s, one step after another)

A card step waits for a card on the reader (BRINGUP_CARD_WAIT seconds, 60 unless set). Read-only:
nothing here writes the board's flash or changes its calibration. tests/e2e/test_bringup_suite.py
runs this file against the simulated board, so it is never dead code."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import pytest
from bringup_checks import Watch, say, sensor_deltas, version_words
from upref import resources
from upref.commands.board_figures import CARD_READS_MIN, SCAN_PERIOD_MS
from upref.link.connection import Link
from upref.link.protocol import PROTO_VERSION, RESET_KINDS, Ok

PORT = os.environ.get("BOARD_PORT")
pytestmark = [
    pytest.mark.hardware,
    pytest.mark.skipif(not PORT, reason="no board: set BOARD_PORT to a real board's port to run these"),
]
HOLES = 10
CARD_WAIT_S = float(os.environ.get("BRINGUP_CARD_WAIT", "60"))


@pytest.fixture(scope="module")
def watch() -> Iterator[Watch]:
    assert PORT is not None
    with Link(PORT) as lk:
        yield Watch(lk)


def thresholds() -> dict[str, int]:
    with open(resources.pinmap_path(), encoding="utf-8") as f:
        return dict(json.load(f)["hall"]["thresholds"])


def test_1_the_board_answers_the_handshake_with_our_protocol(watch: Watch) -> None:
    h = watch.link.hello
    assert h is not None
    say("1 handshake", f"firmware {h.fw}, protocol {h.proto}, board {h.board}, {h.holes} holes, "
        f"capabilities {','.join(h.caps)}")
    assert h.proto == PROTO_VERSION, f"protocol {h.proto}, this host speaks {PROTO_VERSION}: make deploy"
    assert h.holes == HOLES, f"the board says {h.holes} holes: its pin map is not this board's"


def test_2_no_watchdog_reset_or_brown_out_since_power_on(watch: Watch) -> None:
    h = watch.link.hello
    assert h is not None
    fig = watch.figure("resets")
    say("2 resets", f"{fig.value}" + (f" -> {fig.trouble}" if fig.trouble else " -> ok"))
    counts = dict(zip(RESET_KINDS, h.resets or (0, 0, 0, 0), strict=True))
    assert h.reset != "wdt" and not counts["wdt"], fig.trouble
    assert not counts["other"], fig.trouble


def test_3_the_reader_answers_with_its_version_register(watch: Watch) -> None:
    h = watch.link.hello
    assert h is not None
    words, ok = version_words(h.rfid)
    say("3 reader", f"VersionReg {words}")
    assert ok, words


def test_4_a_loopback_echo_comes_back_intact(watch: Watch) -> None:
    reply = watch.link.echo("upref-real-board-check")
    c = watch.link.counters
    say("4 line", f"echo came back {'intact' if reply == 'upref-real-board-check' else repr(reply)}; "
        f"CRC errors {c.crc}, malformed {c.shape}, gaps {c.gaps} so far")
    assert reply == "upref-real-board-check"


def test_5_every_sensor_is_inside_the_rails(watch: Watch) -> None:
    reply = watch.link.command("RAW", timeout=3.0)
    assert isinstance(reply, Ok)
    raw = watch.link.raw
    assert set(raw) == set(range(1, HOLES + 1)), f"RAW answered for holes {sorted(raw)}"
    t = thresholds()
    bad = []
    for hole, r in sorted(raw.items()):
        say("5 sensors", f"hole {hole:2}: levels {' '.join(f'{v:5}' for v in r.levels)}  "
            f"zeros {' '.join(f'{v:5}' for v in r.zeros)}")
        bad += [f"hole {hole} P{p}: {v}" for p, v in enumerate(r.levels, 1)
                if not t["rail_low"] < v < t["rail_high"]]
    assert not bad, f"sensors at a rail ({t['rail_low']}..{t['rail_high']}): {bad}: check each one's " \
        "supply, ground and multiplexer channel; a whole bank at 0 is its supply switch"


def test_6_empty_holes_rest_at_their_zero_and_seated_pairs_read_valid_codes(watch: Watch) -> None:
    watch.link.command("RAW", timeout=3.0)
    model, t = watch.model, thresholds()
    off = t["off"]
    restless = []
    for hole, hs in sorted(model.holes.items()):
        deltas = sensor_deltas(watch.link.raw[hole].levels, watch.link.raw[hole].zeros)
        what = "empty" if hs.empty else f"code {hs.code} ({model.codes.short(hs.code) if hs.valid else 'INVALID'})"
        say("6 holes", f"hole {hole:2}: {what:24} level - zero {' '.join(f'{d:+6}' for d in deltas)}")
        if hs.empty:
            restless += [f"hole {hole} P{p} {d:+}" for p, d in enumerate(deltas, 1) if abs(d) >= off]
    invalid = {h: s.code for h, s in model.holes.items() if not s.empty and not s.valid}
    assert not invalid, f"holes reading invalid codes: {invalid}: reseat those pairs, or run upref doctor --selftest"
    assert not model.faults, f"board faults: {sorted(model.faults)} (upref doctor names them)"
    assert not restless, f"sensors of empty holes {off} or more from their zero: {restless}: " \
        "calibrate with the board empty (upref doctor --calibrate), or take a magnet or phone away"


def test_7_the_scan_fits_its_period(watch: Watch) -> None:
    # (a card's arrival may make one pass longer than a period, by design: its seconds are left
    # out of the busy time here, not of the lateness)
    start = len(watch.heartbeats)
    hbs = watch.next_steady_heartbeats(3)
    scan, late = watch.figure("scan time"), watch.figure("late scans")
    for fig in (scan, late):
        say("7 scan", f"{fig.name}: {fig.value}" + (f" -> {fig.trouble}" if fig.trouble else " -> ok"))
    worst = max((hb.tmax_us or 0) for hb in hbs) / 1000
    assert worst <= SCAN_PERIOD_MS, scan.trouble or f"worst {worst:.1f} ms"
    assert all((hb.late_ms or 0) <= SCAN_PERIOD_MS for hb in watch.heartbeats[start:]), late.trouble


def test_8_the_heap_has_room(watch: Watch) -> None:
    watch.next_heartbeats(3)  # the most free heap of them: garbage counts until it is collected
    fig = watch.figure("heap")
    say("8 heap", fig.value + (f" -> {fig.trouble}" if fig.trouble else " -> ok"))
    assert not fig.trouble, fig.trouble


def test_9_a_card_on_the_reader_is_read_again_and_again(watch: Watch) -> None:
    if watch.model.card is None:
        say("9 card", f"put a card (or a tile) on the reader; waiting up to {CARD_WAIT_S:.0f} s")
    arrived = watch.pump(lambda: watch.model.card is not None, CARD_WAIT_S)
    assert arrived, f"no card read in {CARD_WAIT_S:.0f} s: if one lay there, SELECT fails (the " \
        "reader's errors rise in upref doctor): check the antenna's distance and the reader's 3.3 V"
    hbs = watch.next_heartbeats(3)[1:]  # whole seconds with the card there
    rate = watch.figures.reads_per_s() or 0.0
    errors = hbs[-1].rfe - hbs[0].rfe
    say("9 card", f"card {watch.model.card}: {rate:.0f} reads a second, {errors} reader errors "
        f"in {len(hbs) - 1} s; SAK with or without its CRC bytes, the driver takes either")
    assert watch.model.card is not None, "the card left during the step: leave it on the reader"
    assert rate >= CARD_READS_MIN, watch.figure("card reads").trouble
    assert errors <= rate, f"{errors} reader errors a second beside {rate:.0f} reads: the card " \
        "sits at the edge of the field or the antenna is detuned"
