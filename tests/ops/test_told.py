"""When something breaks, someone is told: a request or a task that raises is one mail to
ADMINS with its count (however many times it happened in the burst) and one event to the
error tracker, scrubbed of private links, passwords and addresses; the logs say each
request and task in one line, JSON when asked; and the organisers' page of background
work lists a failed render with its reason and runs it again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sentry_sdk
from django.core import mail
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import path, reverse
from django_tasks_db.models import DBTaskResult
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from config import urls as site_urls
from ops.alerts import ThrottledAdminEmailHandler
from ops.tracking import scrubbed, start_tracking
from printing import documents
from tests.factories import OrganiserFactory
from tests.queue import DATABASE_TASKS, run_queue
from tests.tournaments.conftest import make_tournament
from tournaments.services import rounds

ROOT = Path(__file__).resolve().parents[2]
ADMINS = [("Operator", "operator@example.se")]
QUICK = {"GATHER_SECONDS": 0.3, "WINDOW_SECONDS": 0.6}
# Three renders fail one after the other in the worker: on a loaded machine they may be
# more than QUICK's 0.3 s apart, and the third would be a mail of its own.
RENDERS = {"GATHER_SECONDS": 3, "WINDOW_SECONDS": 6}


class Broken(Exception):
    pass


def broken_view(request: object, key: str) -> HttpResponse:
    raise Broken("the scoring table fell over")


urlpatterns = [path("p/<str:key>/broken/", broken_view), *site_urls.urlpatterns]
handler500 = site_urls.handler500


@pytest.fixture(autouse=True)
def _quiet_timers() -> Iterator[None]:
    ThrottledAdminEmailHandler.forget()
    yield
    ThrottledAdminEmailHandler.forget()


def wait_for_mail(count: int, seconds: float = 5) -> None:
    deadline = time.monotonic() + seconds
    while len(mail.outbox) < count and time.monotonic() < deadline:
        time.sleep(0.05)


@pytest.mark.django_db
@override_settings(ADMINS=ADMINS, ALERTS=QUICK, ROOT_URLCONF=__name__, DEBUG=False)
def test_a_burst_of_one_error_in_requests_is_one_mail_with_its_count() -> None:
    client = Client(raise_request_exception=False)
    for _ in range(5):
        assert client.get("/p/abc123/broken/").status_code == 500
    wait_for_mail(1)
    time.sleep(0.2)  # nothing more comes of the same burst
    assert len(mail.outbox) == 1
    letter = mail.outbox[0]
    assert letter.to == ["operator@example.se"]
    assert "(×5)" in letter.subject
    assert "This error happened 5 times since" in letter.body
    assert "Broken" in letter.body
    # The burst goes on: its repeats are one more mail after the window, with their count.
    for _ in range(2):
        client.get("/p/abc123/broken/")
    wait_for_mail(2)
    assert len(mail.outbox) == 2
    assert "(×2)" in mail.outbox[1].subject


@pytest.mark.django_db
@override_settings(ADMINS=[], ALERTS=QUICK, ROOT_URLCONF=__name__, DEBUG=False)
def test_without_admins_no_mail_is_written() -> None:
    Client(raise_request_exception=False).get("/p/abc123/broken/")
    time.sleep(0.5)
    assert mail.outbox == []


@pytest.mark.django_db
@override_settings(ADMINS=ADMINS, ALERTS=RENDERS, TASKS=DATABASE_TASKS)
def test_a_task_that_raises_three_times_is_one_mail_with_its_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament = make_tournament(4, accounts=False)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    monkeypatch.setattr(documents, "render_pdf", failing_render)
    reader = Client()
    for number in ("pairings_pdf", "standings_pdf", "crosstable_pdf"):
        args = [tournament.slug, 1] if number == "pairings_pdf" else [tournament.slug]
        reader.get(reverse(f"tournaments:{number}", args=args))
    assert run_queue() == 3
    wait_for_mail(1, seconds=15)
    time.sleep(0.2)
    assert len(mail.outbox) == 1
    assert "(×3)" in mail.outbox[0].subject
    assert "Rendering tournaments.pairings" in mail.outbox[0].subject
    assert "WeasyPrint ran out of memory" in mail.outbox[0].body


def failing_render(*args: Any, **kwargs: Any) -> bytes:
    raise Broken("WeasyPrint ran out of memory")


class CapturedEvents(Transport):
    events: list[dict[str, Any]] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        for item in envelope.items:
            if item.type == "event" and item.payload.json is not None:
                self.events.append(item.payload.json)


@pytest.fixture
def tracker() -> Iterator[list[dict[str, Any]]]:
    CapturedEvents.events = []
    start_tracking(
        "https://public@sentry.example.se/1",
        environment="tests",
        release="",
        transport=CapturedEvents,
    )
    yield CapturedEvents.events
    sentry_sdk.get_client().close()
    sentry_sdk.init()  # no DSN: off again


def test_the_tracker_never_sees_a_private_link_a_password_or_an_address() -> None:
    event = {
        "request": {
            "url": "https://club.example.se/p/Xk3v9QmZ2pLr7a/",
            "data": {"password": "crib-demo-121", "username": "anna"},
            "headers": {"Cookie": "sessionid=abc", "Authorization": "Basic x"},
        },
        "message": "Mail to anna.berg@example.se failed",
        "breadcrumbs": {
            "values": [
                {"message": "GET /accounts/invitation/12/c4f-9a2b/ 200"},
                {"message": "GET /accounts/password/reset/MTI/c4f-9a2b/ 302"},
            ]
        },
        "extra": {"private_key": "Xk3v9QmZ2pLr7a", "SECRET_KEY": "s"},
    }
    clean = json.dumps(scrubbed(event), ensure_ascii=False)
    for secret in ("Xk3v9QmZ2pLr7a", "crib-demo-121", "anna.berg@example.se", "c4f-9a2b"):
        assert secret not in clean
    assert "sessionid" not in clean
    assert "/p/…" in clean
    assert "anna" in clean  # a username is not a secret


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__, DEBUG=False)
def test_a_request_that_raises_is_one_event_without_its_private_key(
    tracker: list[dict[str, Any]],
) -> None:
    Client(raise_request_exception=False).get("/p/Xk3v9QmZ2pLr7a/broken/?email=a@b.se")
    sentry_sdk.flush()
    errors = [event for event in tracker if event.get("exception")]
    assert len(errors) == 1
    text = json.dumps(errors[0])
    assert "Broken" in text
    assert "Xk3v9QmZ2pLr7a" not in text
    assert "a@b.se" not in text


def test_logs_in_json_are_one_object_a_line(tmp_path: Path) -> None:
    script = """
