"""Options for every test: `--update-golden` rewrites golden files (playthrough transcripts,
scoreboard text) from what the code produces now, instead of comparing against them."""

from __future__ import annotations

import os

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite golden files from the current output instead of comparing (review the diff!)",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    flag = bool(request.config.getoption("--update-golden", default=False))
    return flag or os.environ.get("UPREF_UPDATE_GOLDEN") == "1"
