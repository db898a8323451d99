"""Upturn's sentences that its rules say, each written once: how a lay, a Twin, a call and a
refusal against the direction are worded (the rules module keeps the rules; these keep the
words, in every language the catalogue has)."""

from __future__ import annotations

from upref.games.upturn.position import DOWN, DRAWN, JOKER, TWIN, UP
from upref.games.upturn.tiles import ACTION_NAMES, Tile
from upref.text import Msg, Plural, upper_first

__all__ = [
    "FIRST_THE_START",
    "action_against",
    "adds_to_the_run",
    "against_the_direction",
    "already_on_the_line",
    "first_lay",
    "joker_words",
    "lays",
    "missed_call",
    "no_draw_now",
    "one_tile_left",
    "reversed_words",
    "take_back",
    "tile_count",
    "twin_words",
]


def tile_count(n: int) -> str:
    """'1 tile', '3 tiles'."""
    return Plural("{n} tile", "{n} tiles", n=n)


def already_on_the_line(t: Tile, place: int) -> str:
    """A tile tapped that lies on the line already, at `place` (1 the Starting tile)."""
    tile = upper_first(t.words())
    if place == 1:
        return Msg("{tile} is already on the line (the first tile): a tile is laid only once.", tile=tile)
    if place == 2:
        return Msg("{tile} is already on the line (the second tile): a tile is laid only once.", tile=tile)
    if place == 3:
        return Msg("{tile} is already on the line (the third tile): a tile is laid only once.", tile=tile)
    return Msg(
        "{tile} is already on the line (the {ordinal} tile): a tile is laid only once.",
        tile=tile,
        ordinal=_ordinal(place),
    )


def _ordinal(n: int) -> str:
    """'4th', '21st', '22nd', '23rd' (from the fourth on)."""
    last = 0 if 10 <= n % 100 <= 20 else n % 10
    if last == 1:
        return Msg("{n}st", n=n)
    if last == 2:
        return Msg("{n}nd", n=n)
    if last == 3:
        return Msg("{n}rd", n=n)
    return Msg("{n}th", n=n)


FIRST_THE_START = Msg("Turn up the Starting tile first.")


def missed_call(name: str, k: int) -> str:
    """A missed 'one tile left' call, and its penalty of `k` tiles (T-13)."""
    if k:
        return Msg(
            "{name} did not call 'one tile left' before this tile: {name} takes {tiles} from the "
            "pool as the penalty (T-13).",
            name=name,
            tiles=tile_count(k),
        )
    return Msg(
        "{name} did not call 'one tile left' before this tile, but the pool is empty: no "
        "penalty tiles to take (T-13).",
        name=name,
    )


def adds_to_the_run(name: str, t: Tile, low: int, high: int, n: int) -> str:
    """A tile added to a Twin run: `n` tiles laid so far (T-7)."""
    if t.penalty:
        return Msg(
            "{name} adds {tile} to the Twin run, between {low} and {high} (a penalty tile: one "
            "tile more to give): {n} tiles laid so far.",
            name=name,
            tile=t.words(),
            low=low,
            high=high,
            n=n,
        )
    return Msg(
        "{name} adds {tile} to the Twin run, between {low} and {high}: {n} tiles laid so far.",
        name=name,
        tile=t.words(),
        low=low,
        high=high,
        n=n,
    )


def twin_words(name: str, low: int, high: int | None, after_action: bool) -> str:
    """A Twin laid: its run may follow, then the gift (T-7; T-18 when an action tile lies
    before it)."""
    if after_action:
        return Msg(
            "A Twin: {name} may add rack tiles strictly between {low} (the last numbered tile "
            "counts, not the action tile after it, T-18) and {high}, then give tiles from the "
            "pool: one for the Twin and one for each tile added (T-7).",
            name=name,
            low=low,
            high=high,
        )
    return Msg(
        "A Twin: {name} may add rack tiles strictly between {low} and {high}, then give tiles "
        "from the pool: one for the Twin and one for each tile added (T-7).",
        name=name,
        low=low,
        high=high,
    )


def one_tile_left(name: str, called: bool) -> str:
    """A player left with one tile, who called it or must (T-13)."""
    if called:
        return Msg("{name} has called 'one tile left'.", name=name)
    return Msg(
        "{name} has one tile left and must call it (the button) before the next tile is laid "
        "(T-13).",
        name=name,
    )


