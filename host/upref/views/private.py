"""A player's own screen: their secret task card and how the board stands against it.

Only for one player's eyes (a phone or a screen turned away from the table), never for the
table scoreboard: it takes that seat's view, `UpDownGame.view(seat)`, which holds the card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from upref.views.scoreboard import COLOUR_STYLES

__all__ = ["render_private"]


def render_private(view_for_seat: Mapping[str, Any]) -> RenderableType:
    """A small panel with the seat's current task card: each colour it asks for, the number
    asked and the number up now, and whether the card matches the board right now.

    :raises ValueError: for a view that is not one seat's Up And Down view.
    """
    if view_for_seat.get("game") != "updown":
        raise ValueError(f"not an Up And Down view: game={view_for_seat.get('game')!r}")
    if "task" not in view_for_seat or view_for_seat.get("seat") is None:
        raise ValueError("render_private needs one seat's view, UpDownGame.view(seat)")
    seat = int(view_for_seat["seat"])
    name = str(view_for_seat["players"][seat]["name"])
    task = view_for_seat["task"]
    title = f"{name} — your task card (keep it to yourself)"
    if task is None:
        body: RenderableType = Text("No task card: draw one from the stack.", style="bold")
        return Panel(body, title=title, title_align="left", box=box.ROUNDED)
    visible: Mapping[str, int] = view_for_seat["visible"]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    table.add_column("colour")
    table.add_column("asked", justify="right")
    table.add_column("up now", justify="right")
    table.add_column("")
    matches = True
    for colour, asked in task["counts"].items():
        up = int(visible.get(colour, 0))
        ok = up == asked
        matches = matches and ok
        table.add_row(
            Text(colour, style=COLOUR_STYLES.get(colour, "")),
            str(asked),
            str(up),
            "ok" if ok else f"{'+' if asked > up else '-'}{abs(asked - up)}",
        )
    shovels = int(task["shovels"])
    head = Text(
        f"{task['id']}: {task['card']}  ({shovels} {'shovel' if shovels == 1 else 'shovels'})",
        style="bold",
    )
    state = (
        Text("The board matches your card now.", style="bold green")
        if matches
        else Text("The board does not match your card yet.")
    )
    return Panel(Group(head, table, state), title=title, title_align="left", box=box.ROUNDED)
