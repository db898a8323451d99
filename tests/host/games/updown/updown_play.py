"""Helpers for the Up And Down tests: board text, small catalogues, random playouts, the
public-information checks and the golden transcript runner."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict
from pathlib import Path

from upref.games.base import CHANCE, IllegalMoveError
from upref.games.updown.actions import Action, EndTurn, Reinsert, format_action, parse_action
from upref.games.updown.cards import COLOUR_NAMES, PAIRS, Catalogue, load_catalogue, pair_colours
from upref.games.updown.engine import UpDownState
from upref.games.updown.position import Board, PairEnd
from upref.games.updown.solver import counts_of
from upref.games.updown.variant import Variant

GOLDEN_DIR = Path(__file__).resolve().parents[3] / "golden" / "updown"
COLOUR_WORDS = tuple(COLOUR_NAMES.values())


def board_from_text(text: str) -> Board:
    """'P-RB/R P-RY/Y ...' (pair/hidden colour, holes 1..10) -> board."""
    return tuple(PairEnd(*item.split("/")) for item in text.split())


def board_text(board: Board) -> str:
    return " ".join(f"{e.pair}/{e.hidden}" for e in board)


def board_with_visible(visible: str) -> Board:
    """A board (pairs P-RB ... P-WK in holes 1..10) whose visible colours per pair are the
    letters of `visible`, e.g. 'RRRRBBBYYW'."""
    out = []
    for pair, up in zip(PAIRS, visible, strict=True):
        a, b = pair_colours(pair)
        if up not in (a, b):
            raise ValueError(f"{pair} cannot show {up}")
        out.append(PairEnd(pair, b if up == a else a))
    return tuple(out)


def board_of_mask(mask: int) -> Board:
    """Pairs P-RB ... P-WK in holes 1..10, oriented as the solver's mask (bit set: the
    pair's first colour up)."""
    out = []
    for i, pair in enumerate(PAIRS):
        a, b = pair_colours(pair)
        out.append(PairEnd(pair, b if mask >> i & 1 else a))
    return tuple(out)


def board_one_turn_before(want: Callable[[dict[str, int]], bool], skip: int = 0) -> Board:
    """The first board (after `skip` others) that does not show `want` but can in one turn."""
    moves = [sum(1 << i for i in c) for c in itertools.combinations(range(10), 3)]
    for mask in range(1024):
        if want(counts_of(mask)):
            continue
        if any(want(counts_of(mask ^ m)) for m in moves):
            if skip == 0:
                return board_of_mask(mask)
            skip -= 1
    raise AssertionError("no such board")


def board_showing(want: Callable[[dict[str, int]], bool]) -> Board:
    for mask in range(1024):
        if want(counts_of(mask)):
            return board_of_mask(mask)
    raise AssertionError("no such board")


def subset_catalogue(ids: Sequence[str]) -> Catalogue:
    full = load_catalogue()
    return Catalogue(tuple(full.card(i) for i in ids), (), "test subset")


def flip_of(game: UpDownState, hole: int) -> Reinsert:
    e = game.board[hole - 1]
    return Reinsert(hole, hole, e.pair, e.visible)


def unturned(game: UpDownState, hole: int) -> Reinsert:
    e = game.board[hole - 1]
    return Reinsert(hole, hole, e.pair, e.hidden)


def deal_all(game: UpDownState) -> None:
    while game.current_player() == CHANCE:
        game.play(game.deal_action())


# --- public information --------------------------------------------------------------------

_HOLE_UP = re.compile(r"\b[Hh]ole (\d+)(?: \(| turned: )(\w+) up")
_SO_UP = re.compile(r"so that (\w+) is up again")
_SOLVED = re.compile(r"solved T\d+ \([^)]*\)")
_NOW_UP = re.compile(r"\b[Hh]ole (\d+)(?: shows | \()(\w+)(?: up)? now")


