"""`python -m upref.hardware COMMAND`: check the hardware data, regenerate the drawings.

check     validate pinmap.json, codes.json, bom.csv and the magnet layout (exit 1 on a problem)
diagram   write the wiring diagram from the pin map (default hardware/wiring.svg)
glueup    write the magnet glue-up sheet from the code table (default hardware/glue-up.svg)
power     write the power budget and the switched sensor supply (default hardware/power.json)
docs      rewrite the generated sections of docs/build.md
all       diagram, glueup, power and docs

A developer tool: it reads and writes the files of the upref source checkout (hardware/, docs/),
found as `paths.repo_root` says (UPREF_ROOT, else the checkout an editable install runs from).
An upref installed from a package has no checkout, and this tool says so.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from upref import paths
from upref.hardware import bom, codetable, guide, magnetics, pinmap, power


def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")


def cmd_check(args: argparse.Namespace) -> int:
    bad = 0
    pm_problems = pinmap.load_and_validate(args.pinmap)
    for p in pm_problems:
        print(f"pin map: {p}")
    bad += len(pm_problems)
    code_problems = codetable.load_and_validate(args.codes)
    for p in code_problems:
        print(f"codes: {p}")
    bad += len(code_problems)
    if pm_problems or code_problems:
        print(f"{bad} problem(s)")
        return 1
    pm, codes = _read(args.pinmap), codetable.load(args.codes)
    print(
        f"pin map: {len(pm['signals'])} signals, {len(pm['hall']['channels'])} sensors on "
        f"{len(pm['mux']['banks'])} multiplexers: ok"
    )
    pairs = codetable.one_flip_pairs(codes)
    least = codetable.min_one_flip_pairs(len(codetable.codes_of(codes)))
    print(
        f"codes: {len(codetable.codes_of(codes))} codes, {len(pairs)} one-flip neighbour "
        f"pairs (the least possible is {least}): ok"
    )
    try:
        lines, total = bom.load(args.bom)
    except (OSError, ValueError) as exc:
        print(f"bom: {exc}")
        return 1
    bom_problems = bom.check(lines, total, pm, codes)
    for p in bom_problems:
        print(f"bom: {p}")
    if not bom_problems:
        print(f"bom: {len(lines)} lines, {total:.2f} EUR: ok")
    a = magnetics.analyse(pm["hall"]["thresholds"])
    for name, value, rule, limit, ok in a.checks:
        if not ok:
            print(f"magnets: {name}: {value:,.0f} is not {rule} {limit:,.0f}")
    if a.ok:
        print(
            f"magnets: a magnet moves its sensor {a.direct_min:,.0f}-{a.direct_max:,.0f} "
            f"counts, a neighbour's at most {a.neighbour_max:,.0f}: ok"
        )
    rep = power.report(pm)
    print(f"power: {rep['verdict']} (hardware/power.json)")
    bad = len(bom_problems) + (0 if a.ok else 1)
    return 1 if bad else 0


def cmd_diagram(args: argparse.Namespace) -> int:
    from upref.hardware import diagram  # schemdraw: only needed here

    problems = pinmap.load_and_validate(args.pinmap)
    if problems:
        print(
            "the pin map has problems; fix them first:\n  " + "\n  ".join(problems), file=sys.stderr
        )
        return 1
    _write(args.output, diagram.wiring_svg(_read(args.pinmap)))
    return 0


def cmd_glueup(args: argparse.Namespace) -> int:
    problems = codetable.load_and_validate(args.codes)
    if problems:
        print("the code table has problems:\n  " + "\n  ".join(problems), file=sys.stderr)
        return 1
    _write(args.output, codetable.glueup_svg(codetable.load(args.codes)))
    return 0


def cmd_power(args: argparse.Namespace) -> int:
    rep = power.report(_read(args.pinmap))
    _write(args.output, power.to_json(rep))
    for key in ("unswitched", "switched"):
        s = rep[key]
        print(
            f"{s['note']}: 3.3 V {s['rail_3v3_ma']['worst']:.0f} mA worst, USB "
            f"{s['usb_5v_ma']['worst']:.0f} mA worst: {'fits' if s['fits'] else 'DOES NOT FIT'}"
        )
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    path = guide.guide_path()
    text = path.read_text(encoding="utf-8")
    new = guide.update(text, guide.sections(_read(args.pinmap), codetable.load(args.codes)))
    if new != text:
        _write(path, new)
    else:
        print(f"{path} is up to date")
    return 0


def cmd_all(args: argparse.Namespace) -> int:
    hw: Path = args.hardware
    for fn, out in (
        (cmd_diagram, hw / "wiring.svg"),
        (cmd_glueup, hw / "glue-up.svg"),
        (cmd_power, hw / "power.json"),
    ):
        args.output = out
        if fn(args):
            return 1
    return cmd_docs(args)


def main(argv: list[str] | None = None) -> int:
    try:
        hw = paths.hardware_dir("python -m upref.hardware")
    except paths.CheckoutNeeded as exc:
        print(exc, file=sys.stderr)
        return 2
    ap = argparse.ArgumentParser(
        prog="python -m upref.hardware",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--pinmap", type=Path, default=hw / "pinmap.json")
    ap.add_argument("--codes", type=Path, default=hw / "codes.json")
    ap.add_argument("--bom", type=Path, default=hw / "bom.csv")
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="validate the hardware data")
    for name, default in (
        ("diagram", "wiring.svg"),
        ("glueup", "glue-up.svg"),
        ("power", "power.json"),
    ):
        p = sub.add_parser(name)
        p.add_argument("-o", "--output", type=Path, default=hw / default)
    sub.add_parser("docs", help="rewrite the generated sections of docs/build.md")
    sub.add_parser("all", help="regenerate every drawing, power.json and the docs' tables")
    args = ap.parse_args(argv)
    args.hardware = hw
    commands = {
        "check": cmd_check,
        "diagram": cmd_diagram,
        "glueup": cmd_glueup,
        "power": cmd_power,
        "docs": cmd_docs,
        "all": cmd_all,
    }
    return commands[args.command](args)


if __name__ == "__main__":
    raise SystemExit(main())
