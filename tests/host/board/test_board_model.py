"""The board model: the picture from snapshots and events, and the observations it makes."""

from __future__ import annotations

import pytest
from upref.board.codes import CodeTable, MoleEnd
from upref.board.model import (
    BoardModel,
    ButtonObservation,
    CardObservation,
    FaultObservation,
    HoleObservation,
)
from upref.link.notices import BoardReset, Dropped, Offline, Online, Resynced
from upref.link.protocol import (
    Button,
    CardArrived,
    CardLeft,
    Fault,
    FaultCleared,
    Heartbeat,
    Hello,
    HoleChanged,
    Snapshot,
)

EMPTY10 = (0,) * 10
UID = "04A1B2C3D4E5F6"


@pytest.fixture(scope="module")
def codes() -> CodeTable:
    return CodeTable.load()


@pytest.fixture
def model(codes: CodeTable) -> BoardModel:
    return BoardModel(codes)


def snap(
    holes: tuple[int, ...] = EMPTY10,
    card: str | None = None,
    button: bool = False,
    faults: tuple[str, ...] = (),
) -> Snapshot:
    return Snapshot(holes, card, button, faults)


def test_starts_empty(model: BoardModel) -> None:
    assert sorted(model.holes) == list(range(1, 11))
    assert all(h.empty and h.valid and h.end is None for h in model.holes.values())
    assert model.card is None and not model.button and not model.faults and not model.online


def test_hole_change_names_the_mole(model: BoardModel) -> None:
    [obs] = model.apply(HoleChanged(4, 65))
    assert isinstance(obs, HoleObservation)
    assert (obs.hole, obs.old_code, obs.new_code) == (4, 0, 65)
    assert obs.new.end == MoleEnd("P-RB", "B", "R") and obs.new.valid
    assert model.holes[4].end == MoleEnd("P-RB", "B", "R")
    assert model.codes.describe(model.holes[4].code) == "P-RB with red up"
    # the same code again is no change
    assert model.apply(HoleChanged(4, 65)) == []
    [back] = model.apply(HoleChanged(4, 0))
    assert isinstance(back, HoleObservation)
    assert (back.old_code, back.new_code, back.old.end) == (65, 0, MoleEnd("P-RB", "B", "R"))


def test_invalid_code_is_named_invalid(model: BoardModel) -> None:
    [obs] = model.apply(HoleChanged(2, 19))  # N-S-: a magnet lost
    assert isinstance(obs, HoleObservation)
    assert obs.new.end is None and not obs.new.valid
    assert model.codes.describe(model.holes[2].code).startswith("invalid code 19")


def test_cards(model: BoardModel) -> None:
    assert model.apply(CardArrived(UID)) == [CardObservation(True, UID)]
    assert model.apply(CardArrived(UID)) == []
    assert model.apply(CardArrived("DEADBEEF")) == [
        CardObservation(False, UID),
        CardObservation(True, "DEADBEEF"),
    ]
    assert model.apply(CardLeft("DEADBEEF")) == [CardObservation(False, "DEADBEEF")]
    assert model.apply(CardLeft("DEADBEEF")) == []
    assert model.card is None


def test_departure_of_another_card_means_ours_left_unseen(model: BoardModel) -> None:
    model.apply(CardArrived(UID))
    assert model.apply(CardLeft("DEADBEEF")) == [CardObservation(False, UID)]
    assert model.card is None


def test_button(model: BoardModel) -> None:
    assert model.apply(Button(True)) == [ButtonObservation(True)]
    assert model.apply(Button(True)) == []
    assert model.apply(Button(False)) == [ButtonObservation(False)]


def test_faults(model: BoardModel) -> None:
    [raised] = model.apply(Fault("sensor", "s7", "rail"))
    assert raised == FaultObservation("s7", True, "sensor", "s7", "rail")
    assert model.faults == {"s7"} and model.fault_texts["s7"] == "rail"
    assert model.apply(Fault("sensor", "s7", "rail")) == []
    assert model.apply(FaultCleared("sensor", "s7")) == [
        FaultObservation("s7", False, "sensor", "s7")
    ]
    assert model.apply(FaultCleared("sensor", "s7")) == []
    # an exception in the loop is an event of a moment: observed, not kept
    [exc] = model.apply(Fault("exc", "loop", "TypeError: x"))
    assert isinstance(exc, FaultObservation)
    assert exc.raised and exc.kind == "exc"
    assert model.faults == set()
    model.apply(Fault("rfid", "reader", "no answer"))
    assert model.faults == {"rfid"}


