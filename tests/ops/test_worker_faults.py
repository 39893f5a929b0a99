"""The task worker through faults: killed in the middle of a re-rate or a PDF, and cut off
from its database; nothing lost, nothing stuck, within the bound docs/operating.md gives.

Real ``manage.py db_worker`` processes over this test's database, with the worker's beat,
lease and sweep a hundred times quicker than a site's (``tests/ops/worker_settings.py``):
the bound is the lease and one sweep after a worker runs again, plus the task itself.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from config.environment import cache_at
from ops.models import TaskRerun
from ops.reruns import WORKER_LOST
from ratings.models import PendingRerate
from ratings.services import ratings_recompute
from tests.factories import OrganiserFactory
from tests.ops import worker_settings
from tests.processes import database_url, started, stop
from tests.queue import DATABASE_TASKS
from tests.ratings.conftest import stored
from tests.tournaments.conftest import make_tournament
from tournaments.models import Match, Round
from tournaments.services import results, rounds

pytestmark = [pytest.mark.django_db(transaction=True)]

LEASE = worker_settings.TASK_WORKER["LEASE_SECONDS"]
SWEEP = worker_settings.TASK_WORKER["SWEEP_SECONDS"]
# A worker's start (Django's set-up) and the task itself, on a busy machine.
SLACK = 20.0


class Workers:
    """Start task workers over this test's database; all stopped at the end."""

    def __init__(self, logs: Path, cache_url: str) -> None:
        self.logs = logs
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.ops.worker_settings",
            "DATABASE_URL": database_url(),
            "CACHE_URL": cache_url,
            "LOG_LEVEL": "INFO",
        }
        self.processes: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, *, slow: float = 0.0) -> subprocess.Popen[bytes]:
        options = ["--no-startup-delay", "--interval", "0.1", "--queue-name", "*"]
        argv = [sys.executable, "-m", "tests.ops.slow_worker", str(slow), *options]
        self.processes.append(started(argv, self.env, self.logs / f"{name}.log"))
        return self.processes[-1]

    def log(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text()[-3000:]}" for path in self.logs.glob("*.log")
        )


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Workers]:
    cache = tmp_path / "cache"
    running = Workers(tmp_path, f"filecache://{cache}")
    # The worker's cache and this test's: one folder, this database's part of it.
    caches = {"default": cache_at(f"filecache://{cache}", database=connection.settings_dict)}
    with override_settings(TASKS=DATABASE_TASKS, CACHES=caches):
        try:
            yield running
        finally:
            stop(running.processes)


