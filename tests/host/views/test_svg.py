"""The one renderer of table pieces (`upref.views.svg`): what it draws is what the piece says,
as data attributes a test can read; every text escaped; no style attribute (the page's content
security policy allows none); a colour always with its letter; a back that tells nothing."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from upref.views import html
from upref.views.blocks import Box, Scoreboard, line
from upref.views.pieces import Big, Card, Drawing, Face, Hole, Mole, Row, Seat, Seats, Tower
from upref.views.svg import render_drawing


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(fragment: str) -> _Tags:
    p = _Tags()
    p.feed(fragment)
    return p


def _pieces(fragment: str) -> list[dict[str, str]]:
    return [
        {k[5:]: v or "" for k, v in a.items() if k.startswith("data-")}
        for _, a in _parse(fragment).tags
        if "data-piece" in a
    ]


def test_every_piece_carries_what_it_shows_in_drawing_order() -> None:
    red = Face("2", "red", "R", "bird", 2)
    pic = Drawing(
        (
            Row((Card(red), Card(None)), caption="the row"),
            Tower((Card(Face("5")), Card(Face("3"))), to_beat="3"),
            Big("pool", "82"),
        )
    )
    assert _pieces(render_drawing(pic)) == [
        {"piece": "row", "size": "2", "caption": "the row"},
        {"piece": "card", "down": "0", "face": "2", "colour": "red", "symbol": "bird", "count": "2"},
        {"piece": "card", "down": "1"},
        {"piece": "tower", "height": "2", "top": "3", "beat": "3"},
        {"piece": "card", "down": "0", "face": "5"},
        {"piece": "card", "down": "0", "face": "3"},
        {"piece": "big", "caption": "pool", "value": "82"},
    ]


def test_a_colour_is_drawn_with_its_letter_and_a_back_shows_no_face() -> None:
    out = _parse(render_drawing(Drawing((Row((Card(Face("1", "green", "G", "bird")), Card(None))),))))
    assert "G" in [t.strip() for t in out.text]
    backs = [a for t, a in out.tags if a.get("data-down") == "1"]
    assert backs and all("data-face" not in a for a in backs)


def test_holes_lie_where_the_layout_puts_them_with_their_letter_order_and_correction() -> None:
    holes = (
        Hole(1, 0.0, 0.0, Mole("black", "K"), order=2),
        Hole(2, 1.0, 1.0, None, correction="put a pair back in hole 2"),
    )
    frag = render_drawing(Drawing(holes, layout="board"))
    assert _pieces(frag) == [
        {"piece": "hole", "hole": "1", "up": "black", "order": "2"},
        {"piece": "hole", "hole": "2", "up": "empty", "correction": "1"},
    ]
    circles = [a for t, a in _parse(frag).tags if t == "circle"]
    xs = [float(a["cx"] or 0) for a in circles if (a.get("class") or "").split()[0] in ("mole", "empty")]
    assert xs[0] < xs[1]  # hole 1 at the left edge, hole 2 at the right
    assert "K" in [t.strip() for t in _parse(frag).text]
    assert "put a pair back in hole 2" in "".join(_parse(frag).text)


def test_text_is_escaped_and_no_style_attribute_is_written() -> None:
    name = '<script>alert("x")</script>'
    pic = Drawing((Seats((Seat(0, name, ("rack 5",)), Seat(1, "Bob")), to_move=0, direction="cw"),), title=name)
    frag = render_drawing(pic)
    assert "<script>" not in frag and "&lt;script&gt;" in frag
    assert not re.search(r"\sstyle=", frag)
    assert _pieces(frag) == [{"piece": "seats", "size": "2", "to-move": "0", "direction": "cw"}]


def test_the_page_draws_a_picture_inside_a_seats_box_and_beside_the_words() -> None:
    pic = Drawing((Row((Card(Face("7")),)),))
    board = Scoreboard("g", "upref — G", "Ann's turn.", None, (pic, line("words"), Box((line("mine"), pic), "own")))
    page = html.render(board)
    assert page.count("<svg") == 2
    assert page.index('class="table-picture"') < page.index('class="words"') < page.index("words</p>")
