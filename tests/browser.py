"""Headless Chromium for the HTML pages' tests: Debian's ``chromium`` driven by Selenium
through Debian's ``chromedriver`` (``.ci/run`` installs both); a test that needs it skips,
saying why, where either is missing. One browser per test module (``conftest.browser``).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--window-size=1280,1400")


def headless_chromium() -> Iterator[Any]:
    """One headless Chromium, with its console log readable (the ``browser`` fixture of
    ``conftest.py``); skipped, saying why, where Chromium or its driver is missing."""
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.skip("no Chromium here: install Debian's chromium and chromium-driver "
                    "(apt-get install -y chromium chromium-driver; .ci/run does)")
    selenium = pytest.importorskip("selenium", reason="selenium is in the test extra: "
                                   "pip install -e '.[test]'")
    del selenium
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="rules-oracle-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # A driver path given: Selenium Manager, which would download one, is never asked.
    chrome = webdriver.Chrome(service=Service(driver), options=options)
    yield chrome
    chrome.quit()
    shutil.rmtree(profile, ignore_errors=True)


def load(browser, path: Path, fragment: str = "") -> list[str]:
    """Open a page; the console's errors while it loaded."""
    browser.get(path.as_uri() + fragment)
    return console_errors(browser)


def console_errors(browser) -> list[str]:
    return [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def visible_rows(browser) -> list[str]:
    """The ids of the filterable rows the browser actually lays out."""
    return browser.execute_script(
        "return Array.from(document.querySelectorAll('[data-row]'))"
        ".filter(e => e.getClientRects().length > 0).map(e => e.id);")


def screenshot(browser, path: Path) -> None:
    browser.save_screenshot(str(path))
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
