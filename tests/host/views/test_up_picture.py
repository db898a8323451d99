"""Up's picture of the table (`UpPanel.drawing`): the tower with the number to beat after the
rulebook's worked examples (a -2 on a 7 asks for 5, three -2 on a 7 for 1), each player's hand
and face-down cards as backs with their counts and face-up cards drawn, the evening's totals
round by round (Victoria's 78 then 68); a seat's own hand on its screen; and over random
sessions the public picture does not change when the hidden cards are dealt differently."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from piece_walk import all_cards, drawings_in, rows, the
from up_cases import STATES
from up_table import Chaos, UpTable
from upref.games.up.actions import HAND, Play
from upref.games.up.engine import UpState
from upref.games.up.panel import PANEL
from upref.games.up.position import UpDescription
from upref.games.up.variant import Variant
from upref.games.up.view import RoundScore, UpView
from upref.views.pieces import Chart, Drawing, Seats, Series, Tower
from upref.views.svg import render_drawing

NAMES = ("Ann", "Bob", "Cy")
ANN = 0


def pos(**kw: object) -> UpState:
    kw.setdefault("to_move", "Ann")
    return UpState.position(UpDescription(NAMES, **kw))  # type: ignore[arg-type]


def play(game: UpState, seat: int, faces: list[str]) -> None:
    ids: list[str] = []
    for face in set(faces):
        ids += [c for c in game.hand(seat) if game.catalogue.card(c).face == face][: faces.count(face)]
    game.play(Play(seat, HAND, tuple(ids)))


def tower(pic: Drawing) -> Tower:
    t = the(pic, Tower)
    assert isinstance(t, Tower)
    return t


def seats(pic: Drawing) -> Seats:
    s = the(pic, Seats)
    assert isinstance(s, Seats)
    return s


def row_faces(pic: Drawing, seat: int, caption: str) -> list[str | None]:
    (row,) = [r for r in seats(pic).seats[seat].rows if r.caption == caption]
    return [c.face.label if c.face else None for c in row.pieces]


def test_a_minus_two_on_a_seven_asks_for_five() -> None:
    game = pos(tower=["9", "7"], hands={"Ann": ["-2", "3"]})
    play(game, ANN, ["-2"])
    t = tower(PANEL.drawing(game.view(None)))
    assert [c.face.label for c in t.cards if c.face] == ["9", "7", "-2"]  # bottom first, top last
    assert t.cards[-1].face is not None and t.cards[-1].face.symbol == "minus2"
    assert t.to_beat == "5"
    assert t.data() == {"piece": "tower", "height": "3", "top": "-2", "beat": "5"}


def test_three_minus_twos_on_a_seven_ask_for_one() -> None:
    game = pos(tower=["7"], hands={"Ann": ["-2", "-2", "-2", "4"]})
    play(game, ANN, ["-2", "-2", "-2"])
    t = tower(PANEL.drawing(game.view(None)))
    assert len(t.cards) == 4 and t.to_beat == "1"


def victoria() -> UpState:
    """The rulebook's evening: Victoria had 78 after the first round and is about to go out."""
    first = RoundScore(1, 1, 10, (78, -10, 40), (78, 0, 40), (False,) * 3)
    return UpState.position(UpDescription(
        ("Victoria", "Max", "Ida"),
        round=2,
        totals={"Victoria": 78, "Max": 0, "Ida": 40},
        table=[first],
        hands={"Victoria": ["5"], "Max": ["11", "-2"], "Ida": ["1", "D"]},
        up={"Max": ["3"]},
        down={"Ida": ["7"]},
        tower=["9", "6"],
        to_move="Victoria",
    ))


def test_each_player_shows_backs_for_hand_and_face_down_cards_and_draws_face_up_ones() -> None:
    pic = PANEL.drawing(victoria().view(None))
    s = seats(pic)
    assert [x.name for x in s.seats] == ["Victoria", "Max", "Ida"]
    assert s.to_move == 0 and s.direction == "cw"
    assert row_faces(pic, 0, "hand") == [None]
    assert row_faces(pic, 1, "hand") == [None, None]
    assert row_faces(pic, 1, "face up") == ["3"]
    assert row_faces(pic, 2, "face down") == [None]
    notes = {(x.name, r.caption): r.note for x in s.seats for r in x.rows}
    assert notes[("Max", "hand")] == "2" and notes[("Ida", "face down")] == "1"
    t = tower(pic)
    assert (t.to_beat, [c.face.label for c in t.cards if c.face]) == ("6", ["9", "6"])
    chart = the(pic, Chart)
    assert chart == Chart(
        (Series("Victoria", (78,)), Series("Max", (0,)), Series("Ida", (40,))),
        caption="the evening: totals in points",
    )


