"""The Up And Down scoreboard for everyone at the table: data → pure render → thin loop.

`scoreboard_data(view, status)` reads the engine's public view (`UpDownGame.view(None)`) and
the referee's `TableStatus` into one frozen `Scoreboard` record, keeping only what the table
may see. Three pure renderings share that record:

- `render_scoreboard(...)`: a Rich renderable for the terminal (`Live.update(...)`);
- `scoreboard_text(...)`: plain lines, same content, for a non-terminal (logs, pipes);
- `scoreboard_json(...)`: a JSON-ready dict, for scripts.

Hidden information never gets in: the public view holds no hidden colour, no pair id and no
unsolved card (the engine's contract); a seat's own view (it has a "task") is refused; a verdict
addressed to one seat (`Verdict.seat` set, e.g. a hint) is dropped; and any pair id that a text
from elsewhere might carry is blanked out, since a pair id names the hidden colour too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from upref.games.updown.cards import COLOUR_NAMES
from upref.referee.status import BOARD, END, ILLEGAL, INFO, OK, SOLVED, TURN, TableStatus, Verdict

__all__ = [
    "COLOUR_STYLES",
    "DEFAULT_TITLE",
    "HoleCell",
    "PlayerRow",
    "Result",
    "Scoreboard",
    "VerdictLine",
    "WonCard",
    "render_scoreboard",
    "scoreboard_data",
    "scoreboard_json",
    "scoreboard_text",
]

DEFAULT_TITLE = "upref — Up And Down"
MAX_VERDICTS = 5
"""How many of the latest public verdicts the scoreboard shows."""

COLOUR_STYLES: Mapping[str, str] = {
    "red": "bold white on red",
    "blue": "bold white on blue",
    "yellow": "bold black on yellow",
    "white": "bold black on bright_white",
    "black": "bold bright_white on black",
}
"""Cell style per visible colour name (the name is always printed as well)."""

_COLOUR_WORDS = frozenset(COLOUR_NAMES.values())
_PAIR_ID = re.compile(r"\bP-[A-Z]{2}\b")
_LABELS: Mapping[str, str] = {
    OK: "ok",
    INFO: "note",
    ILLEGAL: "ILLEGAL",
    SOLVED: "SOLVED",
    TURN: "turn",
    END: "END",
    BOARD: "BOARD",
}
_KIND_STYLES: Mapping[str, str] = {
    OK: "green",
    INFO: "cyan",
    ILLEGAL: "bold white on red",
    SOLVED: "bold black on green",
    TURN: "bold",
    END: "bold magenta",
    BOARD: "bold black on yellow",
}
_TERMINATIONS: Mapping[str, str] = {
    "stack-empty": "a task card was due and the stack was empty",
    "short-game-target": "a player reached the agreed number of cards (short game)",
}
_ORDINALS = ("1st", "2nd", "3rd")


# --- the data ------------------------------------------------------------------------------


@dataclass(frozen=True)
class WonCard:
    """A card a player has won (face up on the table, so public)."""

    id: str
    shovels: int
    card: str  # its short form, 'K3 R1'

    @property
    def compact(self) -> str:
        return f"{self.id} ({self.shovels})"


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    shovels: int
    won: tuple[WonCard, ...]
    has_task: bool  # a face-down task card lies in front of the player
    active: bool  # the player the table waits on (turning pairs or drawing)
    doing: str  # 'turning pairs (2 of 3)', 'drawing a card', 'next to turn', 'Buddel King', ''
    winner: bool


@dataclass(frozen=True)
class HoleCell:
    hole: int
    up: str  # the visible colour's name
    turned: int | None  # 1, 2 or 3: the order it was turned in this turn; None if not turned


@dataclass(frozen=True)
class VerdictLine:
    kind: str
    label: str  # 'ok', 'ILLEGAL', ...
    text: str
    rule: str | None = None
    correction: str | None = None


@dataclass(frozen=True)
class Result:
    termination: str
    why: str  # the termination in words
    headline: str  # 'Buddel King: Ann with 7 shovels', 'Shared win: Ann and Bob with 5 ...'
    winners: tuple[str, ...]
    shovels: int
    scores: tuple[tuple[str, int], ...]  # (name, shovels) in seat order


@dataclass(frozen=True)
class Scoreboard:
    """Everything the table scoreboard shows, and nothing else."""

    title: str
    game_number: int
    variant: str
    phase: str  # 'draw', 'turn', 'over'
    turn: int
    status: str  # one line: whose turn and what they do
    players: tuple[PlayerRow, ...]
    holes: tuple[HoleCell, ...]
    visible: tuple[tuple[str, int], ...]  # (colour name, count), colours in rule order
    turned_done: int
    turned_of: int
    turned_holes: tuple[int, ...]
    stack: int
    removed: tuple[str, ...]  # cards removed at setup as impossible (M-11)
    rotations: int | None  # Mole Mix only
    verdicts: tuple[VerdictLine, ...]  # newest last
    waiting_for: str | None
    corrections: tuple[str, ...]
    board_online: bool
    faults: tuple[str, ...]
    result: Result | None
    history: tuple[str, ...]  # earlier games of the match, in words


def scoreboard_data(
    view: Mapping[str, Any],
    status: TableStatus,
    *,
    title: str = DEFAULT_TITLE,
    max_verdicts: int = MAX_VERDICTS,
) -> Scoreboard:
    """The table's scoreboard from the engine's public view and the referee's status.

    :raises ValueError: for a view that is not Up And Down's public view (a seat's own view,
        which holds that seat's secret card, is refused), or a hole showing no known colour.
    """
    if view.get("game") != "updown":
        raise ValueError(f"not an Up And Down view: game={view.get('game')!r}")
    if "task" in view or view.get("seat") is not None:
        raise ValueError(
            "a seat's own view holds that seat's secret task card: the table scoreboard takes "
            "view(None)"
        )
    phase = str(view["phase"])
    to_move: int | None = view.get("to_move")
    drawing: int | None = view.get("drawing")
    turned = view["turned"]
    turned_holes = tuple(int(h) for h in turned["holes"])
    done, of = int(turned["done"]), int(turned["of"])
    names = [str(p["name"]) for p in view["players"]]
    outcome = view.get("outcome")
    winners: tuple[int, ...] = tuple(outcome["winners"]) if outcome else ()

    players: list[PlayerRow] = []
    for p in view["players"]:
        seat = int(p["seat"])
        active = False
        doing = ""
        if phase == "draw" and seat == drawing:
            active, doing = True, "drawing a card"
        elif phase == "draw" and seat == to_move:
            doing = "next to turn"
        elif phase == "turn" and seat == to_move:
            active, doing = True, f"turning pairs ({done} of {of})"
        elif phase == "over" and seat in winners:
            doing = "Buddel King" if len(winners) == 1 else "shares the win"
        players.append(
            PlayerRow(
                seat=seat,
                name=str(p["name"]),
                shovels=int(p["shovels"]),
                won=tuple(
                    WonCard(str(c["id"]), int(c["shovels"]), str(c["card"])) for c in p["won"]
                ),
                has_task=bool(p["has_task"]),
                active=active,
                doing=doing,
                winner=seat in winners,
            )
        )

    holes: list[HoleCell] = []
    for h in view["holes"]:
        up = str(h["up"])
        if up not in _COLOUR_WORDS:
            raise ValueError(f"hole {h['hole']}: {up!r} is not a mole colour")
        n = int(h["hole"])
        holes.append(HoleCell(n, up, turned_holes.index(n) + 1 if n in turned_holes else None))

    if phase == "over":
        line = "Game over."
    elif phase == "draw" and drawing is not None:
        line = f"{names[drawing]} is drawing a task card."
    elif to_move is not None:
        line = f"{names[to_move]}'s turn: turned {done}/{of}"
        if turned_holes:
            which = "hole" if len(turned_holes) == 1 else "holes"
            line += f" ({which} {_and_join([str(h) for h in turned_holes])})."
        else:
            line += "."
    else:
        line = ""

    public = [v for v in status.verdicts if v.seat is None]
    if public:
        verdicts = tuple(_verdict_line(v) for v in public[-max_verdicts:]) if max_verdicts else ()
    elif view.get("verdict"):
        # No referee verdict yet: the engine's own verdict is public text for the table.
        kind = END if phase == "over" else INFO
        verdicts = (VerdictLine(kind, _LABELS[kind], _scrub(str(view["verdict"]))),)
    else:
        verdicts = ()

    result = None
    if outcome:
        result = _result(outcome, names)
    history = tuple(
        f"game {i}: {_result(o, names).headline}" for i, o in enumerate(view["history"], start=1)
    )
    return Scoreboard(
        title=title,
        game_number=int(view["game_number"]),
        variant=str(view["variant"]),
        phase=phase,
        turn=int(view["turn"]),
        status=line,
        players=tuple(players),
        holes=tuple(holes),
        visible=tuple((str(c), int(n)) for c, n in view["visible"].items()),
        turned_done=done,
        turned_of=of,
        turned_holes=turned_holes,
        stack=int(view["stack"]),
        removed=tuple(str(c) for c in view.get("removed", ())),
        rotations=int(view["rotations"]) if view.get("rotations") is not None else None,
        verdicts=verdicts,
        waiting_for=_scrub(status.waiting_for) if status.waiting_for else None,
        corrections=tuple(_scrub(c) for c in status.corrections),
        board_online=status.board_online,
        faults=tuple(_scrub(f) for f in status.faults),
        result=result,
        history=history,
    )


def _verdict_line(v: Verdict) -> VerdictLine:
    return VerdictLine(
        kind=v.kind,
        label=_LABELS.get(v.kind, v.kind),
        text=_scrub(v.text),
        rule=v.rule,
        correction=_scrub(v.correction) if v.correction else None,
    )


def _result(outcome: Mapping[str, Any], names: Sequence[str]) -> Result:
    winners = tuple(names[int(w)] for w in outcome["winners"])
    scores = tuple(int(s) for s in outcome["scores"])
    best = scores[int(outcome["winners"][0])] if winners else 0
    shovels = f"{best} {'shovel' if best == 1 else 'shovels'}"
    if len(winners) == 1:
        headline = f"Buddel King: {winners[0]} with {shovels}"
    else:
        headline = f"Shared win: {_and_join(list(winners))} with {shovels} each"
    term = str(outcome["termination"])
    return Result(
        termination=term,
        why=_TERMINATIONS.get(term, term),
        headline=headline,
        winners=winners,
        shovels=best,
        scores=tuple(zip(names, scores, strict=True)),
    )


def _scrub(text: str) -> str:
    """Blank out pair ids: a pair id names both colours, so also the hidden one."""
    return _PAIR_ID.sub("a mole pair", text)


def _and_join(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _header(sb: Scoreboard) -> str:
    cards = "card" if sb.stack == 1 else "cards"
    parts = [f"Game {sb.game_number} ({sb.variant})", f"turn {sb.turn}"]
    parts.append(f"{sb.stack} {cards} on the stack")
    if sb.rotations is not None:
        times = {0: "not yet", 1: "once", 2: "twice"}.get(sb.rotations, f"{sb.rotations} times")
        parts.append(f"box turned {times}")
    return " · ".join(parts)


def _won_text(p: PlayerRow) -> str:
    return ", ".join(c.compact for c in p.won) or "-"


def _visible_text(sb: Scoreboard) -> str:
    return "Up now: " + ", ".join(f"{c} {n}" for c, n in sb.visible)


# --- Rich ----------------------------------------------------------------------------------


def render_scoreboard(
    view: Mapping[str, Any],
    status: TableStatus,
    *,
    title: str = DEFAULT_TITLE,
    max_verdicts: int = MAX_VERDICTS,
) -> RenderableType:
    """The table scoreboard as a Rich renderable (pure: no console, no I/O).

    :raises ValueError: as `scoreboard_data`.
    """
    return render_data(scoreboard_data(view, status, title=title, max_verdicts=max_verdicts))


def render_data(sb: Scoreboard) -> RenderableType:
    """A `Scoreboard` record as a Rich renderable."""
    parts: list[RenderableType] = [
        Text(sb.title, style="bold"),
        Text(_header(sb), style="dim"),
    ]
    banner = _banner(sb)
    if banner is not None:
        parts.append(banner)
    parts.append(_players_table(sb))
    if sb.status:
        parts.append(Text(sb.status, style="bold"))
    parts.append(_holes_table(sb))
    parts.append(Text(_visible_text(sb)))
    if sb.verdicts:
        parts.append(_verdicts_table(sb))
    for fix in sb.corrections:
        parts.append(Text.assemble(("TO FIX ", "bold white on red"), " ", fix))
    if sb.waiting_for:
        parts.append(Text.assemble(("Waiting for: ", "bold"), sb.waiting_for))
    if sb.result is not None:
        parts.append(_result_panel(sb.result))
    if sb.history:
        parts.append(Text("Earlier games: " + "; ".join(sb.history), style="dim"))
    if sb.removed:
        parts.append(Text(f"Removed at setup (no board solves them): {', '.join(sb.removed)}"))
    return Group(*parts)


def _banner(sb: Scoreboard) -> RenderableType | None:
    if sb.board_online and not sb.faults:
        return None
    lines: list[Text] = []
    if not sb.board_online:
        lines.append(
            Text("BOARD OFFLINE: moves on the board are not seen until it is back.", style="bold")
        )
    lines.extend(Text(f"Fault: {f}") for f in sb.faults)
    return Panel(
        Group(*lines),
        title="board",
        title_align="left",
        border_style="bold red",
        box=box.HEAVY,
    )


def _players_table(sb: Scoreboard) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column("Player", no_wrap=True)
    table.add_column("Shovels", justify="right", no_wrap=True)
    table.add_column("Won cards", ratio=1)
    table.add_column("Card", no_wrap=True)
    table.add_column("Now", no_wrap=True)
    for p in sb.players:
        style = "bold" if p.active else ("bold green" if p.winner else "")
        table.add_row(
            "▶" if p.active else ("★" if p.winner else ""),
            Text(p.name, style=style),
            str(p.shovels),
            _won_text(p),
            "face down" if p.has_task else "-",
            Text(p.doing, style=style),
        )
    return table


def _holes_table(sb: Scoreboard) -> Table:
    table = Table(box=box.SQUARE, padding=(0, 0), title="Molehills", title_justify="left")
    table.add_column("hole", width=6, no_wrap=True)
    for cell in sb.holes:
        table.add_column(str(cell.hole), width=6, justify="center", no_wrap=True)
    table.add_row("up", *(Text(c.up, style=COLOUR_STYLES[c.up]) for c in sb.holes))
    table.add_row(
        "turned",
        *(_ORDINALS[c.turned - 1] if c.turned else "" for c in sb.holes),
    )
    return table


def _verdicts_table(sb: Scoreboard) -> Table:
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(ratio=1)
    for v in sb.verdicts:
        label = v.label + (f" {v.rule}" if v.rule and v.kind == ILLEGAL else "")
        table.add_row(Text(label, style=_KIND_STYLES.get(v.kind, "")), v.text)
        if v.correction:
            table.add_row("", Text("→ fix: " + v.correction, style="bold"))
    return table


def _result_panel(r: Result) -> Panel:
    body = Group(
        Text(r.headline, style="bold", justify="center"),
        Text(f"Game over: {r.why}.", justify="center"),
        Text("Shovels: " + ", ".join(f"{name} {n}" for name, n in r.scores), justify="center"),
    )
    return Panel(body, border_style="bold green", box=box.DOUBLE)


# --- plain text and JSON -------------------------------------------------------------------


def scoreboard_text(
    view: Mapping[str, Any],
    status: TableStatus,
    *,
    title: str = DEFAULT_TITLE,
    max_verdicts: int = MAX_VERDICTS,
) -> str:
    """The same scoreboard as plain lines (no colour, no box drawing), ending in a newline.

    :raises ValueError: as `scoreboard_data`.
    """
    return text_data(scoreboard_data(view, status, title=title, max_verdicts=max_verdicts))


def text_data(sb: Scoreboard) -> str:
    lines = [sb.title, _header(sb)]
    if not sb.board_online:
        lines.append("!! BOARD OFFLINE: moves on the board are not seen until it is back.")
    lines.extend(f"!! Fault: {f}" for f in sb.faults)
    lines.append("Players:")
    width = max((len(p.name) for p in sb.players), default=0)
    for p in sb.players:
        mark = ">" if p.active else ("*" if p.winner else " ")
        shovels = f"{p.shovels:>2} {'shovel ' if p.shovels == 1 else 'shovels'}"
        row = f"{mark} {p.name:<{width}}  {shovels}  won: {_won_text(p)}"
        row += "  card: face down" if p.has_task else "  card: -"
        if p.doing:
            row += f"  [{p.doing}]"
        lines.append(row)
    if sb.status:
        lines.append(sb.status)
    cells = []
    for c in sb.holes:
        mark = f" (turned {_ORDINALS[c.turned - 1]})" if c.turned else ""
        cells.append(f"{c.hole} {c.up}{mark}")
    lines.append("Molehills: " + ", ".join(cells))
    lines.append(_visible_text(sb))
    if sb.verdicts:
        lines.append("Latest:")
        for v in sb.verdicts:
            label = v.label + (f" {v.rule}" if v.rule and v.kind == ILLEGAL else "")
            lines.append(f"  {label}: {v.text}")
            if v.correction:
                lines.append(f"    -> fix: {v.correction}")
    lines.extend(f"TO FIX: {fix}" for fix in sb.corrections)
    if sb.waiting_for:
        lines.append(f"Waiting for: {sb.waiting_for}")
    if sb.result is not None:
        r = sb.result
        lines.append(f"*** {r.headline} ***")
        lines.append(f"Game over: {r.why}.")
        lines.append("Shovels: " + ", ".join(f"{name} {n}" for name, n in r.scores))
    if sb.history:
        lines.append("Earlier games: " + "; ".join(sb.history))
    if sb.removed:
        lines.append(f"Removed at setup (no board solves them): {', '.join(sb.removed)}")
    return "\n".join(lines) + "\n"


def scoreboard_json(
    view: Mapping[str, Any],
    status: TableStatus,
    *,
    title: str = DEFAULT_TITLE,
    max_verdicts: int = MAX_VERDICTS,
) -> dict[str, Any]:
    """The same scoreboard as plain JSON data (dicts, lists, strings, numbers, None):
    `json.dumps` takes it as it is.

    :raises ValueError: as `scoreboard_data`.
    """
    sb = scoreboard_data(view, status, title=title, max_verdicts=max_verdicts)
    out = _jsonable(asdict(sb))
    out["visible"] = dict(sb.visible)
    if sb.result is not None:
        out["result"]["scores"] = dict(sb.result.scores)
    for row, p in zip(out["players"], sb.players, strict=True):
        for card, c in zip(row["won"], p.won, strict=True):
            card["compact"] = c.compact
    return {"game": "updown", "schema": 1, **out}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value
