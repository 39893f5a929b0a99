"""Mail leaves through the worker: a hanging mail server never holds a page, a failing one
is tried again later, and organisers see an invitation that was not sent."""

from __future__ import annotations

import datetime
import smtplib
from collections.abc import Sequence
from typing import Any

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings

from club.mail import RETRY_MINUTES, TRIES
from club.models import InvitationMail, Player
from tests.factories import PlayerFactory, UserFactory
from tests.queue import DATABASE_TASKS, make_due, run_queue, waiting

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

SEND_TASK = "club.mail.send_letter"


@pytest.fixture
def queued(settings: Settings) -> None:
    settings.TASKS = DATABASE_TASKS


@pytest.fixture
def greta() -> Player:
    return PlayerFactory.create(name="Greta Garbo", club="Stockholm", email="greta@example.se")


@pytest.fixture
def broken_mail_server(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The mail server refuses every message; the list counts the tries."""
    tries: list[int] = []

    def refuse(self: EmailBackend, messages: Sequence[Any]) -> int:
        tries.append(len(messages))
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    monkeypatch.setattr(EmailBackend, "send_messages", refuse)
    return tries


def invite_and_send(organiser_client: Client, player: Player) -> str:
    organiser_client.post(reverse("player_invite", args=[player.pk]))
    sent = organiser_client.post(reverse("player_invitation_send", args=[player.pk]), follow=True)
    assert sent.status_code == 200
    return sent.content.decode()


def player_page(organiser_client: Client, player: Player) -> str:
    return organiser_client.get(reverse("player_detail", args=[player.pk])).content.decode()


@pytest.mark.usefixtures("queued")
def test_an_invitation_is_queued_and_the_worker_sends_it(
    organiser_client: Client, greta: Player
) -> None:
    page = invite_and_send(organiser_client, greta)
    assert mail.outbox == []  # the request sent nothing
    assert "is on its way" in page
    assert "The e-mail to greta@example.se is waiting to be sent." in page
    assert len(waiting(SEND_TASK)) == 1
    run_queue()
    assert [message.to for message in mail.outbox] == [["greta@example.se"]]
    assert "Hello Greta Garbo" in mail.outbox[0].body
    assert "The invitation was sent to greta@example.se (" in player_page(organiser_client, greta)


@pytest.mark.usefixtures("queued")
def test_a_failing_mail_server_is_tried_again_then_the_page_says_not_sent(
    organiser_client: Client, greta: Player, broken_mail_server: list[int]
) -> None:
    invite_and_send(organiser_client, greta)
    run_queue()
    assert broken_mail_server == [1]
    record = InvitationMail.objects.get(player=greta)
    assert record.attempts == 1
    assert record.retry_at is not None
    wait = record.retry_at - timezone.now()
    assert datetime.timedelta(seconds=50) < wait <= datetime.timedelta(minutes=RETRY_MINUTES[0])
    page = player_page(organiser_client, greta)
    assert "Not sent yet: the e-mail to greta@example.se failed at" in page
    assert run_queue() == 0  # the next try waits its minute

    for _ in range(TRIES - 1):
        make_due()
        assert run_queue() == 1
    assert len(broken_mail_server) == TRIES == 4
    assert waiting(SEND_TASK) == []  # given up: no endless retries
    record.refresh_from_db()
    assert record.state == InvitationMail.State.FAILED
    assert record.attempts == TRIES
    page = player_page(organiser_client, greta)
    assert "Not sent: the e-mail to greta@example.se failed 4 times, last at" in page
    assert "Send by e-mail to greta@example.se" in page  # send again


@pytest.mark.usefixtures("queued")
def test_sending_again_after_a_failure_is_a_new_try(
    organiser_client: Client, greta: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    InvitationMail.objects.create(player=greta, to=greta.email)  # an older invitation's
    invite_and_send(organiser_client, greta)
    record = InvitationMail.objects.filter(player=greta).first()
    assert record is not None
    InvitationMail.objects.filter(pk=record.pk).update(state="failed", attempts=4)
    assert "Not sent:" in player_page(organiser_client, greta)
    organiser_client.post(reverse("player_invitation_send", args=[greta.pk]))
    run_queue()
    assert "The invitation was sent to greta@example.se (" in player_page(organiser_client, greta)
    assert len(mail.outbox) == 2


@pytest.mark.usefixtures("queued")
def test_a_password_reset_mail_is_queued_and_the_answer_is_the_same(
    broken_mail_server: list[int],
) -> None:
    UserFactory.create(username="maja", email="maja@example.se")
    client = Client()
    client.cookies["django_language"] = "en"
    known = client.post(reverse("password_reset"), {"email": "maja@example.se"}, follow=True)
    unknown = client.post(reverse("password_reset"), {"email": "nobody@example.se"}, follow=True)
    assert known.redirect_chain == unknown.redirect_chain == [(reverse("password_reset_done"), 302)]
    assert broken_mail_server == []  # the page did not wait for the mail server
    assert len(waiting(SEND_TASK)) == 1
    run_queue()
    assert broken_mail_server == [1]
    assert len(waiting(SEND_TASK)) == 1  # a try later


@pytest.mark.usefixtures("queued")
def test_the_queued_reset_mail_is_djangos() -> None:
    """Written in the reader's language when asked for, sent later."""
    UserFactory.create(username="maja", email="maja@example.se")
    client = Client()
    client.cookies["django_language"] = "en"
    client.post(reverse("password_reset"), {"email": "maja@example.se"})
    run_queue()
    assert [message.to for message in mail.outbox] == [["maja@example.se"]]
    assert "Your username is maja" in mail.outbox[0].body
    assert "\n" not in mail.outbox[0].subject


def test_without_a_worker_queue_the_mail_goes_at_once_and_a_failure_shows(
    organiser_client: Client, greta: Player, broken_mail_server: list[int]
) -> None:
    """The immediate backend cannot wait before a retry: one try, then "not sent"."""
    page = invite_and_send(organiser_client, greta)
    assert broken_mail_server == [1]
    assert "Not sent: the e-mail to greta@example.se failed (" in page
