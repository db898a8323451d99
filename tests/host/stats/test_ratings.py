"""The ratings: openskill's Plackett-Luce per player and game, recomputed from the logs alone,
with their uncertainty, for two to ten players and shared wins."""

from __future__ import annotations

import json

import pytest
from stats_logs import Logs
from upref.commands.stats import main
from upref.stats.ratings import places, rate
from upref.stats.records import Result


def result(players: tuple[str, ...], winners: tuple[str, ...], scores: tuple[int, ...], t: float = 0.0,
           game: str = "g") -> Result:
    return Result("x", 1, 1, game, t, players, winners, scores, "end")


def test_places_put_the_winners_first_then_by_score_either_way() -> None:
    r = result(("A", "B", "C", "D"), ("B",), (3, 9, 3, 5))
    assert places(r, fewest=False) == [3, 1, 3, 2]
    fewest = result(("A", "B", "C"), ("A", "C"), (1, 4, 1))
    assert places(fewest, fewest=True) == [1, 2, 1]
    assert places(result(("A", "B", "C"), ("C",), ()), fewest=False) == [2, 2, 1]


def test_a_shared_win_moves_both_winners_alike_and_above_the_loser() -> None:
    h = rate([result(("A", "B", "C"), ("A", "B"), (4, 4, 1))], lambda g: False).history
    a, b, c = (h[("g", p)][-1] for p in "ABC")
    assert a.mu == pytest.approx(b.mu) and a.mu > 25 > c.mu
    assert a.sigma < 25 / 3 and c.sigma < 25 / 3


def test_ten_players_are_rated_in_their_order_and_uncertainty_shrinks_game_by_game() -> None:
    players = tuple(f"P{i}" for i in range(10))
    games = [result(players, ("P0",), tuple(100 - i for i in range(10)), t=n) for n in range(3)]
    h = rate(games, lambda g: False).history
    now = [h[("g", p)][-1].mu for p in players]
    assert now == sorted(now, reverse=True) and now[0] > now[-1]
    sigmas = [x.sigma for x in h[("g", "P5")]]
    assert len(sigmas) == 3 and sigmas == sorted(sigmas, reverse=True)


def test_each_game_has_its_own_ratings() -> None:
    h = rate([result(("A", "B"), ("A",), (), game="x"), result(("A", "B"), ("B",), (), game="y")],
             lambda g: False).history
    assert h[("x", "A")][-1].mu > 25 > h[("y", "A")][-1].mu


def test_the_ratings_of_the_logs_are_the_same_every_time_and_follow_every_game(
    capsys: pytest.CaptureFixture[str], logs: Logs
) -> None:
    def ratings() -> dict[str, object]:
        assert main(["--db", str(logs.home), "--db", str(logs.club), "--same", "Mum=Mama", "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    first, again = ratings(), ratings()
    assert first["ratings"] == again["ratings"]
    history = {(x["player"], x["game"]): x["history"] for x in first["ratings"]}  # type: ignore[union-attr]
    played = {(x["player"], x["game"]): x["played"] for x in first["lines"]}  # type: ignore[union-attr]
    assert all(len(history[k]) == n for k, n in played.items() if k[1] is not None)
    kid, bob = history[("Kid", "updown")][-1], history[("Bob", "updown")][-1]
    assert kid["mu"] > bob["mu"]  # Kid won three of five, Bob none
    assert all(h["sigma"] < 25 / 3 for h in history[("Kid", "updown")])
