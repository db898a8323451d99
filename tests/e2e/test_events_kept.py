"""The board keeps its recent events until the host has them (issue 24), end to end on the
simulated board: a tap and a press made while no host listens come back in order to the host
that resumes from the last event it applied, a sticker's record with its card (issue 35); more
events than the board keeps give one line with how many are gone; a noisy line loses no tap."""

from __future__ import annotations

import time

import pytest
from harness import Host, Listener, truth
from upref.board.model import ButtonObservation, CardObservation
from upref.board.ndef import piece_message
from upref.board.simtags import sim_memory, sim_uid
from upref.board.tagrecords import PieceTag, TagsAndRecords
from upref.link.notices import EventsLost, Resynced
from upref.link.protocol import (
    Button,
    CardArrived,
    CardLeft,
    Heartbeat,
    HoleChanged,
    TagRecord,
)
from upref.sim.board import SimBoard

UID7 = "04A1B2C3D4E5F6"


def _wait_kept(board: SimBoard, seconds: float) -> None:
    time.sleep(seconds)  # the board senses on its own: nothing to wait for but its scan


@pytest.mark.parametrize("backend", ["cpython", "micropython"])
def test_a_tap_and_a_press_made_while_the_host_is_away_come_back_in_order(
    make_board, make_host, backend: str
) -> None:
    board = make_board(backend=backend, seed=3)
    host = make_host(board.port)
    host.drain(0.3)
    boot, seq = host.link.applied
    assert boot is not None and seq is not None
    host.close()  # the host is killed

    board.tap(UID7)
    _wait_kept(board, 0.5)
    board.remove(UID7)
    _wait_kept(board, 0.5)
    board.button("press")
    _wait_kept(board, 0.2)
    board.button("release")
    _wait_kept(board, 0.2)

    again = Host(board.port, since=(boot, seq))
    try:
        want = [(CardArrived, UID7), (CardLeft, UID7), (Button, True), (Button, False)]

        def got() -> list[tuple[type, object]]:
            return [
                (type(i), getattr(i, "uid", getattr(i, "pressed", None)))
                for i in again.items
                if isinstance(i, CardArrived | CardLeft | Button)
            ]

        assert again.pump(lambda: got() == want, 10), got()
        replayed = [i for i in again.items if isinstance(i, CardArrived | CardLeft | Button)]
        times = [i.board_ms for i in replayed]
        assert None not in times and times == sorted(times), times
        assert [i.seq for i in replayed] == sorted(i.seq for i in replayed)
        obs = [o for o in again.observations if isinstance(o, CardObservation | ButtonObservation)]
        assert obs == [
            CardObservation(True, UID7), CardObservation(False, UID7),
            ButtonObservation(True), ButtonObservation(False),
        ], obs
    finally:
        again.close()


@pytest.mark.parametrize("backend", ["cpython", "micropython"])
def test_a_sticker_laid_while_the_host_is_away_comes_back_with_its_record(
    make_board, make_host, backend: str
) -> None:
    """The host is killed, a card whose sticker names its piece is laid on the reader and left
    there; the host that resumes hears the sticker's record before the card, as it would live,
    and knows the piece with no tag book at all (`--no-tag-book`)."""
    uid = sim_uid("updown", "T05")
    board = make_board(backend=backend, seed=6)
    board.carry({uid: sim_memory("updown", "T05")})
    host = make_host(board.port)
    boot, seq = host.link.applied
    assert boot is not None and seq is not None
    host.close()  # the host is killed

    with Listener(board.port) as heard:  # no host: a plain reader hears the board report the card
        board.tap(uid)
        assert heard.until(lambda: heard.count(CardArrived) > 0, 15), heard.events

    again = Host(board.port, since=(boot, seq))
    try:
        assert again.pump(lambda: bool(again.of_type("CardArrived")) and bool(again.of_type("Resynced")), 15), \
            again.items
        message = piece_message("updown", "T05")
        taps = [i for i in again.items if isinstance(i, TagRecord | CardArrived)]
        assert taps == [TagRecord(uid, len(message), message), CardArrived(uid)], again.items
        assert taps[1].board_ms is not None  # type: ignore[union-attr]  # replayed, not live
        tags = TagsAndRecords(None, {"updown": [("T05", "1 shovel")]}, "updown")
        assert tags.learn(taps[0]) == []  # type: ignore[arg-type]
        assert tags.lookup(uid) == PieceTag(uid, "updown", "T05")
        assert again.model.card == uid
    finally:
        again.close()


