"""The generated sections of docs/build.md: each sits between `<!-- generated:NAME -->` and
`<!-- /generated:NAME -->` and is rewritten by `python -m upref.hardware docs`, so the guide's
tables always match the data (a test checks they are current)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from upref import paths
from upref.hardware import bom, codetable, magnetics, pinmap, power


def guide_path() -> Path:
    """docs/build.md of the source checkout (it is not installed with upref)."""
    return paths.repo_root("rewriting docs/build.md") / "docs" / "build.md"


def _table(head: str, align: str, rows: list[str]) -> str:
    return "\n".join([head, align, *rows])


def _power(rep: dict[str, Any]) -> str:
    """The power budget of each configuration (the one built first) and the limits."""
    order = ("unswitched", "switched", "switched_with_wifi")
    if rep["as_built"] == "switched":
        order = ("switched", "unswitched", "switched_with_wifi")
    rows = []
    for key in order:
        s = rep[key]
        r3, u = s["rail_3v3_ma"], s["usb_5v_ma"]
        rows.append(
            f"| {s['note']} | {r3['typ']:.0f} | {r3['worst']:.0f} / {r3['peak']:.0f} | "
            f"{u['typ']:.0f} | {u['worst']:.0f} / {u['peak']:.0f} | "
            f"{'yes' if s['fits'] else '**no**'} |"
        )
    lim = rep["limits"]
    m = lim["margin"]
    rows.append("")
    rows.append(
        f"Limits (each used up to {m:.0%}): USB {lim['usb_ma']:.0f} mA; the regulator's "
        f"heat {lim['regulator_thermal_ma']:.0f} mA continuous "
        f"({lim['regulator_thermal_basis']}); its current limit "
        f"{lim['regulator_current_limit_ma']:.0f} mA for peaks."
    )
    return _table("| configuration | 3.3 V typ | 3.3 V worst (avg / peak) | USB 5 V typ | "
                  "USB 5 V worst (avg / peak) | fits |", "|---|---:|---:|---:|---:|---|", rows)


def sections(pm: dict[str, Any], codes: dict[str, Any]) -> dict[str, str]:
    """name -> Markdown of every generated section."""
    lines, total = bom.load()
    rep = power.report(pm)
    tags = [f"| {game} | {what} | {n} |" for game, what, n in bom.TAGGED]
    tags.append(f"| | **total** | **{bom.tag_count()}** |")
    return {
        "bom": bom.render_markdown(lines, total),
        "pins": _table("| signal | GPIO | mode | connects to |", "|---|---:|---|---|", [
            f"| `{name}` | {gpio} | {mode} | {function} |"
            for name, gpio, mode, function in pinmap.signal_table(pm)]),
        "tags": _table("| game | what | stickers |", "|---|---|---:|", tags),
        "magnets": magnetics.markdown_table(magnetics.analyse(pm["hall"]["thresholds"])),
        "power": _power(rep),
        "power_parts": _table(
            "| part | qty | typ mA each | max mA each | rail | source |", "|---|---:|---:|---:|---|---|", [
                f"| {row['part']} | {row['qty']} | {row['typ_ma_each']:g} | "
                f"{row['max_ma_each']:g} | {row['rail']} | {row['source']} |"
                for row in rep["unswitched"]["parts"]]),
        "codes": _table(
            "| pair | end down (hidden) | stands up | magnets P1..P4 | code |", "|---|---|---|---|---:|", [
                f"| {pid} | {hidden} | {visible} | `{magnets}` | {code} |"
                for pid, hidden, visible, magnets, code in codetable.ends(codes)]),
        "selftest": _table("| # | pair | end down | magnets P1..P4 | code |", "|---:|---|---|---|---:|", [
            f"| {i} | {pid} | {hidden} | `{magnets}` | {code} |"
            for i, (pid, hidden, _, magnets, code) in enumerate(codetable.cover_set(codes), 1)]),
    }


_MARK = re.compile(r"(<!-- generated:([a-z_]+) -->\n)(.*?)(<!-- /generated:\2 -->)", re.S)


def update(text: str, new: dict[str, str]) -> str:
    """`text` with every generated section replaced by its new content.

    :raises ValueError: for a section the text names but `new` does not know.
    """

    def repl(m: re.Match[str]) -> str:
        name = m.group(2)
        if name not in new:
            raise ValueError(f"docs/build.md: unknown generated section {name!r}")
        return f"{m.group(1)}{new[name]}\n{m.group(4)}"

    return _MARK.sub(repl, text)


def names_in(text: str) -> list[str]:
    return [m.group(2) for m in _MARK.finditer(text)]
