"""A headless Chromium driven by Selenium for the replay page tests.

Locally the browser tests skip when Chromium, its driver or Selenium is
missing; on CI (``CI=true``) they fail instead, so a missing browser can never
pass silently. Debian packages: ``chromium`` and ``chromium-driver``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest


def _unavailable(why: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"browser tests cannot run on CI: {why}", pytrace=False)
    pytest.skip(why)


def _binary(*names: str) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A headless Chromium session (one for all the browser tests)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _unavailable("selenium is not installed (pip install selenium)")
    chromium = _binary("chromium", "chromium-browser", "google-chrome")
    driver_path = _binary("chromedriver")
    if chromium is None or driver_path is None:
        _unavailable(
            "chromium and chromedriver are needed (apt-get install chromium chromium-driver)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})  # script errors
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    """The shared browser in a wide window (as every test leaves it)."""
    browser.set_window_size(1400, 1000)
    yield browser


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """The shared browser in a phone-sized window (390 by 844 pixels), put back
    to the wide window afterwards."""
    browser.set_window_size(390, 844)
    try:
        yield browser
    finally:
        browser.set_window_size(1400, 1000)
