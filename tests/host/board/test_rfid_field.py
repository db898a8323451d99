"""Several cards on the RFID reader, as the host hears of them: FAULT rfid field and its CLEAR
(or the snapshot's `cards`) keep one fault of the board, told to the table as what to do."""

from __future__ import annotations

from upref.board.codes import CodeTable
from upref.board.model import BoardModel, FaultObservation, fault_advice, fault_key
from upref.link.protocol import Fault, FaultCleared, Snapshot

EMPTY10 = (0,) * 10


def test_two_cards_are_a_fault_of_the_field_apart_from_the_reader() -> None:
    assert fault_key("rfid", "field") == "cards"
    assert fault_key("rfid", "reader") == "rfid"
    assert fault_advice("rfid", "field", "two cards on the reader") == (
        "two cards on the reader: tap one at a time"
    )


def test_the_board_model_keeps_the_two_cards_fault_until_it_clears() -> None:
    model = BoardModel(CodeTable.load())
    obs = model.apply(Fault("rfid", "field", "two cards on the reader"))
    assert obs == [FaultObservation("cards", True, "rfid", "field", "two cards on the reader")]
    assert model.faults == {"cards"}
    assert model.apply(FaultCleared("rfid", "field")) == [
        FaultObservation("cards", False, "rfid", "field")
    ]
    assert model.faults == set()


def test_a_snapshot_with_two_cards_on_the_reader_raises_the_same_fault() -> None:
    model = BoardModel(CodeTable.load())
    obs = model.apply(Snapshot(EMPTY10, None, False, ("cards",)))
    assert obs == [FaultObservation("cards", True, "rfid", "field")]
    assert model.apply(Snapshot(EMPTY10, None, False, ())) == [
        FaultObservation("cards", False, "rfid", "field")
    ]