def until(what: str, check: Callable[[], bool], seconds: float, workers: Workers) -> float:
    """Seconds until ``check()`` held; fails the test after ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if check():
            return time.monotonic() - start
        time.sleep(0.1)
    pytest.fail(f"not within {seconds:.0f} s: {what}\n{workers.log()}")


def running_task(task_path: str) -> Callable[[], bool]:
    def check() -> bool:
        return DBTaskResult.objects.filter(task_path=task_path, status="RUNNING").exists()

    return check


def settled_round(organiser: User) -> Round:
    """Round 1 of a rated tournament, every match settled (each queued a re-rate)."""
    tournament = make_tournament(4, accounts=False)
    round_ = rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    for match in round_.matches.filter(is_bye=False):
        settle(match, organiser)
    return round_


def settle(match: Match, organiser: User) -> None:
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 90)] * 2)


def list_is_rated() -> bool:
    """Nothing waits to be rated and no task waits or runs."""
    busy = DBTaskResult.objects.filter(status__in=["READY", "RUNNING"]).exists()
    return not busy and not PendingRerate.objects.exists()


def assert_list_equals_a_recomputation() -> None:
    rated = stored()
    assert rated[2], "the list holds the settled matches' players"
    ratings_recompute()
    assert stored() == rated


def test_a_worker_killed_in_the_middle_of_a_re_rate_leaves_nothing_unrated(
    workers: Workers,
) -> None:
    organiser = OrganiserFactory.create()
    settled_round(organiser)
    rerate = "ratings.tasks.rerate"
    doomed = workers.start("doomed", slow=60)
    until("the re-rate is running", running_task(rerate), 60, workers)
    doomed.send_signal(signal.SIGKILL)
    doomed.wait()
    killed = DBTaskResult.objects.get(status="RUNNING")
    assert PendingRerate.objects.exists()  # its transaction died with it

    workers.start("next")
    took = until("the list is rated again", list_is_rated, LEASE + SWEEP + SLACK, workers)
    assert took <= LEASE + SWEEP + SLACK
    killed.refresh_from_db()
    assert killed.status == "FAILED"
    assert killed.exception_class_path == WORKER_LOST
    rerun = TaskRerun.objects.get(original_id=killed.pk)
    assert rerun.rerun_id is not None
    assert DBTaskResult.objects.get(pk=rerun.rerun_id).status == "SUCCESSFUL"
    assert_list_equals_a_recomputation()


def test_a_worker_killed_in_the_middle_of_a_pdf_still_gets_the_reader_their_pdf(
    workers: Workers,
) -> None:
    tournament = make_tournament(6, accounts=False)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    path = reverse("tournaments:pairings_pdf", args=[tournament.slug, 1])
    reader = Client()
    first = reader.get(path)
    assert first.status_code == 200
    assert first["Content-Type"].startswith("text/html")  # "being prepared"
    doomed = workers.start("doomed", slow=60)
    until("the render is running", running_task("printing.tasks.render_pdf"), 60, workers)
    doomed.send_signal(signal.SIGKILL)
    doomed.wait()

    workers.start("next")

    def served() -> bool:
        return reader.get(path)["Content-Type"] == "application/pdf"

    until("the reader has the PDF", served, LEASE + SWEEP + SLACK, workers)
    assert reader.get(path).content.startswith(b"%PDF")
    assert TaskRerun.objects.filter(reason=TaskRerun.Reason.WORKER_LOST).count() == 1


class DatabaseCut:
    """This test's PostgreSQL database refuses every connection and drops the open ones,
    as a stopped server would, until ``restore``; the server itself (other tests'
    databases) goes on."""

    def __init__(self) -> None:
        db = connection.settings_dict
        self.name = db["NAME"]
        self.admin = psycopg.connect(
            dbname="postgres",
            user=db["USER"],
            password=db["PASSWORD"] or None,
            host=db["HOST"] or None,
            port=db["PORT"] or None,
            autocommit=True,
        )

    def cut(self) -> None:
        self.admin.execute(f'ALTER DATABASE "{self.name}" WITH ALLOW_CONNECTIONS false')
        self.admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [self.name],
        )

    def restore(self) -> None:
        self.admin.execute(f'ALTER DATABASE "{self.name}" WITH ALLOW_CONNECTIONS true')
        self.admin.close()


@pytest.mark.postgres
def test_a_worker_waits_out_ten_seconds_without_its_database_and_rates_what_came_meanwhile(
    workers: Workers,
) -> None:
    organiser = OrganiserFactory.create()
    tournament = make_tournament(8, accounts=False)
    round_ = rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    first, before, after = list(round_.matches.filter(is_bye=False))[:3]
    worker = workers.start("worker")
    settle(first, organiser)
    until("the worker rates a result", list_is_rated, 60, workers)
    settle(before, organiser)  # a re-rate queued as the database goes
    database = DatabaseCut()
    database.cut()
    try:
        reader = Client()
        answer = reader.get(reverse("ratings:list"))
        assert answer.status_code == 503  # the site's "try again in a minute"
        time.sleep(10)
        assert worker.poll() is None, f"the worker stopped:\n{workers.log()}"
    finally:
        database.restore()
        connection.close()
    settle(after, organiser)
    took = until("the list is rated", list_is_rated, SLACK + 10, workers)
    assert took < SLACK + 10
    assert worker.poll() is None
    # One line when it went, one when it came back: not one a try (it waits longer each time).
    log = workers.log()
    assert log.count("The database cannot be reached") == 1, log
    assert log.count("The database is back after") == 1, log
    back_after = float(log.split("The database is back after ")[1].split(" s")[0])
    assert back_after >= 10
    settled = [first.pk, before.pk, after.pk]
    assert Match.objects.filter(pk__in=settled, status=Match.Status.FINAL).count() == 3
    assert_list_equals_a_recomputation()
