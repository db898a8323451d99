"""A board with a pair in every hole, as the table-level referee tests start from."""

from __future__ import annotations

from upref.board.codes import CodeTable

CODES = CodeTable.load()


def pair_in_every_hole(codes: CodeTable = CODES) -> tuple[int, ...]:
    """The codes of ten holes each holding a different pair (one end of each pair up)."""
    seen: dict[str, int] = {}
    for c in codes.codes():
        end = codes.lookup(c)
        if end is not None and end.pair_id not in seen:
            seen[end.pair_id] = c
    return tuple(list(seen.values())[:10])