def test_a_pair_turned_while_the_host_is_away_comes_back_before_the_picture(make_board, make_host) -> None:
    """The resumed host's first snapshot is newer than every event the board kept meanwhile:
    the pull and the insert come first, in order, and the picture after them, so that nothing
    older than the picture is applied after it (the referee would see the pair turned twice)."""
    board = make_board(seed=5)
    host = make_host(board.port)
    host.drain(0.3)
    boot, seq = host.link.applied
    assert boot is not None and seq is not None
    host.close()  # the host is killed

    before = truth(board)
    board.flip(3)  # pulled, turned over, put back
    board.wait_for(lambda st: bool(st["holes"][2].get("pair")))
    _wait_kept(board, 0.5)
    after = truth(board)
    assert after[2] != before[2]

    again = Host(board.port, since=(boot, seq))
    try:
        assert again.pump(lambda: bool(again.of_type("Resynced")), 10), again.items
        again.drain(0.5)
        first = next(i for i, item in enumerate(again.items) if isinstance(item, Resynced))
        hole3 = [(i, item.code) for i, item in enumerate(again.items)
                 if isinstance(item, HoleChanged) and item.hole == 3]
        assert [code for _i, code in hole3] == [0, after[2]], hole3
        assert all(i < first for i, _code in hole3), (hole3, first)
        assert again.codes() == after
    finally:
        again.close()


def test_more_events_than_the_board_keeps_say_in_one_line_how_many_are_gone(
    make_board, make_host
) -> None:
    board = make_board(seed=4)
    host = make_host(board.port)
    host.drain(0.3)
    boot, seq = host.link.applied
    host.close()
    clicks = 40  # 80 events, the ring keeps 64
    with Listener(board.port) as heard:  # no host: a plain reader counts what the board says
        for _ in range(clicks):
            board.button("press")
            heard.listen(0.04)
            board.button("release")
            heard.listen(0.04)
        # two heartbeats after the last release, the board has said every click it saw (a
        # press the scan of a loaded machine missed makes no event, nor does its release)
        beats = heard.count(Heartbeat)
        assert heard.until(lambda: heard.count(Heartbeat) >= beats + 2, 15), "the board fell silent"
        made = heard.count(Button)
        assert made % 2 == 0, made
    assert made > 64, f"the board made only {made} events of {clicks} clicks: nothing to lose"
    again = Host(board.port, since=(boot, seq))
    try:
        assert again.pump(lambda: bool(again.of_type("EventsLost")) and bool(again.of_type("Resynced")), 10)
        (lost,) = again.of_type("EventsLost")
        assert isinstance(lost, EventsLost)
        assert lost.count == made - 64 and not lost.at_least, (lost, made)
        assert f"{lost.count} events while the link was down are gone" in lost.text
        again.drain(0.5)
        presses = [i for i in again.items if isinstance(i, Button)]
        assert len(presses) == 64 and all(p.board_ms is not None for p in presses)
        assert not again.model.button
    finally:
        again.close()


def test_a_noisy_line_loses_no_tap(make_board, make_host) -> None:
    board = make_board(seed=8)
    host = make_host(board.port)
    board.noise(1e-2)
    taps = ["04A1B2C3D4E5F6", "DEADBEEF", "04112233445566"]
    for uid in taps:
        board.tap(uid)
        time.sleep(0.4)
        board.remove(uid)
        time.sleep(0.4)

    def cards() -> list[tuple[bool, str]]:
        return [(o.arrived, o.uid) for o in host.observations if isinstance(o, CardObservation)]

    want = [(arrived, uid) for uid in taps for arrived in (True, False)]
    assert host.pump(lambda: cards() == want, 40), (cards(), host.link.counters)
    board.noise(0)
    host.drain(1.0)
    assert cards() == want, cards()
    assert host.link.counters.since > 0
