"""A public export (`upref export --public`) is for sharing what the table saw; it has no inputs,
so it cannot be replayed: `upref replay` says so and says what to export instead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from upref.commands.replay import replay_main


@pytest.mark.parametrize("json_out", [False, True])
def test_replaying_a_public_export_says_what_to_export_instead(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], json_out: bool
) -> None:
    path = tmp_path / "shared.jsonl"
    head = {"kind": "game", "format": "upref-public", "game": "updown", "id": 7, "players": ["Ann"]}
    text = json.dumps(head) + "\n" + json.dumps({"t": 1.0, "seq": 1, "kind": "ok", "text": "x"}) + "\n"
    path.write_text(text)
    status = replay_main([str(path), *(["--json"] if json_out else [])])
    err = capsys.readouterr().err
    assert status == 1
    assert "is a public export" in err and "a replay needs the inputs" in err, err
    assert "without --public" in err and "upref export --game 7" in err, err
    assert "is not an upref game log" not in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert path.read_text() == text