import logging, django
django.setup()
from types import SimpleNamespace
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import resolve
from ops.logs import RequestLogMiddleware, task_finished
request = RequestFactory().get("/p/Xk3v9QmZ2pLr7a/")
request.resolver_match = resolve("/p/Xk3v9QmZ2pLr7a/")
RequestLogMiddleware(lambda r: HttpResponse(status=200))(request)
import datetime
now = datetime.datetime.now(datetime.timezone.utc)
task_finished(None, task_result=SimpleNamespace(
    id="7c9e", status="SUCCESSFUL", started_at=now - datetime.timedelta(seconds=1),
    finished_at=now, task=SimpleNamespace(module_path="printing.tasks.render_pdf"),
    kwargs={"key": "pdf:secret-key", "builder": "standings",
            "arguments": {"tournament_id": 4, "host": "club.example.se"}, "language": "sv"}))
"""
    env = {**os.environ, "LOG_FORMAT": "json", "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    by_logger = {line["logger"]: line for line in lines}
    request = by_logger["club.requests"]
    assert request["status"] == 200
    assert request["path"] == "/p/…/"
    assert request["duration_ms"] >= 0
    task = by_logger["club.tasks"]
    assert task["task_id"] == "7c9e"
    assert task["outcome"] == "SUCCESSFUL"
    assert 900 <= task["duration_ms"] <= 1100
    assert task["subject"] == {"builder": "standings", "tournament_id": 4, "language": "sv"}
    assert "secret-key" not in done.stderr
    assert "Xk3v9QmZ2pLr7a" not in done.stderr


def test_logs_in_text_are_sentences(tmp_path: Path) -> None:
    script = (
        "import logging, django; django.setup(); "
        "logging.getLogger('club.requests').info('GET / 200 1.0 ms')"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    env.pop("LOG_FORMAT", None)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert "INFO club.requests: GET / 200 1.0 ms" in done.stderr


@pytest.mark.django_db
@override_settings(TASKS=DATABASE_TASKS)
def test_the_organisers_see_a_failed_render_and_running_it_again_succeeds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament = make_tournament(4, accounts=False)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    pdf = reverse("tournaments:pairings_pdf", args=[tournament.slug, 1])
    reader = Client()
    reader.get(pdf)
    original = documents.render_pdf
    monkeypatch.setattr(documents, "render_pdf", failing_render)
    run_queue()
    organiser = Client()
    organiser.force_login(OrganiserFactory.create())
    organiser.cookies["django_language"] = "en"
    desk = organiser.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert "1 task failed in the last day" in desk
    page = organiser.get(reverse("background")).content.decode()
    assert "Rendering a PDF" in page
    assert "An error in the site; whoever runs the server has the details. (Broken)" in page
    [failed] = Client().get(reverse("health")).json()["worker"]["failed_last_day"]
    assert failed["task"] == "printing.tasks.render_pdf"
    assert failed["reason"] == "error"

    monkeypatch.setattr(documents, "render_pdf", original)
    failed_render = DBTaskResult.objects.get(status="FAILED")
    action = reverse("background_run_again", args=[failed_render.pk])
    assert f'action="{action}"' in page
    answer = organiser.post(action, follow=True)
    assert "The task is queued again" in answer.content.decode()
    assert run_queue() == 1
    page = organiser.get(reverse("background")).content.decode()
    assert "Run again: done" in page
    assert reader.get(pdf)["Content-Type"] == "application/pdf"
    again = organiser.post(action, follow=True).content.decode()
    assert "That task has been run again already." in again


@pytest.mark.django_db
def test_players_cannot_see_or_run_the_background_work() -> None:
    page = Client().get(reverse("background"))
    assert page.status_code in (302, 403)


@pytest.mark.django_db
@override_settings(TASKS=DATABASE_TASKS)
def test_a_task_that_raises_is_one_event_without_what_it_carried(
    tracker: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from club import mail as club_mail
    from club.mail import letter, letter_queue

    class Refused:
        def send(self) -> None:
            raise Broken("the mail server answered nonsense")

    monkeypatch.setattr(club_mail, "_message", lambda letter: Refused())
    link = "https://club.example.se/accounts/invitation/7/c4f-9a2b/"
    letter_queue(letter(subject="Welcome", body=f"Open {link}", to=["anna.berg@example.se"]))
    assert run_queue() == 1
    sentry_sdk.flush()
    errors = [event for event in tracker if event.get("exception")]
    assert len(errors) == 1  # logged by the task runner and the worker: one error, one event
    text = json.dumps(errors[0], ensure_ascii=False)
    assert "the mail server answered nonsense" in text
    assert "anna.berg@example.se" not in text
    assert "c4f-9a2b" not in text
