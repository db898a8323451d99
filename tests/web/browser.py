"""Headless Chromium (the distribution's package) driven by Selenium with the distribution's
chromedriver, for the page's tests (`upref.web.headless`); a missing browser fails the test
saying what to install."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from upref.web import headless

OBSERVE = headless.OBSERVE


@contextmanager
def chromium(width: int = 1920, height: int = 1080, *, performance_log: bool = False) -> Iterator[Any]:
    try:
        headless.find()
    except RuntimeError as e:
        pytest.fail(str(e), pytrace=False)
    with headless.chromium(width, height, performance_log=performance_log) as d:
        yield d