def check_public_text(game: UpDownState, text: str, action: Action | None = None) -> None:
    """Colours in a text for the table are only ever the colour up in a named hole (or the
    colours of a card just solved), or what a refused `action` left showing in its hole
    ('hole 3 shows red now', for everyone to see): never a hidden colour, never a pair id."""
    assert "P-" not in text, text
    for m in _NOW_UP.finditer(text):
        assert isinstance(action, Reinsert) and int(m.group(1)) == action.to_hole, text
        assert m.group(2) == COLOUR_NAMES[PairEnd(action.pair, action.hidden).visible], text
    text = _NOW_UP.sub(lambda m: f"hole {m.group(1)}", text)
    rest = _SOLVED.sub("", text)
    for m in _HOLE_UP.finditer(text):
        hole, colour = int(m.group(1)), m.group(2)
        assert colour == COLOUR_NAMES[game.board[hole - 1].visible], (text, board_text(game.board))
    for sentence in text.split("."):
        for m in _SO_UP.finditer(sentence):
            holes = [int(h) for h in re.findall(r"hole (\d+)", sentence)]
            assert len(set(holes)) == 1, sentence
            assert m.group(1) == COLOUR_NAMES[game.board[holes[0] - 1].visible], sentence
    rest = _SO_UP.sub("", _HOLE_UP.sub("", rest))
    for word in COLOUR_WORDS:
        assert not re.search(rf"\b{word}\b", rest), (word, text)


def check_views(game: UpDownState) -> None:
    """The public view holds no hidden colour, no pair id and no unsolved card; a seat's view
    holds its own card and nobody else's."""
    public = game.view(None)
    text = json.dumps(asdict(public))
    assert "P-" not in text and "hidden" not in text and public.task is None
    assert [h.up for h in public.holes] == [COLOUR_NAMES[c] for c in game.visible()]
    assert sum(n for _, n in public.visible) == 10
    secrets = [game.task(s) for s in range(game.num_players())]
    for card in secrets:
        if card is not None:
            assert card.id not in text, (card.id, text)
    check_public_text(game, public.verdict)
    for seat in range(game.num_players()):
        seat_text = json.dumps(asdict(game.view(seat)))
        assert "P-" not in seat_text
        for other, card in enumerate(secrets):
            if card is not None and other != seat:
                assert card.id not in seat_text
        mine = secrets[seat]
        task = game.view(seat).task
        assert (task is None) if mine is None else (task is not None and task.id == mine.id)


# --- random playouts -----------------------------------------------------------------------


def random_playout(
    seed: int,
    players: Sequence[str] = ("Ann", "Bob", "Cy"),
    variant: Variant | None = None,
    max_actions: int = 400,
    guided: float = 0.7,
) -> Iterator[tuple[UpDownState, Action | None]]:
    """A game played with random legal actions (chance uniform; a player follows the hint
    with probability `guided`), yielding the state before each action and the action."""
    rng = random.Random(seed)
    game = UpDownState.new(list(players), rng=seed, variant=variant)
    for _ in range(max_actions):
        if game.is_terminal():
            break
        actions = game.legal_actions()
        action: Action = rng.choice(actions)
        if game.current_player() >= 0 and rng.random() < guided:
            holes = game.hint()
            if holes:
                action = flip_of(game, holes[0])
        yield game, action
        game.play(action)
    yield game, None


def illegal_probes(game: UpDownState, rng: random.Random) -> list[Action]:
    """A few actions the state must refuse (when they are illegal)."""
    probes: list[Action] = [EndTurn(), EndTurn((rng.randint(1, 10),))]
    h = rng.randint(1, 10)
    e = game.board[h - 1]
    probes.append(Reinsert(h, h % 10 + 1, e.pair, e.hidden))  # wrong hole
    probes.append(Reinsert(h, h, e.pair, e.visible))  # a flip (illegal if already turned, or 4th)
    if game.turned:
        t = game.turned[0]
        probes.append(flip_of(game, t))  # turning a turned pair again
    probes.append(Reinsert(h, h, PAIRS[(PAIRS.index(e.pair) + 1) % 10], e.hidden))
    return [a for a in probes if not game.is_legal(a)]


