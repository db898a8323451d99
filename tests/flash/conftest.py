"""Fixtures of the flash tests (helpers.py runs make; images.py builds test images)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def image_dir(tmp_path: Path) -> Path:
    d = tmp_path / "images"
    d.mkdir()
    return d
