"""SINCE rounds on a noisy line (issue 24, issue 19 section 3): every event is delivered once,
in the board's order, and a snapshot that comes while a round is under way is not diffed
against a picture that still lacks the replayed events."""

from __future__ import annotations

from dataclasses import replace

from fake_serial import BoardFrames, FakeFactory, FakeSerial
from serial_helpers import events_until
from upref.board.codes import CodeTable
from upref.board.model import BoardModel, HoleObservation
from upref.link.connection import Link, LinkSettings
from upref.link.notices import Resynced
from upref.link.protocol import Frame, Hello, HoleChanged, Old, Snapshot, encode_command

HOLES = 10
WAIT = 2.0
CALM = LinkSettings(
    connect_timeout=WAIT, heartbeat_timeout=60.0, snap_retry=60.0, hello_retry=60.0,
    backoff_start=0.01, backoff_max=0.05, poll=0.01,
)


def _hello(board: BoardFrames) -> bytes:
    return board.event(Hello(
        fw="0.2.0", proto=2, board="A4CF12345678", holes=HOLES,
        caps=("hall", "rfid", "led", "buzzer", "button", "since"), rfid="92", reset="power",
        boot="1A2B",
    ))


def _connect(fake: FakeSerial, board: BoardFrames) -> Link:
    fake.expect(encode_command(0, "HELLO"), _hello(board))
    fake.expect(encode_command(1, "SNAP"), board.snap((0,) * HOLES))
    return Link("fake://", replace(CALM, serial_factory=FakeFactory(fake)))


def _items(link: Link, until: type, timeout: float = WAIT) -> list[object]:
    return events_until(link, until, timeout)


def _old(board: BoardFrames, seq: int, ms: int, hole: int, code: int) -> bytes:
    return board.event(Old(seq, ms, HoleChanged(hole, code)))


def test_a_snapshot_mid_round_waits_for_the_replayed_events() -> None:
    fake, board = FakeSerial(), BoardFrames()
    link = _connect(fake, board)
    try:
        _items(link, Resynced)  # the handshake's picture: every hole empty
        lost = []  # hole 5: a pair in, out, in again turned, all three frames lost on the wire
        for code in (40, 0, 37):
            lost.append((board.seq, code))
            board.seq += 1

        def since(frame: Frame) -> list[bytes]:
            # the snapshot answering an earlier request comes first, then the replay
            out = [board.snap((0, 0, 0, 0, 37) + (0,) * 5)]
            out += [_old(board, s, 100 + s, 5, c) for s, c in lost]
            out.append(board.frame("OK", f"{frame.seq:04X}", "SINCE", "n=3", "lost=0"))
            return out

        fake.on("SINCE", since)
        fake.on("SNAP", lambda _f: board.snap((0, 0, 0, 0, 37) + (0,) * 5))
        fake.feed(board.hb())  # the gap: the host asks what it missed
        items = _items(link, Resynced)
        model = BoardModel(CodeTable.load(), HOLES)
        model.apply(Snapshot((0,) * HOLES, None, False, ()))
        obs = [o for i in items for o in model.apply(i)]  # type: ignore[arg-type]
        assert [(o.hole, o.new_code) for o in obs if isinstance(o, HoleObservation)] == [
            (5, 40), (5, 0), (5, 37),
        ], items
        assert [i.seq for i in items if isinstance(i, HoleChanged)] == [s for s, _ in lost]
    finally:
        link.close()


def test_a_round_that_lost_a_frame_keeps_what_came_before_and_after_it() -> None:
    fake, board = FakeSerial(), BoardFrames()
    link = _connect(fake, board)
    try:
        _items(link, Resynced)
        fake.feed(board.event(HoleChanged(1, 40)))  # delivered live
        first = board.seq - 1
        lost = []
        for hole in (2, 3, 4):
            lost.append((board.seq, hole))
            board.seq += 1
        asked: list[str] = []

        def since(frame: Frame) -> list[bytes]:
            asked.append(frame.args[0])
            start = int(frame.args[0], 16)
            olds = [(first, 1)] + lost
            out = []
            for i, (s, h) in enumerate(o for o in olds if o[0] > start):
                if len(asked) == 1 and i == 1:
                    board.seq += 1  # the line loses this OLD in the first round
                    continue
                out.append(_old(board, s, 100 + s, h, 40))
            out.append(board.frame("OK", f"{frame.seq:04X}", "SINCE", f"n={len(olds)}", "lost=0"))
            return out

        fake.on("SINCE", since)
        fake.on("SNAP", lambda _f: board.snap((40, 40, 40, 40) + (0,) * 6))
        fake.feed(board.hb())
        items = _items(link, Resynced)
        got = [(i.seq, i.hole) for i in items if isinstance(i, HoleChanged)]
        assert got == [(first, 1), *lost], items  # each once, in the board's order
        # asked again from just before the last event delivered: its OLD comes first and
        # vouches for the ones after it
        assert len(asked) >= 2 and int(asked[1], 16) < lost[0][0], asked
    finally:
        link.close()


def test_a_resumed_host_gets_the_kept_events_before_its_first_picture() -> None:
    """The handshake's snapshot is newer than what the board sensed while no host listened: the
    replayed events come first, in order (with a live one that came during the handshake, held
    for its turn), and the first picture after them, so nothing older follows it."""
    fake, board = FakeSerial(), BoardFrames(seq=0x40)
    last = 0x3F  # the last event the log applied
    away = [(board.seq, 5, 0), (board.seq + 1, 5, 37)]  # hole 5 pulled and put back turned
    board.seq += 2
    fake.expect(encode_command(0, "HELLO"), _hello(board))
    live = board.seq  # hole 6 filled while the handshake goes on, sent live
    picture = (0, 0, 0, 0, 37, 40) + (0,) * 4
    fake.expect(encode_command(1, "SNAP"), [board.event(HoleChanged(6, 40)), board.snap(picture)])
    kept = [*away, (live, 6, 40)]

    def since(frame: Frame) -> list[bytes]:
        start = int(frame.args[0], 16)
        out = [_old(board, s, 100 + s, h, c) for s, h, c in kept if s > start]
        out.append(board.frame("OK", f"{frame.seq:04X}", "SINCE", f"n={len(out)}", "lost=0"))
        return out

    fake.on("SINCE", since)
    fake.on("SNAP", lambda _f: board.snap(picture))
    link = Link("fake://", replace(CALM, serial_factory=FakeFactory(fake), since=("1A2B", last)))
    try:
        items = _items(link, Resynced)
        got = [(i.seq, i.hole, i.code) for i in items if isinstance(i, HoleChanged)]
        assert got == kept, items  # each once, in the board's order, before the picture
        assert [i for i in items if isinstance(i, Resynced)][0].reason == "resume"
        assert int(fake.wait_command("SINCE")[0].args[0], 16) == last
        assert link.caught_up  # the round is over and its snapshot taken: nothing on its way
    finally:
        link.close()
