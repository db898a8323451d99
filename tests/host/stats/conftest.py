"""The stats tests share one fixture of logs (`stats_logs`), written once per module."""

from __future__ import annotations

from pathlib import Path

import pytest
from stats_logs import Logs, write_logs


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Logs:
    return write_logs(tmp_path_factory.mktemp("stats"))


@pytest.fixture
def names_file(tmp_path: Path) -> Path:
    return tmp_path / "names.txt"