def test_snapshot_diff_recovers_lost_changes(model: BoardModel) -> None:
    model.apply(snap(holes=(13, 0, 23, 25, 26, 31, 35, 37, 39, 47)))
    model.apply(CardArrived(UID))
    model.apply(Fault("sensor", "s7", "rail"))
    # lost on the wire: hole 2 got a pair, hole 10 emptied, the card left, the button went
    # down, sensor 7 recovered and hole 3 became unsettled
    obs = model.apply(
        Resynced(snap(holes=(13, 17, 23, 25, 26, 31, 35, 37, 39, 0), button=True, faults=("h3",)))
    )
    assert obs == [
        HoleObservation(2, 0, 17, model.state_of(0), model.state_of(17)),
        HoleObservation(10, 47, 0, model.state_of(47), model.state_of(0)),
        CardObservation(False, UID),
        ButtonObservation(True),
        FaultObservation("h3", True, "hole", "h3"),
        FaultObservation("s7", False, "sensor", "s7"),
    ]
    assert model.holes[2].code == 17 and model.card is None and model.button
    assert model.faults == {"h3"}


def test_card_that_came_and_went_unseen_gives_nothing(model: BoardModel) -> None:
    model.apply(snap())
    assert model.apply(snap()) == []


def test_card_present_that_the_picture_lacks_arrives(model: BoardModel) -> None:
    model.apply(snap())
    assert model.apply(snap(card=UID)) == [CardObservation(True, UID)]
    assert model.apply(snap(card="DEADBEEF")) == [
        CardObservation(False, UID),
        CardObservation(True, "DEADBEEF"),
    ]


def test_first_snapshot_reports_what_is_on_the_board(model: BoardModel) -> None:
    obs = model.apply(snap(holes=(65, 0, 0, 0, 0, 0, 0, 0, 0, 19)))
    assert [(o.hole, o.new_code) for o in obs if isinstance(o, HoleObservation)] == [
        (1, 65),
        (10, 19),
    ]


def test_notices(model: BoardModel, codes: CodeTable) -> None:
    hello = Hello("0.1.0", 1, "A4CF12345678", 12, (), None, "power")
    assert model.apply(Online("fake://")) == [] and model.online
    assert model.apply(Offline("silent")) == [] and not model.online
    assert model.apply(BoardReset(hello)) == []
    assert len(model.holes) == 12 and model.hello == hello
    assert model.apply(Dropped("crc", b"@x")) == []
    assert model.apply(Heartbeat(1, 2, 3, 4, 5, 6, 7, 8)) == []


def presses_seen(obs: list[object]) -> list[bool]:
    return [o.pressed for o in obs if isinstance(o, ButtonObservation)]


def test_clicks_lost_on_the_wire_are_recovered_from_the_snapshot_count(model: BoardModel) -> None:
    model.apply(Resynced(Snapshot(EMPTY10, None, False, (), presses=4), "connect"))
    # presses before this host connected are not replayed
    assert model.presses == 4
    model.apply(Button(True))
    model.apply(Button(False))
    assert model.presses == 5
    # two whole clicks lost to line noise; the resync snapshot counts them
    obs = model.apply(Resynced(Snapshot(EMPTY10, None, False, (), presses=7), "crc"))
    assert presses_seen(obs) == [True, False, True, False]
    assert model.presses == 7 and not model.button


def test_a_lost_release_and_a_held_new_press_come_out_in_order(model: BoardModel) -> None:
    model.apply(Resynced(Snapshot(EMPTY10, None, False, (), presses=0), "connect"))
    model.apply(Button(True))  # seen; its release and the next press were lost
    obs = model.apply(Resynced(Snapshot(EMPTY10, None, True, (), presses=2), "gap"))
    assert presses_seen(obs) == [False, True]
    assert model.button and model.presses == 2


def test_after_a_board_reset_presses_count_from_its_boot(model: BoardModel, codes: CodeTable) -> None:
    model.apply(Resynced(Snapshot(EMPTY10, None, False, (), presses=9), "connect"))
    hello = Hello("0.1.0", 1, "A4CF12345678", 10, ("hall",), "92", "hard")
    model.apply(BoardReset(hello))
    obs = model.apply(Resynced(Snapshot(EMPTY10, None, False, (), presses=1), "board reset"))
    assert presses_seen(obs) == [True, False]


def test_fault_advice_says_what_where_and_what_to_do() -> None:
    from upref.board.model import fault_advice

    s = fault_advice("sensor", "s10", "rail low")
    assert "sensor 10 (hole 3, position P2)" in s and "rail low" in s and "Check its wiring" in s
    h = fault_advice("hole", "h4", "never settles")
    assert "hole 4" in h and "Seat the pair" in h
    r = fault_advice("rfid", "reader", "MFRC522 not answering: VersionReg=0x00")
    assert "VersionReg=0x00" in r and "3.3 V" in r
