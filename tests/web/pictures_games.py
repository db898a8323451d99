"""What the page's picture of Flip a Bird, What's Up and Up must carry, worked out from the
referee's public view alone (never from the panel's picture): for the browser test, which reads
the `data-*` attributes of the drawn pieces after each verdict and compares them with these.

    expected_flipabird(view: FlipView) -> list[dict[str, str]]
    expected_whatsup(view: WhatsUpView) -> list[dict[str, str]]
    expected_up(view: UpView) -> list[dict[str, str]]

Each returns the `data()` dicts of `upref.views.pieces` that the drawn pieces carry, in drawing
order (`drawn(picture)` flattens a `Drawing` the same way, to line the two up):

- the picture's pieces in their order;
- a `Seats` piece: its own dict, then for each seat in order each of its rows;
- a `Row`: its own dict (piece "row", size, caption), then its cards left to right;
- a `Tower`: its own dict (piece "tower", height, top, beat), then its cards bottom to top;
- a `Card`: piece "card" (or "tile"), down "1" for a back (nothing else: a back tells nothing),
  or down "0" with face, colour, symbol, count (when not 1), card (Flip a Bird's id of a face-up
  card), marks ("struck doubled faded new" as they apply);
- `Big`, `Figure`, `Chart`: their own dict.

A `Seat` has no dict of its own (its name and badges are text beside its rows). The lead wires
these into `tests/web/pictures.py`; a renderer that writes the attributes in another order needs
only `drawn` changed to match it.
"""

from __future__ import annotations

from collections.abc import Iterator

from upref.games.flipabird.view import CardView as FlipCard
from upref.games.flipabird.view import FlipView
from upref.games.up.view import UpView
from upref.games.updown.view import UpDownView
from upref.games.upturn.view import UpturnView
from upref.games.whatsup.cards import COLOURS
from upref.games.whatsup.view import WhatsUpView
from upref.views.pieces import Card, Drawing, Piece, Row, Seats, Tower

__all__ = [
    "EXPECTED",
    "drawn",
    "expected_flipabird",
    "expected_up",
    "expected_updown",
    "expected_upturn",
    "expected_whatsup",
    "matches",
]

Data = dict[str, str]
BACK: Data = {"piece": "card", "down": "1"}


def drawn(picture: Drawing) -> list[Data]:
    """A picture's pieces as data, in the drawing order above."""
    return [d for p in picture.pieces for d in _flat(p)]


def _flat(piece: Piece) -> Iterator[Data]:
    if isinstance(piece, Seats):
        yield piece.data()
        for seat in piece.seats:
            for row in seat.rows:
                yield from _flat(row)
    elif isinstance(piece, Row):
        yield piece.data()
        yield from (c.data() for c in piece.pieces)
    elif isinstance(piece, Tower):
        yield piece.data()
        yield from (c.data() for c in piece.cards)
    elif isinstance(piece, Card):
        yield piece.data()
    else:
        yield piece.data()


def _row(caption: str, cards: list[Data]) -> list[Data]:
    return [{"piece": "row", "size": str(len(cards)), "caption": caption}, *cards]


def _seats(size: int, to_move: int | None, direction: str) -> Data:
    out = {"piece": "seats", "size": str(size)}
    if to_move is not None:
        out["to-move"] = str(to_move)
    out["direction"] = direction
    return out


def _big(caption: str, value: object) -> Data:
    return {"piece": "big", "caption": caption, "value": str(value)}


# --- Flip a Bird -----------------------------------------------------------------------------

# What a special card's face says, as the rulebook names the four kinds.
_SPECIAL = {
    "no-specials": lambda c: "no specials",
    "no-neighbours": lambda c: "no neighbours",
    "colour-not": lambda c: f"no {c}",
    "colour-double": lambda c: f"{c} ×2",
}


def _flip_card(card: FlipCard, marks: tuple[str, ...] = ()) -> Data:
    out = {"piece": "card", "down": "0", "card": card.id}
    if card.kind == "bird":
        out["face"] = str(card.birds)
    else:
        out["face"] = _SPECIAL[card.kind](card.colour)
    if card.colour:
        out["colour"] = card.colour
    out["symbol"] = card.kind
    if card.kind == "bird" and card.birds != 1:
        out["count"] = str(card.birds)
    if marks:
        out["marks"] = " ".join(marks)
    return out


