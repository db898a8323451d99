"""Shared by the host tests that run a simulated board."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def rt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A runtime folder of this test's own, so simulated boards never meet another test's."""
    d = tmp_path / "rt"
    monkeypatch.setenv("UPREF_RUNTIME_DIR", str(d))
    return d
