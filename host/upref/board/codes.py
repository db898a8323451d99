"""The magnet code table: which hole code is which end of which mole pair.

A hole's four sensor positions P1..P4 each read a trit (0 = no magnet, 1 = north, 2 = south)
and `code = t1 + 3*t2 + 9*t3 + 27*t4`; 0 is an empty hole. Each end of each mole pair carries
exactly three magnets, so a lost or weak magnet, a stray one or a half-inserted pair reads as a
code outside the table: it is reported as invalid, never as another pair. The table lives in
`hardware/codes.json`; the firmware reports codes only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from upref import paths
from upref.link.protocol import MAX_CODE, POSITIONS
from upref.text import Msg, Plural, join_words

EMPTY = 0
MAGNETS_PER_END = 3
PAIR_COUNT = 10
"""Mole pairs on the board: five colours, each paired with every other once (one per hole)."""
_SYMBOLS = "-NS"  # trit 0, 1, 2


def magnets_of(code: int) -> str:
    """The magnet string of a code, P1 first: 39 -> '-NNN'.

    :raises ValueError: for a code outside 0..80.
    """
    if not 0 <= code <= MAX_CODE:
        raise ValueError(f"code out of range 0..{MAX_CODE}: {code!r}")
    out = []
    for _ in range(POSITIONS):
        out.append(_SYMBOLS[code % 3])
        code //= 3
    return "".join(out)


def code_of(magnets: str) -> int:
    """The code of a magnet string: '-NNN' -> 39.

    :raises ValueError: for a string that is not four of '-', 'N', 'S'.
    """
    if len(magnets) != POSITIONS or any(c not in _SYMBOLS for c in magnets):
        raise ValueError(f"magnet string must be {POSITIONS} of '-', 'N', 'S': {magnets!r}")
    return sum(_SYMBOLS.index(c) * 3**i for i, c in enumerate(magnets))


def magnet_count(code: int) -> int:
    """How many magnets a code has (positions that are not empty)."""
    return POSITIONS - magnets_of(code).count("-")


def one_flip_neighbours(code: int) -> list[int]:
    """The codes that differ from `code` by one flipped pole (N <-> S at one position), in
    ascending order. Empty positions stay empty."""
    m = magnets_of(code)
    flip = {"N": "S", "S": "N"}
    out = [code_of(m[:i] + flip[c] + m[i + 1 :]) for i, c in enumerate(m) if c != "-"]
    return sorted(out)


@dataclass(frozen=True)
class MoleEnd:
    """One end of a mole pair, as seen from the hole: the pair, the colour hidden in the hole
    (its magnets face the sensors) and the colour that stands up. Colours are letters (R, B,
    Y, W, K); `CodeTable.colour_name` spells them."""

    pair_id: str
    hidden: str
    visible: str


class CodeTable:
    """code -> MoleEnd, loaded from `hardware/codes.json` and validated."""

    def __init__(self, ends: dict[int, MoleEnd], colours: dict[str, str], source: str = "") -> None:
        self._ends = dict(ends)
        self.colours = dict(colours)
        self.source = source
        self.pairs: dict[str, tuple[MoleEnd, MoleEnd]] = {}
        by_pair: dict[str, list[MoleEnd]] = {}
        for end in self._ends.values():
            by_pair.setdefault(end.pair_id, []).append(end)
        for pid, pair_ends in by_pair.items():
            if len(pair_ends) == 2:
                self.pairs[pid] = (pair_ends[0], pair_ends[1])

    @classmethod
    def load(cls, path: Path | str | None = None) -> CodeTable:
        """Read and validate the table (default: paths.codes_path()).

        :raises ValueError: naming the problem: not 20 distinct codes, an end without exactly
            three magnets, a code that does not match its magnet string, a pair whose two ends
            hide the same colour or colours not in its name, an unknown colour, a duplicate pair.
        :raises OSError: when the file cannot be read.
        """
        p = Path(path) if path is not None else paths.codes_path()
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"code table {str(p)!r} is not valid JSON: {exc}") from None
        return cls.from_data(data, source=str(p))

    @classmethod
    def from_data(cls, data: Any, source: str = "<data>") -> CodeTable:
        """Build and validate a table from the parsed JSON (see `load`)."""

        def bad(why: str) -> ValueError:
            return ValueError(f"code table {source!r}: {why}")

        if not isinstance(data, dict):
            raise bad("top level is not an object")
        colours = data.get("colours")
        pairs = data.get("pairs")
        if not isinstance(colours, dict) or not colours:
            raise bad("no 'colours' object")
        if not isinstance(pairs, list):
            raise bad("no 'pairs' list")
        ends: dict[int, MoleEnd] = {}
        seen_pairs: set[str] = set()
        for pair in pairs:
            pid = pair.get("id") if isinstance(pair, dict) else None
            if not isinstance(pid, str) or not pid:
                raise bad(f"pair without an id: {pair!r}")
            if pid in seen_pairs:
                raise bad(f"pair {pid} appears twice")
            seen_pairs.add(pid)
            ends.update(_read_pair(pid, pair, colours, ends, bad))
        if len(seen_pairs) != PAIR_COUNT or len(ends) != 2 * PAIR_COUNT:
            raise bad(
                f"{len(ends)} distinct codes in {len(seen_pairs)} pairs; "
                f"the board needs {2 * PAIR_COUNT} codes in {PAIR_COUNT} pairs"
            )
        return cls(ends, {str(k): str(v) for k, v in colours.items()}, source)

    # -- lookups --------------------------------------------------------------------------

    def lookup(self, code: int) -> MoleEnd | None:
        """The mole end a code stands for; None for the empty hole and for invalid codes."""
        return self._ends.get(code)

    def is_valid(self, code: int) -> bool:
        """True for the empty hole and for every code in the table."""
        return code == EMPTY or code in self._ends

    def codes(self) -> list[int]:
        """Every assigned code, ascending."""
        return sorted(self._ends)

    def colour_name(self, letter: str) -> str:
        return self.colours.get(letter, letter)

    def short(self, code: int) -> str:
        """A few words for a code: 'empty', 'P-RB red up', 'invalid code 40 (N-NN)'."""
        if code == EMPTY:
            return Msg("empty")
        end = self._ends.get(code)
        if end is not None:
            return Msg("{pair} {colour} up", pair=end.pair_id, colour=self.colour_name(end.visible))
        if 0 <= code <= MAX_CODE:
            return Msg("invalid code {code} ({magnets})", code=code, magnets=magnets_of(code))
        return Msg("invalid code {code}", code=code)

    def describe(self, code: int) -> str:
        """What a code means, in words, with advice for an invalid one:
        'empty', 'P-RB with red up',
        'invalid code 38 (NSNN = 4 magnets): a stray magnet near the hole? ...'."""
        if code == EMPTY:
            return Msg("empty")
        end = self._ends.get(code)
        if end is not None:
            return Msg(
                "{pair} with {colour} up", pair=end.pair_id, colour=self.colour_name(end.visible)
            )
        if not 0 <= code <= MAX_CODE:
            return Msg("invalid code {code} (out of range 0..{most})", code=code, most=MAX_CODE)
        n = magnet_count(code)
        what = Plural(
            "invalid code {code} ({magnets} = {n} magnet)",
            "invalid code {code} ({magnets} = {n} magnets)",
            n=n,
            code=code,
            magnets=magnets_of(code),
        )
        return Msg("{what}: {advice}", what=what, advice=self._advice(code, n))

    def _advice(self, code: int, n: int) -> str:
        """What to do about an invalid code of `n` magnets."""
        if n < MAGNETS_PER_END:
            return Msg(
                "a magnet missing or weak, or the pair half inserted: reseat the pair or check "
                "its magnets"
            )
        if n > MAGNETS_PER_END:
            return Msg("one magnet too many: remove any stray magnet near the hole and reseat the pair")
        near = [c for c in one_flip_neighbours(code) if c in self._ends]
        if near:
            return Msg(
                "not a code of this set (one flipped pole from {near}): check the pair's magnets",
                near=join_words(", ", [self.short(c) for c in near]),
            )
        return Msg("not a code of this set: check the pair's magnets")


def _read_pair(
    pid: str,
    pair: dict[str, Any],
    colours: dict[str, Any],
    ends: dict[int, MoleEnd],
    bad: Callable[[str], ValueError],
) -> dict[int, MoleEnd]:
    """The two ends of pair `pid` of a code table, checked against the table read so far
    (`ends`): two ends, hiding two different colours, those of the pair's name.

    :raises ValueError: from `bad`, saying what is wrong.
    """
    pair_ends = pair.get("ends")
    if not isinstance(pair_ends, list) or len(pair_ends) != 2:
        raise bad(f"pair {pid} must have exactly 2 ends")
    read: list[tuple[int, str]] = []
    for end in pair_ends:
        read.append(_read_end(pid, end, colours, ends, read, bad))
    (code_a, hid_a), (code_b, hid_b) = read
    if hid_a == hid_b:
        raise bad(f"pair {pid}: both ends hide {hid_a}; the two ends must differ")
    name_colours = pid.split("-", 1)[-1]
    if len(name_colours) == 2 and set(name_colours) != {hid_a, hid_b}:
        raise bad(f"pair {pid}: its ends hide {hid_a} and {hid_b}, not the colours of its name")
    return {code_a: MoleEnd(pid, hid_a, hid_b), code_b: MoleEnd(pid, hid_b, hid_a)}


def _read_end(
    pid: str,
    end: Any,
    colours: dict[str, Any],
    ends: dict[int, MoleEnd],
    read: list[tuple[int, str]],
    bad: Callable[[str], ValueError],
) -> tuple[int, str]:
    """(code, hidden colour) of one end of pair `pid`: a known colour, magnets that make its
    code, exactly `MAGNETS_PER_END` of them, a code no other end (`ends`, `read`) has.

    :raises ValueError: from `bad`, saying what is wrong.
    """
    if not isinstance(end, dict):
        raise bad(f"pair {pid}: end is not an object: {end!r}")
    colour, magnets, code = end.get("hidden"), end.get("magnets"), end.get("code")
    if not isinstance(colour, str) or colour not in colours:
        raise bad(f"pair {pid}: unknown hidden colour {colour!r}")
    if not isinstance(magnets, str) or not isinstance(code, int):
        raise bad(f"pair {pid} end {colour}: needs 'magnets' (string) and 'code' (int)")
    try:
        from_magnets = code_of(magnets)
    except ValueError as exc:
        raise bad(f"pair {pid} end {colour}: {exc}") from None
    if from_magnets != code:
        raise bad(
            f"pair {pid} end {colour}: code {code} does not match magnets "
            f"{magnets!r} (which make code {from_magnets})"
        )
    n = magnet_count(code)
    if n != MAGNETS_PER_END:
        raise bad(
            f"pair {pid} end {colour}: {magnets!r} has {n} magnets, "
            f"every end needs exactly {MAGNETS_PER_END}"
        )
    taken = ends.get(code) or next((MoleEnd(pid, h, "") for c, h in read if c == code), None)
    if taken is not None:
        raise bad(
            f"code {code} ({magnets}) is used twice: pair {taken.pair_id} "
            f"end {taken.hidden} and pair {pid} end {colour}"
        )
    return code, colour
