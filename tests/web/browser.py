"""Headless Chromium (the distribution's package) driven by Selenium with the distribution's
chromedriver, for the page's tests."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

INSTALL = (
    "the browser tests need Chromium and its driver from the distribution: "
    "`apt-get install chromium chromium-driver` (as root; .ci/run does it)"
)


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
def chromium(
    width: int = 1920, height: int = 1080, *, performance_log: bool = False
) -> Iterator[webdriver.Chrome]:
    """A headless Chromium; `performance_log` keeps the DevTools network events (every
    server-sent message a tab receives) for `get_log("performance")`."""
    browser, driver = find()
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
