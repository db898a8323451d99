"""A headless Chromium driven by Selenium, for `make bench` and the page's tests: the
distribution's `chromium` and `chromedriver` (Selenium is in the `dev` extra; nothing at a table
needs this module)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["INSTALL", "OBSERVE", "chromium", "find"]

INSTALL = (
    "the browser tests need Chromium and its driver from the distribution: "
    "`apt-get install chromium chromium-driver` (`make browser` does it)"
)

OBSERVE = """
const board = document.getElementById('board');
window.__seen = [];
const note = () => window.__seen.push([board.getAttribute('data-version') || '', document.body.innerText, Date.now()]);
new MutationObserver(note).observe(board, {childList: true, subtree: true, characterData: true, attributes: true});
note();
"""
"""Run in a page through WebDriver (the page's own policy of no inline script is untouched): after
every change of the board, `window.__seen` gets [the edition's version, the text a person reads,
the wall-clock time in ms]."""


def find() -> tuple[str, str]:
    """(chromium, chromedriver) paths.

    :raises RuntimeError: saying what to install.
    """
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not browser or not driver:
        raise RuntimeError(INSTALL)
    return browser, driver


@contextmanager
def chromium(width: int = 1920, height: int = 1080, *, performance_log: bool = False) -> Iterator[Any]:
    """A headless Chromium; `performance_log` keeps the DevTools network events (every
    server-sent message a tab receives) for `get_log("performance")`.

    :raises RuntimeError: when Chromium, its driver or Selenium is missing, saying what to
        install.
    """
    browser, driver = find()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        raise RuntimeError(f"Selenium is missing ({e}): pip install '.[dev]'") from None
    with tempfile.TemporaryDirectory(prefix="upref-chromium-") as profile:
        opts = webdriver.ChromeOptions()
        opts.binary_location = browser
        for flag in (
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={width},{height}",
        ):
            opts.add_argument(flag)
        if performance_log:
            opts.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        d = webdriver.Chrome(service=Service(driver), options=opts)
        try:
            yield d
        finally:
            d.quit()