# --- golden transcripts --------------------------------------------------------------------


def summary(game: UpDownState) -> str:
    names = game.players
    if game.is_terminal():
        out = game.outcome()
        assert out is not None
        who = f"over ({out.termination}): winners {', '.join(names[w] for w in out.winners)}"
    elif game.current_player() == CHANCE:
        who = f"{names[game.view(None).drawing]} draws"
    else:
        who = f"{names[game.current_player()]} to move, turned {len(game.turned)}/3"
        if game.turned:
            who += " [" + ",".join(str(h) for h in game.turned) + "]"
    counts = " ".join(f"{c}{n}" for c, n in game.visible_counts().items())
    shovels = ", ".join(f"{n} {game.shovels(i)}" for i, n in enumerate(names))
    tasks = ", ".join(f"{n} {t.id if (t := game.task(i)) else '-'}" for i, n in enumerate(names))
    extra = f" | rotations {game.rotations}" if game.variant.mole_mix else ""
    return (
        f"@ turn {game.turn} | {who} | up {''.join(game.visible())} | {counts} | "
        f"shovels {shovels} | stack {len(game.stack)} | tasks {tasks}{extra}"
    )


def _header_game(header: dict[str, str]) -> UpDownState:
    players = [p.strip() for p in header["players"].split(",")]
    seed = int(header.get("seed", "0"))
    variant = Variant(
        short_game_target=int(header["short"]) if header.get("short") else None,
        super_buddler=header.get("super_buddler") == "yes",
        mole_mix=header.get("mole_mix") == "yes",
    )
    catalogue = subset_catalogue(header["cards"].split()) if header.get("cards") else None
    board = board_from_text(header["board"]) if header.get("board") else None
    return UpDownState.new(players, board, rng=seed, variant=variant, catalogue=catalogue)


def _run(game: UpDownState, command: str) -> tuple[UpDownState, list[str]]:
    out: list[str] = []
    if command == "deal":
        action = game.deal_action()
        out.append(f"= [{format_action(action)}] {game.play(action)}")
    elif command == "undo":
        game.undo()
        out.append("= undone")
    elif command == "hint":
        detail = game.hint_detail()
        holes = game.hint()
        if detail is None or holes is None:
            out.append("= no hint")
        else:
            what = "solves now" if detail.solves_now else f"{detail.turns} turns to solve"
            out.append(
                f"= hint: holes {', '.join(map(str, holes)) or 'none, end the turn'} ({what})"
            )
    elif command.startswith("next-game"):
        rest = command[len("next-game") :].strip()
        game = game.next_game(board_from_text(rest) if rest else None)
        out.append(f"= {game.verdict}")
    else:
        action = parse_action(command)
        try:
            out.append(f"= {game.play(action)}")
        except IllegalMoveError as err:
            out.append(f"! {err.rule}: {err.message}")
            if err.correction:
                out.append(f"~ {err.correction}")
    check_views(game)
    out.append(summary(game))
    return game, out


def replay(path: Path) -> tuple[list[str], list[str]]:
    """Replay a transcript: (the file's lines, the lines the engine produces now)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header: dict[str, str] = {}
    produced: list[str] = []
    game: UpDownState | None = None
    for line in lines:
        if line.startswith("  "):
            continue  # expected output: regenerated below
        produced.append(line)
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith("> "):
            command = line[2:].strip()
            if command == "new":
                game = _header_game(header)
                out = [f"= {game.verdict}", summary(game)]
            else:
                assert game is not None, f"{path.name}: '> new' must come first"
                game, out = _run(game, command)
            produced.extend("  " + o for o in out)
        else:
            key, _, value = line.partition(":")
            header[key.strip()] = value.strip()
    return lines, produced