def test_the_evening_is_drawn_round_by_round() -> None:
    """Victoria goes out in round 2 with the bonus of 10: 78 then 68; Max 11 + 20 (-2) + 3 =
    34; Ida 40 + 1 + 50 (disposal) + 7 = 98."""
    game = victoria()
    play(game, 0, ["5"])
    pic = PANEL.drawing(game.view(None))
    chart = the(pic, Chart)
    assert isinstance(chart, Chart)
    assert {s.name: s.values for s in chart.series} == {
        "Victoria": (78, 68), "Max": (0, 34), "Ida": (40, 98),
    }
    assert chart.data() == {"piece": "chart", "rounds": "2"}
    assert seats(pic).seats[0].winner


def test_a_seats_own_screen_draws_its_hand_as_cards() -> None:
    game = victoria()
    (box,) = PANEL.private(game.view(1))
    (mine,) = drawings_in([box])
    hand, up, down = rows(mine)
    assert sorted(c.face.label for c in hand.pieces if c.face) == ["-2", "11"]
    assert [c.face.label for c in up.pieces if c.face] == ["3"]
    assert down.pieces == ()
    (box,) = PANEL.private(game.view(2))
    (mine,) = drawings_in([box])
    hand, up, down = rows(mine)
    assert sorted(c.face.label for c in hand.pieces if c.face) == ["1", "disposal"]
    assert [c.face for c in down.pieces] == [None]  # Ida does not know her face-down card
    # and the public picture draws none of Max's or Ida's hand faces
    public = [c.face.label for c in all_cards(PANEL.drawing(game.view(None))) if c.face]
    assert sorted(public) == ["3", "6", "9"]


@pytest.mark.parametrize("name", list(STATES))
def test_every_scene_matches_the_public_view(name: str) -> None:
    view = STATES[name]().ref.view(None)
    assert isinstance(view, UpView)
    pic = PANEL.drawing(view)
    t = tower(pic)
    assert [c.face.label for c in t.cards if c.face] == list(view.tower)
    if view.tower and view.to_beat is not None and view.phase != "over":
        assert t.to_beat == str(view.to_beat)
    if view.phase == "over":  # the round is over: nothing is to beat
        assert t.to_beat is None and "to beat" not in render_drawing(pic)
    for p, s in zip(view.players, seats(pic).seats, strict=True):
        assert row_faces(pic, p.seat, "hand") == [None] * p.hand
        assert row_faces(pic, p.seat, "face up") == list(p.up)
        assert row_faces(pic, p.seat, "face down") == [None] * p.down
        assert s.name == p.name
    up = sum(len(p.up) for p in view.players)
    assert len([c for c in all_cards(pic) if c.face is not None]) == len(view.tower) + up


# --- nothing hidden --------------------------------------------------------------------------


def reshuffled(game: UpState, rng: random.Random) -> UpState:
    """The same round with the hidden cards (hands and face down) dealt differently: as many in
    each place, the cards shuffled among them."""
    s = game._s
    n = game.num_players()
    cards = [c for p in range(n) for c in (*s.hands[p], *s.downs[p])]
    rng.shuffle(cards)
    hands, downs, i = [], [], 0
    for p in range(n):
        hands.append(game._sorted(cards[i : i + len(s.hands[p])]))
        i += len(s.hands[p])
        downs.append(game._sorted(cards[i : i + len(s.downs[p])]))
        i += len(s.downs[p])
    twin = game.clone()
    twin._s = replace(s, hands=tuple(hands), downs=tuple(downs))
    return twin


def assert_same_without_the_secrets(game: UpState, rng: random.Random) -> None:
    shown = PANEL.drawing(game.view(None))
    other = PANEL.drawing(reshuffled(game, rng).view(None))
    assert other == shown, "a hidden card shows in the picture"


@pytest.mark.parametrize("seed", range(3))
def test_the_picture_does_not_change_when_hidden_cards_are_dealt_differently(seed: int) -> None:
    players = (2, 4, 7)[seed]
    tb = UpTable(tuple(f"P{i}" for i in range(players)), Variant(), seed=seed)
    chaos = Chaos(tb, seed)
    rng = random.Random(seed)
    plays = 0
    for _ in range(250):
        chaos.step()
        if tb.ref.has_engine and tb.ref.phase == "play":
            assert_same_without_the_secrets(tb.engine, rng)
            plays += 1
    assert plays > 50


def test_the_check_sees_a_planted_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    game = STATES["owes_call"]().engine
    rng = random.Random(3)
    honest_view = UpState.view

    def leaky_view(g: UpState, seat: int | None) -> UpView:
        """The public view with each hand's cards slipped in among the face-up ones."""
        v = honest_view(g, seat)
        players = tuple(replace(p, up=p.up + g._faces(g.hand(p.seat))) for p in v.players)
        return replace(v, players=players)

    monkeypatch.setattr(UpState, "view", leaky_view)
    with pytest.raises(AssertionError, match="a hidden card shows"):
        for _ in range(5):  # a reshuffle may by chance deal the same faces: try a few
            assert_same_without_the_secrets(game, rng)