def expected_flipabird(view: FlipView) -> list[Data]:
    """The players (hands as backs, won cards face up, tip cards at a claim: a back until the
    tip is public), then the row as it lies, or at a claim the claimed row, evaluated on the
    cards once all tips are in (taken out: struck; its colour counting double: doubled; not
    counting: faded), with the pile and the limit, or the total against the limit."""
    c = view.claim
    out = [_seats(len(view.players), None if view.phase == "over" else view.to_move,
                  "ccw" if view.phase == "take" else "cw")]
    for p in view.players:
        if p.hand:
            out += _row("hand", [BACK] * p.hand)
        if p.won:
            out += _row("won", [_flip_card(w) for w in p.won])
        if c is not None and (p.tipped or p.tip):
            tip = BACK if p.tip is None else {
                "piece": "card", "down": "0", "face": p.tip, "colour": p.tip, "symbol": "tip"
            }
            out += _row("tip", [tip])
    if c is None:
        cards = [
            BACK if r.card is None else _flip_card(r.card, ("new",) if view.last_play == r.position else ())
            for r in view.row
        ]
        out += _row("row", cards)
        out.append(_big("pile", "empty" if view.final else view.pile))
        out.append(_big("birds a row may hold", view.limit))
        return out
    if c.evaluation is None:
        out += _row("claimed row", [BACK if r.card is None else _flip_card(r.card) for r in c.row])
        out.append(_big("birds a row may hold", view.limit))
        return out
    ev = c.evaluation
    factor = dict(ev.factors)
    cards = []
    for x in ev.lines:
        card = FlipCard.of(x.card)
        if not x.stays:
            marks: tuple[str, ...] = ("struck",)
        elif x.card.colour is not None and factor[x.card.colour] == 2:
            marks = ("doubled",)
        elif x.card.colour is not None and factor[x.card.colour] == 0:
            marks = ("faded",)
        else:
            marks = ()
        cards.append(_flip_card(card, marks))
    out += _row("claimed row, evaluated", cards)
    out.append(_big(f"birds against the limit of {ev.limit}", ev.total))
    return out


# --- What's Up -------------------------------------------------------------------------------


def _bird(n: int, colour: str) -> Data:
    out = {"piece": "card", "down": "0", "face": str(n), "colour": colour, "symbol": "bird"}
    if n != 1:
        out["count"] = str(n)
    return out


def expected_whatsup(view: WhatsUpView) -> list[Data]:
    """The players, each collection as four rows by colour (1, 2, 3 birds); the table's cards
    by the face up (the first game's rectangle row by row, left to right; with free placement
    one row per colour, fewest birds first, then laying order); the figurines placed; the cards
    left and the turns without an addition (not while setting up)."""
    out = [_seats(len(view.players), view.to_move if view.phase == "turn" else None, "cw")]
    for p in view.players:
        for colour, counts in p.rows:
            out += _row(colour, [_bird(n, colour) for n in counts])
    if view.first_game:
        for r in range(1, 6):
            cards = sorted((c for c in view.table if c.row == r), key=lambda c: c.column or 0)
            out += _row(f"row {r}", [_bird(c.count, c.colour) for c in cards])
    else:
        for colour in COLOURS:
            cards = sorted((c for c in view.table if c.colour == colour), key=lambda c: (c.count, c.place))
            out += _row(f"{colour} up", [_bird(c.count, c.colour) for c in cards])
    for p in view.players:
        if p.figurine != "placed":
            continue
        card = next((c for c in view.table if c.place == p.figurine_on), None)
        if card is None:
            place = "on a card"
        elif view.first_game and card.row is not None:
            place = f"row {card.row}, column {card.column}"
        else:
            place = f"on {card.up}"
        out.append({"piece": "figure", "name": p.name, "place": place})
    if view.phase != "setup":
        out.append(_big("cards on the table", view.cards_left))
        out.append(_big("turns without an addition", f"{view.since} of {view.stall_turns}"))
    return out


# --- Up --------------------------------------------------------------------------------------


def _up_card(face: str) -> Data:
    out = {"piece": "card", "down": "0", "face": face}
    if face in ("-2", "disposal"):
        out["symbol"] = "minus2" if face == "-2" else "disposal"
    return out


