"""A card lying on the reader, or a hole left as it was, through a board reset, an unplug and
replug or a resync gives no observation; what really changed in the gap still does.

A board that has just booted sends its first snapshot before its reader has looked at the
field, so that snapshot says "no card" and the reader then reports the card as it finds it."""

from __future__ import annotations

import pytest
from upref.board.codes import CodeTable
from upref.board.model import (
    READER_LOOK_MS,
    BoardModel,
    CardObservation,
    HoleObservation,
    Observation,
)
from upref.link.notices import BoardReset, LinkItem, Offline, Online, Resynced
from upref.link.protocol import CardArrived, CardLeft, Heartbeat, Hello, HoleChanged, Snapshot

UID = "04A1B2C3D4E5F6"
OTHER = "04A1B2C3D4E5F7"
HOLES = (65, 37, 62, 59, 0, 35, 75, 23, 74, 61)


def hello(boot: str | None, proto: int = 2) -> Hello:
    caps = ("hall", "rfid", "since") if proto == 2 else ("hall", "rfid")
    return Hello("0.2.0", proto, "240AC4A236BB", 10, caps, "92", "hard", boot)


def heartbeat(uptime_ms: int) -> Heartbeat:
    return Heartbeat(uptime_ms, 0, 0, 0, 0, 0, 0, 0)


def snap(card: str | None, holes: tuple[int, ...] = HOLES) -> Snapshot:
    return Snapshot(holes, card, False, (), 0)


def apply_all(model: BoardModel, items: list[LinkItem]) -> list[Observation]:
    out: list[Observation] = []
    for item in items:
        out += model.apply(item)
    return out


@pytest.fixture
def model() -> BoardModel:
    """A board model that has seen the board connect and a card tapped and left lying there."""
    m = BoardModel(CodeTable.load())
    apply_all(m, [hello("0AB1"), Online("fake://"), Resynced(snap(None), "connect")])
    assert m.apply(CardArrived(UID)) == [CardObservation(True, UID)]
    return m


def reset(card_seen_first: str | None) -> list[LinkItem]:
    """A board reset as the link delivers it: the boot's own snapshot, the resync after the
    board's kept events, then what the reader finds."""
    items: list[LinkItem] = [
        BoardReset(hello("7CA9")),
        snap(None),
        Resynced(snap(None), "board reset"),
    ]
    if card_seen_first is not None:
        items.append(CardArrived(card_seen_first))
    return items


def replug(card_seen_first: str | None) -> list[LinkItem]:
    """An unplug and replug: the board lost its power and booted again (another boot id)."""
    items: list[LinkItem] = [
        Offline("lost the port"),
        hello("51E0"),
        Online("fake://"),
        Resynced(snap(None), "reconnect to a restarted board"),
    ]
    if card_seen_first is not None:
        items.append(CardArrived(card_seen_first))
    return items


@pytest.mark.parametrize("fault", [reset, replug], ids=["reset", "replug"])
def test_a_card_lying_through_a_boot_gives_nothing(model: BoardModel, fault) -> None:
    assert apply_all(model, fault(UID)) == []
    assert model.card == UID and model.unread is None
    # and long after, nothing either
    assert apply_all(model, [heartbeat(1000), heartbeat(READER_LOOK_MS + 1000)]) == []
    # the card taken off and tapped again is a tap
    assert apply_all(model, [CardLeft(UID), CardArrived(UID)]) == [
        CardObservation(False, UID),
        CardObservation(True, UID),
    ]


@pytest.mark.parametrize("fault", [reset, replug], ids=["reset", "replug"])
def test_until_the_reader_has_looked_the_card_is_kept(model: BoardModel, fault) -> None:
    assert apply_all(model, fault(None)) == []
    assert model.card == UID and model.unread == UID
    # a heartbeat soon after the boot: the reader may not have spoken yet
    assert model.apply(heartbeat(READER_LOOK_MS - 1)) == []
    assert model.apply(CardArrived(UID)) == []
    assert model.card == UID and model.unread is None


@pytest.mark.parametrize("fault", [reset, replug], ids=["reset", "replug"])
def test_a_card_taken_off_during_the_boot_leaves_once_the_reader_has_looked(
    model: BoardModel, fault
) -> None:
    assert apply_all(model, fault(None)) == []
    assert model.apply(heartbeat(READER_LOOK_MS)) == [CardObservation(False, UID)]
    assert model.card is None and model.unread is None
    # the same card tapped later is a tap
    assert model.apply(CardArrived(UID)) == [CardObservation(True, UID)]


@pytest.mark.parametrize("fault", [reset, replug], ids=["reset", "replug"])
def test_another_card_tapped_during_the_boot_is_a_tap(model: BoardModel, fault) -> None:
    assert apply_all(model, fault(OTHER)) == [
        CardObservation(False, UID),
        CardObservation(True, OTHER),
    ]
    assert model.card == OTHER and model.unread is None


