"""Work that waited for the task worker when a backup was made is queued again by the
restore (ops/backup.py, ``settings.BACKUP_PENDING_WORK``; docs/operating.md "Backups").

The backup leaves the queue out; these tests run the database queue, as a site does,
and then the worker's work themselves (``tests.queue``). Each restore replaces the site
it was taken from, whose own queue still holds the tasks of before.
"""

from __future__ import annotations

import ast
import datetime
import io
import re
import smtplib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings

from club.models import InvitationMail, Player
from ratings.selectors import rating_list
from tests.factories import PlayerFactory
from tests.first_party import SITE
from tests.queue import DATABASE_TASKS, make_due, run_queue, waiting
from tests.ratings.conftest import stored
from tests.tournaments.conftest import make_tournament
from tournaments.services import results, rounds

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ROOT = Path(__file__).resolve().parents[2]
RERATE, SEND = "ratings.tasks.rerate", "club.mail.send_letter"
UPDATING = "Updating…"


@pytest.fixture(autouse=True)
def database_queue(settings: Settings) -> None:
    settings.TASKS = DATABASE_TASKS


def back_up_and_restore(tmp_path: Path, *, times: int = 1) -> str:
    """A backup of the site, restored in place of it ``times`` times; what the last
    restore said."""
    path = tmp_path / "site.backup.gz"
    call_command("backup", output=str(path), stdout=io.StringIO())
    said = io.StringIO()
    for _ in range(times):
        said = io.StringIO()
        call_command("restore", str(path), replace=True, stdout=said)
    return said.getvalue()


def ratings_page() -> str:
    client = Client()
    client.cookies["django_language"] = "en"
    return client.get(reverse("ratings:list")).content.decode()


def test_a_result_waiting_to_be_rated_is_rated_once_a_worker_runs_after_the_restore(
    organiser: User, tmp_path: Path
) -> None:
    round_ = rounds.round_publish(round=rounds.round_propose(tournament=make_tournament(8)))
    *first, last = round_.matches.filter(is_bye=False).order_by("table")
    for match in first:
        results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 100)] * 2)
    run_queue()
    rated_before = rating_list()
    results.match_settle(match=last, organiser=organiser, first_dealer=0, games=[(1, 100)] * 2)
    assert len(waiting(RERATE)) == 1
    assert UPDATING in ratings_page()  # the backup is made while the list waits

    said = back_up_and_restore(tmp_path)

    assert "Queued again for the task worker (manage.py db_worker): rating list re-rates 1." in said
    assert len(waiting(RERATE)) == 1
    assert UPDATING in ratings_page()
    assert run_queue() == 1
    page = ratings_page()
    assert UPDATING not in page
    listed, rows = rating_list(), stored()
    assert listed != rated_before  # the last result counts now
    recomputed = io.StringIO()
    call_command("recompute_ratings", stdout=recomputed)
    assert rating_list() == listed
    assert stored() == rows
    printed = [line.split("\t")[1] for line in recomputed.getvalue().splitlines()]
    assert printed == [line.player.name for line in listed]

    # Nothing waits now: a backup of this restores with nothing queued.
    assert "Queued again" not in back_up_and_restore(tmp_path)
    assert waiting() == []
    assert UPDATING not in ratings_page()


def invite_and_send(organiser_client: Client, player: Player) -> None:
    organiser_client.post(reverse("player_invite", args=[player.pk]))
    organiser_client.post(reverse("player_invitation_send", args=[player.pk]))


def player_page(organiser_client: Client, player: Player) -> str:
    return organiser_client.get(reverse("player_detail", args=[player.pk])).content.decode()


def log_in_again(organiser_client: Client) -> None:
    """A restore ends every session: the organiser logs in again."""
    organiser_client.force_login(User.objects.get(username="olle"))


def test_an_invitation_mail_waiting_when_the_backup_was_made_goes_out_once(
    organiser_client: Client, tmp_path: Path
) -> None:
    sven = PlayerFactory.create(name="Sven Svensson", email="sven@example.se")
    invite_and_send(organiser_client, sven)
    run_queue()
    assert [message.to for message in mail.outbox] == [["sven@example.se"]]
    greta = PlayerFactory.create(name="Greta Garbo", email="greta@example.se")
    invite_and_send(organiser_client, greta)
    assert len(waiting(SEND)) == 1
    mail.outbox.clear()

    # Restored twice (a first try stopped, say): still one mail queued.
    said = back_up_and_restore(tmp_path, times=2)
    log_in_again(organiser_client)

    assert "invitation mails 1." in said
    assert "is waiting to be sent" in player_page(organiser_client, greta)
    assert len(waiting(SEND)) == 1
    assert run_queue() == 1
    assert run_queue() == 0
    assert [message.to for message in mail.outbox] == [["greta@example.se"]]
    assert "Hello Greta Garbo" in mail.outbox[0].body
    shown = re.search(r'id="invitation-link">([^<]+)<', player_page(organiser_client, greta))
    assert shown is not None
    assert shown[1] in mail.outbox[0].body  # the link that works on the restored site
    assert "The invitation was sent to greta@example.se (" in player_page(organiser_client, greta)
    assert "The invitation was sent to sven@example.se (" in player_page(organiser_client, sven)
    # Sent: the letter, with the player's link in it, is no longer kept.
    assert not any(InvitationMail.objects.values_list("letter", flat=True))


