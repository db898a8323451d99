"""Upturn's gifts: the tiles a Twin run and a Penalty tile let their player take from the pool
and give to other players (T-7, T-11). A gift is checked against what was earned; a pool that
holds fewer tiles than asked is no reason to refuse it: its tiles go, in the split asked as far
as they go, and the words say how many went (T-19).

Pure functions over what the engine knows (`upref.games.upturn.engine` calls them), so the
rules of giving read in one place.
"""

from __future__ import annotations

from collections.abc import Sequence

from upref.games.base import IllegalMoveError
from upref.games.upturn.actions import Gift
from upref.text import Msg, Plural, and_join

__all__ = ["check_split", "fill", "gift_text"]

Split = tuple[tuple[int, int], ...]


def check_split(
    gift: Gift, giver: int, players: Sequence[str], earned: int, reason: str, twin: bool
) -> None:
    """A gift `giver` asks for: every recipient another seat (T-11), named once and in seat
    order, given at least one tile; no more tiles than were earned (`earned`, for `reason`:
    T-7 after a Twin run, T-11 for a Penalty tile). What the pool holds is not checked (T-19).

    :raises IllegalMoveError: naming the rule the gift breaks.
    """
    name = players[giver]
    seats = [seat for seat, _ in gift.split]
    for seat, k in gift.split:
        if not (isinstance(seat, int) and 0 <= seat < len(players)):
            raise IllegalMoveError("gift", Msg("There is no seat {seat!r}.", seat=seat), None, gift)
        if seat == giver:
            raise IllegalMoveError(
                "T-11",
                Msg("Gifts go to other players: {name} cannot give tiles to {name}.", name=name),
                None,
                gift,
            )
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise IllegalMoveError(
                "gift", Msg("Give each recipient at least one tile, not {k!r}.", k=k), None, gift
            )
    if len(set(seats)) != len(seats) or seats != sorted(seats):
        raise IllegalMoveError("gift", Msg("Name each recipient once, in seat order."), None, gift)
    if gift.total > earned:
        raise IllegalMoveError(
            "T-7" if twin else "T-11",
            Msg(
                "{name} may give {tiles} ({reason}), not {asked}.",
                name=name,
                tiles=_tiles(earned),
                reason=reason,
                asked=gift.total,
            ),
            None,
            gift,
        )


def fill(split: Split, pool: int) -> Split:
    """The split as far as `pool` tiles go (T-19): each recipient in turn, in seat order, gets
    what was asked for them while tiles are left; a recipient left with none drops out."""
    out: list[tuple[int, int]] = []
    left = pool
    for seat, k in split:
        got = min(k, left)
        if got:
            out.append((seat, got))
        left -= got
    return tuple(out)


def gift_text(giver: str, players: Sequence[str], asked: Split, given: Split) -> tuple[str, str]:
    """What a gift did, in words, and the ruling it applied: T-11, or T-19 when the pool held
    fewer tiles than were asked ('Ann gives 1 tile to Bob from the pool: the pool held only 1
    of the 3 tiles asked, so only 1 could be given (T-19).')."""
    want = sum(k for _, k in asked)
    went = sum(k for _, k in given)
    if given:
        parts = [
            Msg("{tiles} to {name}", tiles=_tiles(k) if i == 0 else k, name=players[seat])
            for i, (seat, k) in enumerate(given)
        ]
        text = Msg("{giver} gives {parts} from the pool", giver=giver, parts=and_join(parts))
    else:
        text = Msg("{giver} gives no tiles", giver=giver)
    if went == want:
        return text + ".", "T-11"
    got = {seat for seat, _ in given}
    missed = [players[seat] for seat, _ in asked if seat not in got]
    if given and missed:
        none = Plural("{names} gets none", "{names} get none", n=len(missed), names=and_join(missed))
        text += "; " + none
    if not went:
        why = Msg("the pool is empty, {tiles} asked, none could be given", tiles=_tiles(want))
        return text + ": " + why + " (T-19).", "T-19"
    why = Msg(
        "the pool held only {went} of the {tiles} asked, so only {went} could be given",
        went=went,
        tiles=_tiles(want),
    )
    return text + ": " + why + " (T-19).", "T-19"


def _tiles(n: int) -> str:
    """'1 tile', '3 tiles'."""
    return Plural("{n} tile", "{n} tiles", n=n)
