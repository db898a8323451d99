"""Shared by the host tests: the runtime folder of a simulated board, and `support/` (the
physical tables that feed referees, the fake serial port) importable from every folder below."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "support"))


@pytest.fixture
def rt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A runtime folder of this test's own, so simulated boards never meet another test's."""
    d = tmp_path / "rt"
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(d))
    return d
