"""A task left RUNNING by a lost worker, or failed by the database, runs again: once, as a
new row of the queue, the first marked failed with the reason; at most three runs in all."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import OperationalError
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from ops.models import TaskRerun, WorkerBeat
from ops.reruns import MAX_RUNS, WORKER_LOST, failed_for_the_database, run_again, sweep
from ratings.tasks import rerate
from tests.queue import DATABASE_TASKS, run_queue

pytestmark = pytest.mark.django_db

LEASE = 30


@pytest.fixture(autouse=True)
def database_queue() -> Iterator[None]:
    with override_settings(TASKS=DATABASE_TASKS):
        yield


def beat(worker_id: str, *, seen_seconds_ago: float, stopped: bool = False) -> WorkerBeat:
    seen = timezone.now() - datetime.timedelta(seconds=seen_seconds_ago)
    return WorkerBeat.objects.create(
        worker_id=worker_id,
        host="club-1",
        pid=4242,
        started_at=seen - datetime.timedelta(minutes=5),
        seen_at=seen,
        stopped_at=seen if stopped else None,
    )


def running(worker_id: str, *, started_seconds_ago: float = 60) -> DBTaskResult[..., object]:
    """A re-rate a worker claimed and is (or was) running."""
    row = DBTaskResult.objects.get(pk=rerate.enqueue().id)
    row.claim(worker_id)
    started = timezone.now() - datetime.timedelta(seconds=started_seconds_ago)
    DBTaskResult.objects.filter(pk=row.pk).update(started_at=started)
    row.refresh_from_db()
    return row


def test_a_task_of_a_worker_unseen_for_the_lease_runs_again_and_says_why() -> None:
    beat("killed", seen_seconds_ago=LEASE + 1)
    row = running("killed")
    made = sweep()
    row.refresh_from_db()
    assert row.status == "FAILED"
    assert row.exception_class_path == WORKER_LOST
    assert "killed" in row.traceback
    assert "club-1, process 4242" in row.traceback
    [record] = made
    assert record.original_id == row.pk
    assert record.reason == TaskRerun.Reason.WORKER_LOST
    assert record.rerun_id is not None
    again = DBTaskResult.objects.get(pk=record.rerun_id)
    assert again.status == "READY"
    assert again.task_path == row.task_path
    assert again.args_kwargs == row.args_kwargs
    assert run_queue() == 1
    again.refresh_from_db()
    assert again.status == "SUCCESSFUL"


def test_a_task_of_a_worker_seen_within_the_lease_is_left_running() -> None:
    beat("busy", seen_seconds_ago=LEASE - 5)
    row = running("busy", started_seconds_ago=600)  # a long task, its worker alive
    assert sweep() == []
    row.refresh_from_db()
    assert row.status == "RUNNING"


def test_a_worker_that_stopped_when_asked_left_nothing_running_to_wait_for() -> None:
    beat("stopped", seen_seconds_ago=1, stopped=True)
    row = running("stopped")
    assert len(sweep()) == 1
    row.refresh_from_db()
    assert row.status == "FAILED"


def test_a_task_of_a_worker_that_never_beat_gets_the_lease_from_its_start() -> None:
    young = running("older-release", started_seconds_ago=LEASE - 10)
    old = running("older-release-2", started_seconds_ago=LEASE + 10)
    made = sweep()
    assert [record.original_id for record in made] == [old.pk]
    young.refresh_from_db()
    assert young.status == "RUNNING"


def test_a_task_that_kills_its_worker_every_time_ends_failed_after_three_runs() -> None:
    row = running("first")
    for attempt in range(1, MAX_RUNS + 1):
        record = run_again(row, reason=TaskRerun.Reason.WORKER_LOST, note="killed")
        assert record is not None
        assert record.attempt == attempt
        if record.rerun_id is None:
            break
        row = DBTaskResult.objects.get(pk=record.rerun_id)
        row.claim(f"worker-{attempt}")
    assert attempt == MAX_RUNS
    assert DBTaskResult.objects.filter(task_path=row.task_path).count() == MAX_RUNS
    assert not DBTaskResult.objects.filter(status__in=["READY", "RUNNING"]).exists()
    assert DBTaskResult.objects.filter(exception_class_path=WORKER_LOST).count() == MAX_RUNS


def test_a_task_is_run_again_once_however_often_it_is_swept() -> None:
    beat("killed", seen_seconds_ago=LEASE + 1)
    row = running("killed")
    assert len(sweep()) == 1
    assert run_again(row, reason=TaskRerun.Reason.WORKER_LOST) is None
    assert sweep() == []
    assert DBTaskResult.objects.count() == 2


def test_a_task_the_database_failed_is_run_again_a_moment_later() -> None:
    row = running("outage")
    row.set_failed(OperationalError("server closed the connection unexpectedly"))
    assert failed_for_the_database(row)
    record = run_again(row, reason=TaskRerun.Reason.DATABASE)
    assert record is not None
    assert record.rerun_id is not None
    again = DBTaskResult.objects.get(pk=record.rerun_id)
    assert again.run_after > timezone.now()  # not due at once: the database needs a moment


def test_a_task_that_failed_for_its_own_reasons_is_not_run_again() -> None:
    row = running("bug")
    row.set_failed(ValueError("a bug"))
    assert not failed_for_the_database(row)


def test_the_beats_of_workers_gone_for_a_day_are_deleted() -> None:
    beat("yesterday", seen_seconds_ago=2 * 86400)
    beat("today", seen_seconds_ago=3600)
    sweep()
    assert list(WorkerBeat.objects.values_list("worker_id", flat=True)) == ["today"]


@pytest.mark.django_db(transaction=True)  # its heart beats on a connection of its own
def test_the_worker_stops_after_max_tasks_and_in_batch_mode_when_the_queue_is_empty() -> None:
    from ops.worker import SupervisedWorker

    for _ in range(3):
        rerate.enqueue()
    options: dict[str, Any] = {
        "queue_names": ["*"],
        "interval": 0,
        "backend_name": "default",
        "startup_delay": False,
        "worker_id": "max-tasks",
        "excluded_queue_names": [],
    }
    SupervisedWorker(batch=False, max_tasks=2, **options).run()
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 2
    options["worker_id"] = "batch"
    SupervisedWorker(batch=True, max_tasks=None, **options).run()
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 3
    assert WorkerBeat.objects.get(pk="batch").stopped_at is not None