def expected_up(view: UpView) -> list[Data]:
    """The tower (its height, top and the number to beat, its cards bottom to top), the players
    (the hand as backs, the face-up cards, the face-down cards as backs), the cards out of the
    game, and over an evening the chart of totals (one point per scored round)."""
    tower = {"piece": "tower", "height": str(len(view.tower)), "top": view.tower[-1] if view.tower else ""}
    if view.tower and view.to_beat is not None and view.phase != "over":
        tower["beat"] = str(view.to_beat)
    out = [tower, *(_up_card(f) for f in view.tower)]
    out.append(_seats(len(view.players), None if view.phase == "over" else view.to_move, "cw"))
    for p in view.players:
        out += _row("hand", [BACK] * p.hand)
        out += _row("face up", [_up_card(f) for f in p.up])
        out += _row("face down", [BACK] * p.down)
    out.append(_big("cards out of the game", view.removed))
    if view.table:
        out.append({"piece": "chart", "rounds": str(len(view.table))})
    return out


# --- Up And Down -----------------------------------------------------------------------------


def expected_updown(view: UpDownView) -> list[Data]:
    """The ten molehills (each its colour up, "empty" for a hole with no pair, the order it was
    turned in this turn, a correction due: as the table lies, when the referee's table view says
    it differs from the game's board), then the players with their won cards drawn as the
    colours they ask for and a face-down task card as a back."""
    now = {h.hole: h for h in getattr(view, "table", ())}
    out: list[Data] = []
    for h in view.holes:
        seen = now.get(h.hole)
        up = seen.up if seen is not None else h.up
        hole = {"piece": "hole", "hole": str(h.hole), "up": "empty" if up in ("out", "?") else up}
        if h.hole in view.turned:
            hole["order"] = str(view.turned.index(h.hole) + 1)
        if seen is not None and (seen.todo or seen.up == "?"):
            hole["correction"] = "1"
        out.append(hole)
    mover = view.drawing if view.phase == "draw" else view.to_move
    seats = {"piece": "seats", "size": str(len(view.players))}
    if view.phase != "over" and mover is not None:
        seats["to-move"] = str(mover)
    out.append(seats)
    for p in view.players:
        won = [
            {"piece": "card", "down": "0", "face": c.id, "colours": " ".join(f"{k} {n}" for k, n in c.counts)}
            for c in p.won
        ]
        out += _row("won", won)
        if p.has_task:
            out += _row("task card", [BACK])
    return out


# --- Upturn ----------------------------------------------------------------------------------


def expected_upturn(view: UpturnView) -> list[Data]:
    """The line's last eight tiles (a number as its number, an action tile by its action), the
    number to beat and the direction, the seats in playing order and the one to move, the
    pool's count."""
    tiles: list[Data] = []
    for t in view.line[-8:]:
        tile: Data = {"piece": "tile", "down": "0"}
        if t.number is not None:
            tile["face"] = str(t.number)
            if t.twin:  # a Twin is red (and says so with its letter)
                tile["colour"] = "red"
        else:
            tile["symbol"] = str(t.action)
        tiles.append(tile)
    out = [{"piece": "row", "size": str(len(tiles)), "caption": "the line"}, *tiles]
    out.append(_big("to beat", "—" if view.last_number is None else view.last_number))
    way = {"up": "↑ higher", "down": "↓ lower"}.get(view.direction or "", "not set yet")
    out.append(_big("direction", way))
    seats = {"piece": "seats", "size": str(len(view.players))}
    if view.phase != "over" and view.to_move is not None:
        seats["to-move"] = str(view.to_move)
    if view.direction in ("up", "down"):  # higher: play passes left (clockwise); lower: right
        seats["direction"] = "cw" if view.direction == "up" else "ccw"
    out.append(seats)
    out.append(_big("pool", view.pool))
    return out


EXPECTED = {
    "updown": expected_updown,
    "upturn": expected_upturn,
    "flipabird": expected_flipabird,
    "whatsup": expected_whatsup,
    "up": expected_up,
}
"""Each game's expectation, by the game's name."""


def matches(expected: list[Data], shown: list[Data]) -> str | None:
    """None when the drawn pieces carry what the public view says (every expected attribute,
    with its value; a back carries no face); else the first difference, in words."""
    if len(expected) != len(shown):
        return f"{len(shown)} pieces drawn, the public view has {len(expected)}"
    for i, (want, got) in enumerate(zip(expected, shown, strict=True)):
        wrong = {k: (v, got.get(k)) for k, v in want.items() if got.get(k) != v}
        if wrong:
            return f"piece {i} ({want.get('piece')}): " + ", ".join(
                f"{k} is {g!r}, the public view says {w!r}" for k, (w, g) in wrong.items()
            )
        if "beat" in got and "beat" not in want:
            return f"piece {i} ({want.get('piece')}): says {got['beat']!r} is to beat, the public view says nothing is"
        if got.get("down") == "1" and "face" in got:
            return f"piece {i}: a back carries the face {got['face']!r}"
    return None