def test_a_mail_waiting_for_its_next_try_keeps_its_time_and_its_count(
    organiser_client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    greta = PlayerFactory.create(name="Greta Garbo", email="greta@example.se")
    tries: list[int] = []

    def refuse(self: EmailBackend, messages: Sequence[Any]) -> int:
        tries.append(len(messages))
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    with monkeypatch.context() as broken:
        broken.setattr(EmailBackend, "send_messages", refuse)
        invite_and_send(organiser_client, greta)
        run_queue()
    assert tries == [1]
    record = InvitationMail.objects.get(player=greta)
    assert record.retry_at is not None

    back_up_and_restore(tmp_path)
    log_in_again(organiser_client)

    (task,) = waiting(SEND)
    assert task.run_after is not None
    assert abs(task.run_after - record.retry_at) < datetime.timedelta(seconds=1)
    assert run_queue() == 0  # not before the time the page says
    assert "the next try is at" in player_page(organiser_client, greta)
    make_due()
    assert run_queue() == 1
    assert [message.to for message in mail.outbox] == [["greta@example.se"]]
    record.refresh_from_db()
    assert (record.state, record.attempts) == (InvitationMail.State.SENT, 2)
    assert record.tried_at is not None
    assert record.tried_at > timezone.now() - datetime.timedelta(minutes=1)


def test_a_mail_a_worker_was_still_sending_during_the_restore_is_not_sent_twice(
    organiser_client: Client, tmp_path: Path
) -> None:
    greta = PlayerFactory.create(name="Greta Garbo", email="greta@example.se")
    invite_and_send(organiser_client, greta)
    back_up_and_restore(tmp_path)
    # The worker that had taken the first task (the restore emptied the queue under it)
    # sends the mail and records it once the restore has committed.
    InvitationMail.objects.filter(player=greta).update(state=InvitationMail.State.SENT)
    assert run_queue() == 1
    assert mail.outbox == []


def test_a_waiting_mail_whose_letter_was_not_kept_says_not_sent_after_the_restore(
    organiser_client: Client, tmp_path: Path
) -> None:
    """A record queued before records kept their letters (club migration 0006)."""
    greta = PlayerFactory.create(name="Greta Garbo", email="greta@example.se")
    organiser_client.post(reverse("player_invite", args=[greta.pk]))
    InvitationMail.objects.create(player=greta, to=greta.email)
    back_up_and_restore(tmp_path)
    log_in_again(organiser_client)
    assert waiting(SEND) == []
    page = player_page(organiser_client, greta)
    assert "Not sent: the e-mail to greta@example.se failed (" in page
    assert "Send by e-mail to greta@example.se" in page


NOT_QUEUED_AGAIN = {
    "printing.tasks.render_pdf": "fills the cache, which a restore empties: asked for again",
    "play.tasks.compute_review": "a reader of the game's review asks for it again",
}
QUEUED_AGAIN_BY = {
    RERATE: "ratings.tasks.rerate_requeue",
    SEND: "club.mail.invitation_mails_requeue",  # password resets: the person asks again
}


def tasks_of_the_site() -> set[str]:
    """Every function of the site decorated with ``@task()``, by its dotted path."""
    found = set()
    for package in SITE:
        for path in sorted((ROOT / package).rglob("*.py")) if (ROOT / package).is_dir() else []:
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                    isinstance(decorator, ast.Call)
                    and getattr(decorator.func, "id", getattr(decorator.func, "attr", "")) == "task"
                    for decorator in node.decorator_list
                ):
                    found.add(f"{module}.{node.name}")
    return found


def test_every_task_is_queued_again_by_a_restore_or_said_why_not() -> None:
    """A new task that leaves work waiting in the site's rows is named in
    settings.BACKUP_PENDING_WORK, or here with the reason a restore need not."""
    assert tasks_of_the_site() == set(NOT_QUEUED_AGAIN) | set(QUEUED_AGAIN_BY)
    assert sorted(settings.BACKUP_PENDING_WORK.values()) == sorted(QUEUED_AGAIN_BY.values())
