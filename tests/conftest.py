"""Fixtures shared by the whole suite, and the rule that CI never silently skips.

Under ``CI=true`` a test that would be skipped because PostgreSQL or Chromium
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
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests import profiles

if TYPE_CHECKING:
    from django.test import Client
    from playwright.sync_api import Browser
    from pytest_django.live_server_helper import LiveServer

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
IN_CI = os.environ.get("CI", "").lower() == "true"
SCORING_TESTS = Path(__file__).parent / "scoring"

profiles.register()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The engine's tests (tests/scoring, no database) carry the ``engine`` mark.

    CI runs them on the PostgreSQL pass and deselects them on the SQLite one
    (``-m "not engine"``): they would only repeat themselves there.
    """
    engine = pytest.mark.engine
    for item in items:
        if SCORING_TESTS in Path(item.path).parents:
            item.add_marker(engine)


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


@dataclass(frozen=True)
class DemoSnapshot:
    """The rows ``seed_demo`` adds, ready to insert again, and what the command printed."""

    tables: list[tuple[str, list[str], list[list[Any]]]]  # table, its columns, its rows
    models: list[Any]  # the models whose tables have rows, for their sequences
    output: str


def _rows_of(model: Any) -> dict[Any, list[Any]]:
    """Each row of ``model``'s table by primary key, as the database takes its values."""
    from django.db import connection

    fields = model._meta.concrete_fields
    pk = model._meta.pk.attname
    rows = model._base_manager.values(*[field.attname for field in fields])
    return {
        row[pk]: [field.get_db_prep_save(row[field.attname], connection) for field in fields]
        for row in rows
    }


@pytest.fixture(scope="session")
def demo_snapshot(django_db_setup: None, django_db_blocker: Any) -> DemoSnapshot:
    """``seed_demo`` run once per worker, in a transaction rolled back after its rows are read.

    Seeding takes tens of seconds (it plays championships); inserting the rows it
    made takes a fraction of one. Like a test, the seeding runs inside a transaction
    that is never committed, so ``on_commit`` work does not run, as in a test.
    """
    from django.apps import apps
    from django.core.management import call_command
    from django.db import transaction

    class RolledBack(Exception):
        pass

    models = [model for model in apps.get_models(include_auto_created=True) if model._meta.managed]
    tables: list[tuple[str, list[str], list[list[Any]]]] = []
    seeded: list[Any] = []
    output = io.StringIO()
    with django_db_blocker.unblock():
        try:
            with transaction.atomic():
                before = {model: set(_rows_of(model)) for model in models}
                call_command("seed_demo", stdout=output)
                for model in models:
                    new = [row for pk, row in _rows_of(model).items() if pk not in before[model]]
                    if new:
                        columns = [field.column for field in model._meta.concrete_fields]
                        tables.append((model._meta.db_table, columns, new))
                        seeded.append(model)
                raise RolledBack
        except RolledBack:
            pass
    return DemoSnapshot(tables, seeded, output.getvalue())


@pytest.fixture
def demo(db: None, demo_snapshot: DemoSnapshot) -> str:
    """The database as ``manage.py seed_demo`` leaves it; gives what the command printed.

    The rows are inserted as they were read, in one transaction (the foreign keys are
    checked at its end), and the sequences of ids go on after them.
    """
    from django.core.management.color import no_style
    from django.db import connection, transaction

    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        for table, columns, rows in demo_snapshot.tables:
            names = ", ".join(quote(column) for column in columns)
            marks = ", ".join(["%s"] * len(columns))
            cursor.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", rows)
        for statement in connection.ops.sequence_reset_sql(no_style(), demo_snapshot.models):
            cursor.execute(statement)
    return demo_snapshot.output
