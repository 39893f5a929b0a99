"""Fixtures shared by the whole suite, and the rule that CI never silently skips.

Under ``CI=true`` a test that would be skipped because PostgreSQL, Redis or Chromium
is missing fails instead, so a broken CI machine cannot pass by skipping.

The suite runs in parallel (``make test``: pytest-xdist, each worker its own test
database); what is costly to build is built once per worker and copied into each test
that asks for it (``demo``), and Hypothesis' budget comes from a profile
(tests/profiles.py). docs/benchmarks.md, "Fast feedback", has the timings.
"""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests import profiles
from tests.console import CONSOLE, watch

if TYPE_CHECKING:
    from django.test import Client
    from playwright.sync_api import Browser
    from pytest_django.live_server_helper import LiveServer

    from tests.snapshots import Rows

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() == "true"
# The tests of the Django-free packages: the engine and the rules of a competition.
ENGINE_TESTS = (Path(__file__).parent / "scoring", Path(__file__).parent / "competition")

profiles.register()


@pytest.fixture(autouse=True, scope="session")
def _announcements_delivered() -> Iterator[None]:
    """What a service announces is delivered when its transaction ends (tests/commits.py)."""
    from tests.commits import delivered_at_the_end_of_services

    with delivered_at_the_end_of_services():
        yield


# What a test must ask for to reach the database: pytest-django refuses it otherwise
# (the ``django_db`` mark and ``db``, ``transactional_db``, ``live_server``'s tests... all
# come to ``_django_db_helper``; a session fixture that unblocks it, to ``django_db_setup``).
DATABASE_FIXTURES = {"_django_db_helper", "django_db_setup"}


def uses_no_database(item: pytest.Item) -> bool:
    if item.get_closest_marker("django_db") is not None:
        return False
    return not DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ()))


def pytest_itemcollected(item: pytest.Item) -> None:
    """The tests of the Django-free packages (tests/scoring and tests/competition, no
    database) carry the ``engine`` mark.

    CI runs them on the PostgreSQL pass and deselects them on the SQLite one
    (``-m "not engine"``): they would only repeat themselves there. So too for every
    test that cannot reach the database (mark ``no_db``: no ``django_db`` mark and no
    database fixture, which pytest-django would refuse it).
    """
    if any(folder in Path(item.path).parents for folder in ENGINE_TESTS):
        item.add_marker(pytest.mark.engine)
    if uses_no_database(item):
        item.add_marker(pytest.mark.no_db)


# The longest tests first, so that no worker of a parallel run is left with one of
# them at the end while the others wait (after pytest-randomly's shuffle, if any).
LONGEST_FIRST = ("slow", "browser")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        marks = [mark for mark in LONGEST_FIRST if item.get_closest_marker(mark) is not None]
        return LONGEST_FIRST.index(marks[0]) if marks else len(LONGEST_FIRST)

    items.sort(key=rank)


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
def redis_url() -> str:
    """The address of a Redis server for tests of several servers sharing one cache.

    ``REDIS_URL`` (``.ci/run`` starts one beside PostgreSQL); without it, or if it does
    not answer, the test is skipped (fails under CI). Such a test keeps its keys under a
    prefix of its own and deletes them, never the whole database: parallel runs share it.
    """
    url = os.environ.get("REDIS_URL", "").strip()
    if not url:
        skip_or_fail("this test needs Redis (set REDIS_URL=redis://127.0.0.1:6379/0)")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        skip_or_fail(f"Redis does not answer at {url}: {error}")
    return url


class RedisServer:
    """A Redis server of one test's own, on a free loopback port, that it may stop and
    start again (on the same port, empty: it keeps nothing on disk)."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.folder = folder
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port)]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.1) as server:
                    server.sendall(b"PING\r\n")
                    if server.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A Redis server started for this test alone (tests marked ``redis``); stopped after.

    Without ``redis-server`` the test is skipped (fails under CI, which installs it)."""
    if shutil.which("redis-server") is None:
        skip_or_fail("this test needs redis-server (apt-get install redis-server)")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


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
        watch(browser)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _quiet_console(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that drives the browser fails on any error its console showed
    (tests/console.py)."""
    if "browser" not in request.fixturenames:
        yield
        return
    CONSOLE.begin()
    yield
    errors = CONSOLE.end()
    assert not errors, "the browser's console showed errors:\n" + "\n".join(errors)


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
    """Each test starts with no cached PDFs, no rate-limit counts and no cached content types.

    A test that restores a backup gives the content types new ids, which its rollback
    takes back; the process' cache of them would keep the new ones for the next test
    (whichever it is in a parallel run).
    """
    from django.contrib.contenttypes.models import ContentType
    from django.core.cache import cache

    cache.clear()
    ContentType.objects.clear_cache()


@pytest.fixture
def english(client: Client) -> Iterator[None]:
    """Messages in English, for tests that quote them: services and pages alike."""
    from django.utils import translation

    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture(scope="session")
def demo_snapshot(django_db_setup: None, django_db_blocker: Any) -> Rows[str]:
    """``seed_demo`` run once per worker; its rows, and what it printed.

    Seeding takes tens of seconds (it plays championships); inserting the rows it
    made takes a fraction of one (tests/snapshots.py).
    """

    from tests.snapshots import snapshot

    def seed() -> str:
        from django.core.management import call_command

        output = io.StringIO()
        call_command("seed_demo", stdout=output)
        return output.getvalue()

    with django_db_blocker.unblock():
        return snapshot(seed)


@pytest.fixture
def demo(db: None, demo_snapshot: Rows[str]) -> str:
    """The database as ``manage.py seed_demo`` leaves it; gives what the command printed."""
    from tests.snapshots import restore

    return restore(demo_snapshot)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of the PDF documents rendered, in order (by the worker, or at once under
    the tests' ImmediateBackend)."""
    from printing import documents

    rendered: list[str] = []
    real = documents.render_pdf

    def counting(document: documents.Document, **kwargs: Any) -> bytes:
        rendered.append(document.kind)
        return real(document, **kwargs)

    monkeypatch.setattr(documents, "render_pdf", counting)
    return rendered
