"""What a monitor and an organiser learn of the background work: ``/health/`` answers 200
only while the database, the cache and the task worker all work, and the organiser's
desk warns when the worker has not been seen for a minute or a task waits two."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ops.models import WorkerBeat
from ratings.tasks import rerate
from tests.factories import OrganiserFactory
from tests.queue import DATABASE_TASKS
from tests.tournaments.conftest import make_tournament
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

WARNING_SV = "Säg till den som sköter webbplatsens server"
WARNING_EN = "Tell whoever runs the site's server"


@pytest.fixture
def database_queue() -> Iterator[None]:
    with override_settings(TASKS=DATABASE_TASKS):
        yield


def beat(seconds_ago: float) -> None:
    seen = timezone.now() - datetime.timedelta(seconds=seconds_ago)
    WorkerBeat.objects.create(
        worker_id="w1", host="club-1", pid=7, started_at=seen, seen_at=seen, task_id=None
    )


def waited(minutes: float) -> None:
    task = DBTaskResult.objects.get(pk=rerate.enqueue().id)
    since = timezone.now() - datetime.timedelta(minutes=minutes)
    DBTaskResult.objects.filter(pk=task.pk).update(enqueued_at=since)


def health() -> tuple[int, dict[str, Any]]:
    response = Client().get(reverse("health"))
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    return response.status_code, response.json()


def test_health_is_200_while_a_worker_beats_and_nothing_waits(database_queue: None) -> None:
    beat(3)
    status, answer = health()
    assert status == 200
    assert answer["ok"] is True
    assert answer["database"]["ok"]
    assert answer["cache"]["ok"]
    worker = answer["worker"]
    assert worker["live_workers"] == 1
    assert worker["seconds_unseen"] < 10
    assert worker["waiting_tasks"] == 0
    assert worker["oldest_wait_seconds"] is None


def test_health_is_503_when_no_worker_was_seen_for_a_minute(database_queue: None) -> None:
    beat(61)
    status, answer = health()
    assert status == 503
    assert answer["ok"] is False
    assert answer["worker"]["ok"] is False
    assert answer["worker"]["live_workers"] == 0
    assert answer["database"]["ok"] is True


def test_health_is_503_when_no_worker_ever_ran(database_queue: None) -> None:
    status, answer = health()
    assert status == 503
    assert answer["worker"]["last_seen"] is None


def test_health_is_503_when_a_task_waited_two_minutes(database_queue: None) -> None:
    beat(1)
    waited(2.5)
    status, answer = health()
    assert status == 503
    assert answer["worker"]["oldest_wait_seconds"] >= 150
    assert answer["worker"]["waiting_tasks"] == 1


def test_health_counts_the_failed_tasks_of_the_last_hour(database_queue: None) -> None:
    beat(1)
    task = DBTaskResult.objects.get(pk=rerate.enqueue().id)
    task.claim("w1")
    task.set_failed(ValueError("a bug"))
    status, answer = health()
    assert status == 200  # a failure is counted; it does not stop the work
    assert answer["worker"]["failed_tasks_last_hour"] == 1


def test_health_without_a_queue_needs_no_worker() -> None:
    status, answer = health()  # the test settings run tasks at once
    assert status == 200
    assert answer["worker"]["ok"] is True


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}})
def test_health_is_503_when_the_cache_keeps_nothing() -> None:
    status, answer = health()
    assert status == 503
    assert answer["cache"]["ok"] is False
    assert answer["database"]["ok"] is True


def test_health_is_503_when_the_database_cannot_be_reached(
    database_queue: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreachable(*args: object, **kwargs: object) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", unreachable)
    monkeypatch.setattr(connection, "close", lambda: None)
    status, answer = health()
    assert status == 503
    assert answer["database"]["ok"] is False
    assert answer["worker"]["ok"] is False


@pytest.fixture
def organiser_client() -> Client:
    client = Client()
    user: User = OrganiserFactory.create()
    client.force_login(user)
    return client


def desk_pages(client: Client, language: str) -> list[str]:
    tournament = make_tournament(4, accounts=False)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    client.cookies["django_language"] = language
    pages = [
        reverse("tournaments:detail", args=[tournament.slug]),
        reverse("tournaments:round", args=[tournament.slug, 1]),
    ]
    return [client.get(page).content.decode() for page in pages]


@pytest.mark.parametrize(("language", "words"), [("sv", WARNING_SV), ("en", WARNING_EN)])
def test_the_desk_warns_when_the_worker_was_not_seen_for_a_minute(
    database_queue: None, organiser_client: Client, language: str, words: str
) -> None:
    beat(125)
    for page in desk_pages(organiser_client, language):
        assert words in page
    minutes = "2 minuter sedan" if language == "sv" else "2 minutes ago"
    assert all(minutes in page for page in desk_pages(organiser_client, language))


def test_the_desk_warns_when_a_task_waited_two_minutes(
    database_queue: None, organiser_client: Client
) -> None:
    beat(1)
    waited(3)
    for page in desk_pages(organiser_client, "en"):
        assert "A task has waited 3 minutes for the worker" in page


def test_the_desk_is_quiet_while_the_worker_beats(
    database_queue: None, organiser_client: Client
) -> None:
    beat(5)
    for page in desk_pages(organiser_client, "en"):
        assert WARNING_EN not in page


def test_spectators_are_not_told_of_the_machinery(database_queue: None) -> None:
    beat(600)
    for page in desk_pages(Client(), "en"):
        assert WARNING_EN not in page
