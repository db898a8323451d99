"""A panel as a terminal shows it, for the panel tests of every game: `console_text`."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType


def console_text(renderable: RenderableType, width: int = 80) -> str:
    """What a terminal shows, without colour; trailing blanks cut from each line (so the golden
    files survive editors)."""
    console = Console(width=width, file=io.StringIO(), color_system=None, force_terminal=True)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in out.splitlines()) + "\n"