@pytest.mark.parametrize("fault", [reset, replug], ids=["reset", "replug"])
def test_a_card_that_arrived_in_the_gap_on_an_empty_reader_is_a_tap(fault) -> None:
    m = BoardModel(CodeTable.load())
    apply_all(m, [hello("0AB1"), Online("fake://"), Resynced(snap(None), "connect")])
    assert apply_all(m, fault(UID)) == [CardObservation(True, UID)]


def test_a_later_snapshot_that_shows_the_card_settles_it(model: BoardModel) -> None:
    assert apply_all(model, reset(None)) == []
    assert model.apply(Resynced(snap(UID), "sequence gap")) == []
    assert model.unread is None
    # the reader had it: a heartbeat changes nothing
    assert model.apply(heartbeat(READER_LOOK_MS + 500)) == []
    assert model.card == UID


def test_a_snapshot_that_shows_another_card_is_a_departure_and_a_tap(model: BoardModel) -> None:
    assert apply_all(model, reset(None)) == []
    assert model.apply(Resynced(snap(OTHER), "sequence gap")) == [
        CardObservation(False, UID),
        CardObservation(True, OTHER),
    ]


def test_a_heartbeat_before_the_snapshot_does_not_take_the_card_away(model: BoardModel) -> None:
    # a replug: the board's heartbeat can come between its HELLO and the snapshot asked for
    items: list[LinkItem] = [Offline("lost the port"), hello("51E0"), Online("fake://")]
    assert apply_all(model, items) == []
    assert model.apply(heartbeat(READER_LOOK_MS + 5000)) == []
    assert model.apply(Resynced(snap(UID), "reconnect to a restarted board")) == []
    assert model.card == UID


def test_a_resync_with_the_card_still_there_gives_nothing(model: BoardModel) -> None:
    assert model.apply(Resynced(snap(UID), "sequence gap")) == []
    assert model.apply(Resynced(snap(UID), "crc")) == []
    assert model.card == UID and model.unread is None


def test_a_reconnect_to_the_same_boot_trusts_its_snapshot(model: BoardModel) -> None:
    """The board kept running (its boot id is the same): its reader knows the field, so a
    snapshot without the card is the card's departure, at once."""
    items: list[LinkItem] = [Offline("lost the port"), hello("0AB1"), Online("fake://")]
    assert apply_all(model, items) == []
    assert model.unread is None
    assert model.apply(Resynced(snap(None), "reconnect")) == [CardObservation(False, UID)]


def test_a_board_that_cannot_name_its_boot_is_given_the_benefit_of_the_doubt() -> None:
    """Protocol 1 sends no boot id: after a reconnect the board may have booted. The card is
    kept until a heartbeat says the board has run long enough for its reader to look."""
    m = BoardModel(CodeTable.load())
    apply_all(m, [hello(None, 1), Online("fake://"), Resynced(snap(None), "connect")])
    m.apply(CardArrived(UID))
    items: list[LinkItem] = [Offline("silent"), hello(None, 1), Online("fake://")]
    assert apply_all(m, items + [Resynced(snap(None), "reconnect"), CardArrived(UID)]) == []
    assert m.card == UID
    # taken off while the host was away from a board that kept running: its heartbeat says so
    apply_all(m, items)
    assert m.apply(Resynced(snap(None), "reconnect")) == []
    assert m.apply(heartbeat(3_600_000)) == [CardObservation(False, UID)]


@pytest.mark.parametrize("fault", [reset, replug], ids=["reset", "replug"])
def test_holes_left_as_they_were_give_nothing(model: BoardModel, fault) -> None:
    assert apply_all(model, fault(UID)) == []
    assert tuple(model.holes[h].code for h in sorted(model.holes)) == HOLES


def test_holes_left_as_they_were_through_a_resync_give_nothing(model: BoardModel) -> None:
    assert model.apply(Resynced(snap(UID), "sequence gap")) == []


@pytest.mark.parametrize("fault", [reset, replug], ids=["reset", "replug"])
def test_a_hole_changed_in_the_gap_is_observed_once(model: BoardModel, fault) -> None:
    moved = (0,) + HOLES[1:4] + (65,) + HOLES[5:]  # the pair from hole 1 into hole 5
    items = [
        Resynced(Snapshot(moved, None, False, (), 0), i.reason)
        if isinstance(i, Resynced)
        else Snapshot(moved, None, False, (), 0)
        if isinstance(i, Snapshot)
        else i
        for i in fault(UID)
    ]
    obs = apply_all(model, items)
    assert [(o.hole, o.old_code, o.new_code) for o in obs if isinstance(o, HoleObservation)] == [
        (1, 65, 0),
        (5, 0, 65),
    ]
    assert not [o for o in obs if isinstance(o, CardObservation)]
    assert model.apply(HoleChanged(5, 65)) == []
