"""A render task builds only a document that an app registered (that printing imports no
app is one of pyproject.toml's import contracts)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.conf import settings
from pytest_django import Settings

from printing import builders, state, tasks
from tests.queue import DATABASE_TASKS, run_queue


def test_the_apps_register_their_documents() -> None:
    for name in (
        "tournaments.pairings",
        "tournaments.scoresheets",
        "tournaments.standings",
        "tournaments.crosstable",
        "tournaments.playoff",
        "tournaments.slips",
        "ratings.rating_list",
    ):
        assert callable(builders.builder(name))


def test_a_name_nobody_registered_builds_nothing() -> None:
    with pytest.raises(LookupError, match="os.system"):
        builders.builder("os.system")


def test_a_name_is_registered_for_one_builder_only() -> None:
    with pytest.raises(ValueError, match="tournaments.pairings"):
        builders.register({"tournaments.pairings": "tournaments.printing.builders.slips"})
    builders.register({"tournaments.pairings": "tournaments.printing.builders.pairings"})


def test_starting_a_process_loads_no_documents_code() -> None:
    """The apps register their builders by name: the first render imports them."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import django, sys; django.setup(); "
         "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pypdf', 'pydyf', 'PIL') "
         "or m.startswith(('tournaments.printing.', 'ratings.printing', 'printing.'))))"],
        cwd=settings.BASE_DIR, capture_output=True, text=True, check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"},
    ).stdout  # fmt: skip
    assert loaded.strip() == "['printing.apps', 'printing.builders']"


@pytest.mark.django_db
def test_a_render_of_an_unregistered_name_fails_and_says_so(settings: Settings) -> None:
    """A task row names its builder: a dotted path to any function builds nothing."""
    settings.TASKS = DATABASE_TASKS
    tasks.render_pdf.enqueue(
        key="pdf:test:unknown",
        builder="django.core.management.call_command",
        arguments={"command_name": "flush"},
        language="sv",
    )
    run_queue()
    assert state.rendered("pdf:test:unknown") is None
    assert state.is_failed("pdf:test:unknown")
