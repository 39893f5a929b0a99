"""Fixtures shared by the whole suite, and the rule that CI never silently skips.

Under ``CI=true`` a test that would be skipped because PostgreSQL or Chromium
is missing fails instead, so a broken CI machine cannot pass by skipping.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from django.test import Client
    from playwright.sync_api import Browser
    from pytest_django.live_server_helper import LiveServer

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() == "true"


def skip_or_fail(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"CI must not skip: {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _needs_postgres(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("postgres") is None:
        return
    from django.db import connection

    if connection.vendor != "postgresql":
        skip_or_fail("this test needs PostgreSQL (set DATABASE_URL=postgres://...)")


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        skip_or_fail(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop on this thread; the test's own
    # database work (factories) is still ordinary synchronous code.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, live_server: LiveServer) -> Iterator[Any]:
    """A fresh browser tab with its own cookies; ``page.base`` is the live server's address.

    Typed ``Any``: a Playwright ``Page`` has no ``base`` of its own.
    """
    context = browser.new_context(locale="sv-SE")
    context.set_default_timeout(10_000)
    tab: Any = context.new_page()
    tab.base = live_server.url
    yield tab
    context.close()


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Each test starts with no cached PDFs and no rate-limit counts."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def english(client: Client) -> Iterator[None]:
    """Messages in English, for tests that quote them: services and pages alike."""
    from django.utils import translation

    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield
