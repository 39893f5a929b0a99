"""Announcements after commit (``ops.outbox``): a call is made once the change that asked
for it is saved, in a transaction of its own; never for a change rolled back; and what a
process did not make (killed after its commit, a call that failed) the worker makes at its
next sweep."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import reverse

from ops import outbox
from ops.models import Announcement
from ops.worker import SupervisedWorker
from ratings.models import ListRating, PendingRerate
from tests.factories import OrganiserFactory
from tests.tournaments.conftest import make_tournament
from tournaments.models import Match
from tournaments.services import results, rounds

pytestmark = [pytest.mark.django_db(transaction=True)]

calls: list[dict[str, Any]] = []
failing = {"on": False}


def remember(**payload: Any) -> None:
    """A call made after commit: what it was given, and whether it ran inside another
    transaction than delivery's own."""
    if failing["on"]:
        raise RuntimeError("the receiver fell over")
    calls.append({**payload, "blocks": len(connection.atomic_blocks)})


topic = outbox.Topic("tests.ops.test_outbox.topic")


def heard(sender: object, signal: object, **payload: Any) -> None:
    calls.append({"topic": payload})


def a_worker_runs() -> None:
    """``manage.py db_worker --batch``: it sweeps as it starts."""
    SupervisedWorker(
        queue_names=["*"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="outbox-test",
        excluded_queue_names=[],
    ).run()


@pytest.fixture(autouse=True)
def _clean() -> Any:
    calls.clear()
    failing["on"] = False
    topic.connect(heard, dispatch_uid="test-outbox")
    yield
    topic.disconnect(dispatch_uid="test-outbox")


def test_a_call_is_made_once_the_change_commits_in_a_transaction_of_its_own() -> None:
    with transaction.atomic():
        outbox.after_commit(remember, round=7)
        assert calls == []  # not inside the teller's transaction
        assert Announcement.objects.count() == 1
    assert calls == [{"round": 7, "blocks": 1}]  # delivery's own transaction, nothing else
    assert not Announcement.objects.exists()


def test_a_change_rolled_back_announces_nothing() -> None:
    def change_that_fails() -> None:
        with transaction.atomic():
            outbox.after_commit(remember, round=7)
            topic.announce(match=3)
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        change_that_fails()
    assert calls == []
    assert not Announcement.objects.exists()
    assert outbox.deliver() == 0


def test_a_topic_reaches_its_receivers_with_the_payload_after_commit() -> None:
    with transaction.atomic():
        topic.announce(match=3, month="2026-11-01")
        assert calls == []
    assert calls == [{"topic": {"match": 3, "month": "2026-11-01"}}]


def test_a_failed_call_is_noted_does_not_hold_the_others_and_is_made_at_the_next_sweep(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failing["on"] = True
    with caplog.at_level(logging.ERROR, logger="ops.outbox"), transaction.atomic():
        outbox.after_commit(remember, round=1)
        topic.announce(match=2)
    assert calls == [{"topic": {"match": 2}}]  # the second was made all the same
    owed = Announcement.objects.get()
    assert (owed.tries, owed.error) == (1, "RuntimeError: the receiver fell over")
    assert "will be made again" in caplog.text
    assert outbox.failing() == 1
    failing["on"] = False
    a_worker_runs()
    assert calls[-1] == {"round": 1, "blocks": 1}
    assert not Announcement.objects.exists()
    assert outbox.failing() == 0


def test_what_a_killed_process_owed_is_made_by_the_worker_sweep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Killed between its commit and its delivery: the row is there, no one delivers."""
    monkeypatch.setattr(transaction, "on_commit", lambda *args, **kwargs: None)
    with transaction.atomic():
        outbox.after_commit(remember, round=5)
    assert calls == []
    monkeypatch.undo()
    a_worker_runs()
    assert calls == [{"round": 5, "blocks": 1}]


def test_a_call_to_a_name_that_is_gone_is_noted_not_lost() -> None:
    Announcement.objects.create(call="tests.ops.test_outbox.nothing_here", payload={})
    assert outbox.deliver() == 0
    assert Announcement.objects.get().tries == 1
    assert outbox.failing() == 1


def test_a_confirmed_result_reaches_the_rating_list_after_its_commit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The report's transaction holds the result and the call owed, nothing of the list;
    the list's note of it is written once the result is saved."""
    from ratings.ports import ClubRatingList

    seen: list[tuple[str, int]] = []
    told = ClubRatingList.results_changed

    def results_changed(self: ClubRatingList, *, round: int | None) -> None:  # noqa: A002
        match = Match.objects.get(pk=match_pk)
        seen.append((match.status, len(connection.atomic_blocks)))
        told(self, round=round)

    monkeypatch.setattr(ClubRatingList, "results_changed", results_changed)
    organiser = OrganiserFactory.create(username="organiser")
    tournament = make_tournament(4)
    round_ = rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    match = round_.matches.filter(is_bye=False).first()
    assert match is not None
    match_pk = match.pk
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 100)] * 2)
    assert seen == [(Match.Status.FINAL, 1)]
    assert not PendingRerate.objects.exists()  # rated at once by the tests' task backend
    assert ListRating.objects.count() == 2
    assert not Announcement.objects.exists()


@override_settings(TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}})
def test_health_says_when_an_announcement_keeps_failing() -> None:
    answer = Client().get(reverse("health")).json()["announcements"]
    assert (answer["ok"], answer["owed"], answer["failing"]) == (True, 0, 0)
    Announcement.objects.create(call="tests.ops.test_outbox.nothing_here", payload={})
    outbox.deliver()
    answer = Client().get(reverse("health"))
    assert answer.status_code == 503
    assert answer.json()["announcements"]["failing"] == 1
