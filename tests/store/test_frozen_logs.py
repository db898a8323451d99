"""Logs written before the game seam replay, through today's referee, to the very verdicts they
gave then (tests/golden/logs/README.md): saved games keep their meaning across refactors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from upref.registry import referee_for
from upref.store.replay import load_log, replay, verdict_dict

LOGS = Path(__file__).resolve().parents[1] / "golden" / "logs"
NAMES = sorted(p.name.removesuffix(".jsonl") for p in LOGS.glob("*.jsonl") if ".verdicts" not in p.name)


def test_the_frozen_logs_are_all_there() -> None:
    assert NAMES == ["updown_demo", "updown_golden_session", "updown_random"]


@pytest.mark.parametrize("name", NAMES)
def test_a_log_from_before_the_seam_replays_to_the_same_verdicts(name: str) -> None:
    info, entries = load_log(LOGS / f"{name}.jsonl")
    got = [
        json.dumps(verdict_dict(r.entry.seq, v), ensure_ascii=False)
        for r in replay(info, entries, referee_for)
        for v in r.reply.verdicts
    ]
    want = (LOGS / f"{name}.verdicts.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(got) == len(want)
    for number, (w, g) in enumerate(zip(want, got, strict=True), start=1):
        assert g == w, f"{name}.verdicts.jsonl line {number}"
