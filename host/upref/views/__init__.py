"""Views: they only read. The table scoreboard (terminal, plain text, JSON) never shows hidden
information; `render_private` is for one player's own screen."""

from upref.views.private import render_private
from upref.views.scoreboard import (
    Scoreboard,
    render_scoreboard,
    scoreboard_data,
    scoreboard_json,
    scoreboard_text,
)

__all__ = [
    "Scoreboard",
    "render_private",
    "render_scoreboard",
    "scoreboard_data",
    "scoreboard_json",
    "scoreboard_text",
]
