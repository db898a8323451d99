"""The speech queue keeps up with the table: a refusal is never dropped, a newer "whose turn"
replaces an older one not yet spoken, and news that waited too long or that the queue has no
room for is dropped; writing files keeps every line."""

from __future__ import annotations

import threading

from upref.referee.base import Reply
from upref.referee.status import BOARD, ILLEGAL, INFO, OK, SOLVED, TURN, Verdict
from upref.speech.lines import NEWS, REFUSAL, WHOSE_TURN, Line, LineQueue, lines_for


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def texts(lines: list[Line]) -> list[str]:
    return [x.text for x in lines]


def drain(q: LineQueue) -> list[str]:
    out = []
    while (line := q.get(timeout=0)) is not None:
        out.append(line.text)
    return out


def test_a_newer_whose_turn_replaces_one_not_yet_spoken() -> None:
    q = LineQueue()
    q.put([Line("Bob, your turn.", WHOSE_TURN)])
    q.put([Line("Cy, your turn.", WHOSE_TURN)])
    assert drain(q) == ["Cy, your turn."]
    assert texts(q.dropped) == ["Bob, your turn."]


def test_a_refusal_is_never_dropped_however_many_wait() -> None:
    clock = Clock()
    q = LineQueue(size=2, clock=clock)
    refusals = [Line(f"Ann, no. Fix {n}.", REFUSAL, clock()) for n in range(10)]
    q.put(refusals[:5])
    q.put([Line("Ann solved a card.", NEWS, clock()), Line("Bob solved a card.", NEWS, clock())])
    q.put([Line("Cy solved a card.", NEWS, clock()), Line("Bob, your turn.", WHOSE_TURN)])
    q.put(refusals[5:])
    clock.t += 3600  # the voice fell far behind
    said = drain(q)
    assert [s for s in said if s.startswith("Ann, no.")] == texts(refusals)
    assert "Bob, your turn." in said
    assert not any(x.kind == REFUSAL for x in q.dropped)


def test_a_full_queue_drops_the_oldest_news_first_and_keeps_whose_turn() -> None:
    clock = Clock()
    q = LineQueue(size=2, clock=clock)
    q.put([Line("First news.", NEWS, clock()), Line("Bob, your turn.", WHOSE_TURN, clock())])
    q.put([Line("Second news.", NEWS, clock())])
    assert drain(q) == ["Bob, your turn.", "Second news."]
    assert texts(q.dropped) == ["First news."]


def test_news_that_waited_too_long_is_dropped_but_not_a_refusal_or_the_turn() -> None:
    clock = Clock()
    q = LineQueue(max_wait_s=5.0, clock=clock)
    q.put([
        Line("Old news.", NEWS, clock()),
        Line("Ann, no. Put it back.", REFUSAL, clock()),
        Line("Bob, your turn.", WHOSE_TURN, clock()),
    ])
    clock.t += 5.5
    q.put([Line("Fresh news.", NEWS, clock())])
    assert drain(q) == ["Ann, no. Put it back.", "Bob, your turn.", "Fresh news."]
    assert texts(q.dropped) == ["Old news."]


def test_writing_files_keeps_every_line() -> None:
    clock = Clock()
    q = LineQueue(size=1, max_wait_s=1.0, keep_all=True, clock=clock)
    lines = [Line("Bob, your turn.", WHOSE_TURN, clock()), Line("News.", NEWS, clock()),
             Line("Cy, your turn.", WHOSE_TURN, clock()), Line("More news.", NEWS, clock())]
    q.put(lines)
    clock.t += 60
    assert drain(q) == texts(lines)
    assert q.dropped == []


def test_get_waits_for_a_line_and_ends_when_closed() -> None:
    q = LineQueue()
    got: list[str | None] = []

    def take() -> None:
        while (line := q.get()) is not None:
            got.append(line.text)
        got.append(None)

    t = threading.Thread(target=take)
    t.start()
    q.put([Line("Ann, your turn.", WHOSE_TURN)])
    q.close()
    t.join(10)
    assert got == ["Ann, your turn.", None]


def test_a_reply_says_its_refusals_results_and_whose_turn_not_its_ok_steps() -> None:
    reply = Reply(
        (
            Verdict(OK, "Ann drew a task card.", spoken="Ann drew a task card."),
            Verdict(ILLEGAL, "x [M-2]", "M-2", "y", spoken="Ann, no. Put it back."),
            Verdict(INFO, "Hint for Ann", seat=0, spoken="A secret hint."),
            Verdict(SOLVED, "Ann solved T05", spoken="Ann solved a card."),
            Verdict(BOARD, "Tag 04AB is not enrolled", "tag", spoken="Enrol it."),
            Verdict(TURN, "written only"),
        ),
        None,
        "Bob, your turn.",
    )
    lines = lines_for(reply)
    assert [(x.text, x.kind) for x in lines] == [
        ("Ann, no. Put it back.", REFUSAL),
        ("Ann solved a card.", NEWS),
        ("Enrol it.", REFUSAL),
        ("Bob, your turn.", WHOSE_TURN),
    ]
    everything = texts(lines_for(reply, everything=True))
    assert everything[0] == "Ann drew a task card."
    assert "A secret hint." not in everything  # a verdict for one seat is never said aloud