def no_draw_now(phase: str, name: str) -> str:
    """Why the player to move may not draw in this phase of the turn."""
    if phase == DRAWN:
        return Msg("{name} has drawn already this turn: lay one tile or keep all tiles.", name=name)
    if phase == JOKER:
        return Msg(
            "{name} has laid a Joker: lay the extra tile or none; no draw this turn.", name=name
        )
    if phase == TWIN:
        return Msg("{name} is laying a Twin run: add run tiles or give the tiles first.", name=name)
    return Msg("{name} may still give tiles from the pool: the gift comes first.", name=name)


def take_back(tile: str) -> str:
    return Msg("Take {tile} back.", tile=tile)


def lays(name: str, t: Tile, extra: bool, end: str = ".") -> str:
    """'Ann lays 41.', 'Ann lays an Up tile as the Joker's extra tile.' (`end`: its stop)."""
    if extra:
        return Msg("{name} lays {tile} as the Joker's extra tile", name=name, tile=t.words()) + end
    return Msg("{name} lays {tile}", name=name, tile=t.words()) + end


def joker_words(lays: str, new: str, name: str, need: str) -> str:
    """A Joker laid: the direction reversed, one more tile may follow (T-6)."""
    if new == UP:
        return Msg(
            "{lays}: the direction is reversed, now up (clockwise, play passes left); {name} may "
            "lay one more tile, {need}, or an action tile (T-6), or none.",
            lays=lays,
            name=name,
            need=need,
        )
    return Msg(
        "{lays}: the direction is reversed, now down (counter-clockwise, play passes right); "
        "{name} may lay one more tile, {need}, or an action tile (T-6), or none.",
        lays=lays,
        name=name,
        need=need,
    )


def reversed_words(lays: str, new: str, back: str) -> str:
    """An Up, Down or Up & Down tile laid: the direction reversed, play goes back (T-5)."""
    if new == UP:
        return Msg(
            "{lays}: the direction is now up (clockwise, play passes left), so play goes back "
            "to {name}.",
            lays=lays,
            name=back,
        )
    return Msg(
        "{lays}: the direction is now down (counter-clockwise, play passes right), so play goes "
        "back to {name}.",
        lays=lays,
        name=back,
    )


def against_the_direction(direction: str, t: Tile, last: int, after_action: bool) -> tuple[str, str]:
    """The rule and the words of a numbered tile against the direction: a Twin (T-17), or
    any other, said against the last numbered tile (T-18 when an action tile lies last)."""
    args = {"last": last, "number": t.number}
    if t.twin:
        if direction == UP:
            return "T-17", Msg(
                "A Twin is a numbered tile and follows the direction too: the direction is up, "
                "so it must be higher than {last}; {number} is not.",
                **args,
            )
        return "T-17", Msg(
            "A Twin is a numbered tile and follows the direction too: the direction is down, "
            "so it must be lower than {last}; {number} is not.",
            **args,
        )
    after = (
        " " + Msg("(the last numbered tile: action tiles never change the number, T-18)")
        if after_action
        else ""
    )
    if direction == UP:
        return "direction", Msg(
            "The direction is up, so the next number must be higher than {last}{after}; "
            "{number} is not.",
            after=after,
            **args,
        )
    return "direction", Msg(
        "The direction is down, so the next number must be lower than {last}{after}; {number} "
        "is not.",
        after=after,
        **args,
    )


def action_against(kind: str, direction: str | None) -> str | None:
    """Why an Up or Down tile may not be laid in this direction (T-16), or None."""
    if kind == "up" and direction == UP:
        return Msg(
            "{name} may only be laid while the direction is down, and it is up.",
            name=ACTION_NAMES["up"],
        )
    if kind == "down" and direction == DOWN:
        return Msg(
            "{name} may only be laid while the direction is up, and it is down.",
            name=ACTION_NAMES["down"],
        )
    return None


def first_lay(name: str, t: Tile, before: int, direction: str) -> str:
    """The first move, laid against the Starting tile: the direction it sets (T-2)."""
    way = (
        Msg("the direction is up, play passes left (clockwise)")
        if direction == UP
        else Msg("the direction is down, play passes right (counter-clockwise)")
    )
    return Msg(
        "{name} lays {tile} against the Starting tile {start}: {way}.",
        name=name,
        tile=t.words(),
        start=before,
        way=way,
    )
