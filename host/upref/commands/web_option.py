"""The `--web [ADDR]` option of the commands that can serve the scoreboard as a live web page
(`upref play`, `upref demo`), defined once: the option, its address checked before anything
starts, a bare `--web` before a name, why a page could not be served, and serving it.

    ap = argparse.ArgumentParser()
    add_web_option(ap)
    args = ap.parse_args(web_argv(argv))   # args.web: the address, or None without --web
    page = start_page(game, table, args.web, players, session)

Kept apart from `commands.connect` so that the commands without a page (watch, doctor) do not
load the web server to open a link.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from upref.commands.lang_option import said, said_error
from upref.game import Game
from upref.stats.names import Names, default_names_file
from upref.stats.report import Query, from_logs
from upref.table import Table
from upref.text import ENGLISH, Msg
from upref.web.live import LivePage, looks_like_address
from upref.web.server import DEFAULT_ADDRESS, parse_address

__all__ = ["add_web_option", "page_error", "start_page", "stats_source", "web_address", "web_argv"]


def add_web_option(ap: argparse.ArgumentParser) -> None:
    """Give `ap` the `--web [ADDR]` option: `args.web` is the address to serve the page on
    (the default address for a bare `--web`), or None without it."""
    ap.add_argument(
        "--web",
        nargs="?",
        const=DEFAULT_ADDRESS,
        type=web_address,
        metavar="ADDR",
        help=said(
            Msg(
                "also serve the scoreboard as a live web page (default address {address}); "
                "?lang=de on its address shows it in another language",
                address=DEFAULT_ADDRESS,
            )
        ),
    )


def web_argv(argv: list[str]) -> list[str]:
    """`--web` followed by a player's name (not an address) means the default address."""
    out = list(argv)
    for i, word in enumerate(out):
        if word == "--web" and (i + 1 == len(out) or not looks_like_address(out[i + 1])):
            out[i] = f"--web={DEFAULT_ADDRESS}"
    return out


def web_address(text: str) -> str:
    """`--web`'s value, checked before anything starts.

    :raises argparse.ArgumentTypeError: saying what is wrong and what to give.
    """
    try:
        parse_address(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(said(said_error(e))) from None
    return text


def page_error(address: str, e: ValueError | OSError) -> str:
    """Why the page cannot be served at `address`, and what to do."""
    if isinstance(e, ValueError):
        return f"--web {address}: " + said(said_error(e))
    return Msg(
        "cannot serve the page at {address}: {why}. Another program (another upref?) may be "
        "using that port, or the address is not this machine's: give another, e.g. --web "
        "127.0.0.1:8766.",
        address=address,
        why=e.strerror or str(e),
    )


def stats_source(db: Path) -> Callable[[], Mapping[str, Any]]:
    """What the page's `/stats` draws: the stats of the games database `db`, read again at each
    visit, names merged by the names file (`upref stats` without options says the same)."""

    def read() -> Mapping[str, Any]:
        return from_logs([db], Query(), Names.from_file(default_names_file())).as_json()

    return read


def start_page(
    game: Game,
    table: Table,
    address: str,
    players: tuple[str, ...],
    session: str,
    lang: str = ENGLISH,
    db: Path | None = None,
) -> LivePage:
    """The live page, served with the table's latest frame; its URL printed. The caller hands
    it each frame the table publishes after that (`LivePage.update`). The page is in `lang`
    unless a browser asks for another (`?lang=`). With `db`, the games database of the
    session, the page also serves `/stats` and points to it between games.

    :raises ValueError: for an address that is not one.
    :raises OSError: when it cannot be served there.
    """
    stats = None if db is None else stats_source(db)
    page = LivePage(game.panel, address, players, session, lang=lang, stats=stats)
    page.start(table.frame)
    return page
