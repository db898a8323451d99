"""What each game keeps from the table at one moment, read from the referee's engine: the ids of
the pieces nobody at the table may see on the public page (`hidden`), and what one seat's own
page must show of that seat's secret (`own`).

A test module may name games; nothing in `host/` does. Ids are matched as whole words, so a
card 'A1' is not found inside 'A10'."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from upref.referee.base import Referee

__all__ = ["found", "hidden", "own"]


def _updown(eng: object) -> set[str]:
    cards = {c.id for s in range(eng.num_players()) if (c := eng.task(s)) is not None}  # type: ignore[attr-defined]
    return cards | set(eng.stack)  # type: ignore[attr-defined]


def _up(eng: object) -> set[str]:
    out: set[str] = set()
    for p in range(eng.num_players()):  # type: ignore[attr-defined]
        out |= set(eng.hand(p)) | set(eng.face_down(p))  # type: ignore[attr-defined]
    return out


def _upturn(eng: object) -> set[str]:
    out = set(eng.pool or ())  # type: ignore[attr-defined]
    for s in range(eng.num_players()):  # type: ignore[attr-defined]
        out |= set(eng.rack(s))  # type: ignore[attr-defined]
    return out


def _flipabird(eng: object) -> set[str]:
    out = set(eng.pile or ())  # type: ignore[attr-defined]
    for s in range(eng.num_players()):  # type: ignore[attr-defined]
        out |= set(eng.hand(s))  # type: ignore[attr-defined]
    out |= {r.card for r in eng.row if not r.up}  # type: ignore[attr-defined]
    claim = eng.claim_state  # type: ignore[attr-defined]
    if claim is not None and claim.evaluation is None:
        out |= {r.card for r in claim.row if not r.up}
    return out


def _whatsup(eng: object) -> set[str]:
    return set(eng.table()) | set(eng.unlaid())  # type: ignore[attr-defined]


_HIDDEN: dict[str, Callable[[object], set[str]]] = {
    "updown": _updown, "up": _up, "upturn": _upturn, "flipabird": _flipabird, "whatsup": _whatsup,
}


def hidden(game: str, ref: Referee) -> set[str]:
    """Ids of the pieces nobody at the table may see now."""
    eng = ref.engine if ref.has_engine else None
    return set() if eng is None else _HIDDEN[game](eng)


def own(game: str, ref: Referee, seat: int) -> set[str]:
    """What `seat`'s own page must show now: its task card's id (Up And Down), the ids of the
    cards of its hand the referee knows (Flip a Bird), the faces of its hand as one run (Up shows
    faces, not ids: its whole 'Hand:' line). Upturn's referee never sees a rack and What's Up has no hand: for them a
    seat's page is told apart by its heading alone."""
    eng = ref.engine if ref.has_engine else None
    if eng is None:
        return set()
    if game == "updown":
        card = eng.task(seat)  # type: ignore[attr-defined]
        return {card.id} if card is not None else set()
    if game == "flipabird":
        return set(eng.hand(seat))  # type: ignore[attr-defined]
    if game == "up":
        faces = ref.view(seat).own_hand  # type: ignore[union-attr]
        return {"Hand: " + " · ".join(faces)} if faces else set()
    return set()


def found(ids: Iterable[str], text: str) -> list[str]:
    """The ids that occur in `text` as whole words; an item with a space in it (a line such as
    'Hand: 4 · 9') counts only as the whole of a line (or the line's start before ' (')."""
    out = []
    for i in ids:
        if " " in i:
            hit = re.search(rf"^{re.escape(i)}(?: \(|$)", text, re.M)
        else:
            hit = re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)
        if hit:
            out.append(i)
    return sorted(out)
