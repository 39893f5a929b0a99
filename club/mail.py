"""The site's e-mail, sent by the worker (a task), never inside a web request.

An SMTP server that hangs would otherwise hold a web worker for its whole timeout. A
*letter* is a message already written (subject, text, an HTML part, recipients), plain
JSON so the queue can keep it. ``send_letter`` sends it; when the server refuses or
cannot be reached it tries again after ``RETRY_MINUTES`` (1, 5, then 25 minutes) by
queueing itself with ``run_after``, then gives up. django-tasks' database backend has no
retries of its own (docs/operating.md, "Mail").

An invitation's letter keeps its ``InvitationMail`` up to date (attempts, when last
tried, when next, sent or not), so the player's page tells organisers what happened.
The record keeps the letter itself while it waits, so that a restore queues it again
(``invitation_mails_requeue``: the task queue is not in a backup, docs/operating.md,
"Backups"); a record that says sent is never sent again. A password reset's letter keeps
nothing: whether it went out is nobody's to know there, and a restore drops it (the
person asks again).
"""

from __future__ import annotations

import datetime
import logging
import smtplib
from typing import TypedDict

from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django_tasks import task

from club.models import InvitationMail, Player
from ops.status import label_task

logger = logging.getLogger(__name__)

# The waits before the second, third and fourth try; after the fourth, the mail is not sent.
RETRY_MINUTES = (1, 5, 25)
TRIES = len(RETRY_MINUTES) + 1


class Letter(TypedDict):
    subject: str
    body: str
    html: str
    to: list[str]
    from_email: str | None
    reply_to: list[str]


def letter(
    *,
    subject: str,
    body: str,
    to: list[str],
    html: str = "",
    from_email: str | None = None,
    reply_to: list[str] | None = None,
) -> Letter:
    return Letter(
        subject=subject, body=body, html=html, to=to, from_email=from_email, reply_to=reply_to or []
    )


def _message(letter: Letter) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=letter["subject"],
        body=letter["body"],
        from_email=letter["from_email"],
        to=letter["to"],
        reply_to=letter["reply_to"] or None,
    )
    if letter["html"]:
        message.attach_alternative(letter["html"], "text/html")
    return message


def letter_queue(letter: Letter, *, invitation_mail: InvitationMail | None = None) -> None:
    """Queue the letter for the worker (inside the caller's transaction, if any)."""
    send_letter.enqueue(
        letter=letter, attempt=1, invitation_mail_id=invitation_mail.pk if invitation_mail else None
    )


@transaction.atomic
def invitation_mail_queue(*, player: Player, letter: Letter) -> InvitationMail:
    """Queue an invitation's letter and keep its record for the player's page."""
    record = InvitationMail.objects.create(
        player=player, to=", ".join(letter["to"]), letter=dict(letter)
    )
    letter_queue(letter, invitation_mail=record)
    return record


def invitation_mails_requeue() -> int:
    """After a restore (``ops.backup``): queue again every invitation mail that waited to
    be sent, from its record, as the try after the last one recorded and not before the
    time the record says; the number queued. A record without its letter (queued before
    records kept it) cannot be sent again: it says not sent, and the organiser sends it
    again from the player's page."""
    queued = 0
    for record in InvitationMail.objects.filter(state=InvitationMail.State.QUEUED).order_by("pk"):
        if not record.letter:
            _record(  # the page then says "not sent" and offers to send it again
                record.pk,
                attempt=max(record.attempts, 1),
                state=InvitationMail.State.FAILED,
                error="restored without its letter (queued before records kept it)",
            )
            continue
        attempt = record.attempts + 1
        retry_at = record.retry_at
        if retry_at is not None and retry_at > timezone.now() and _can_defer():
            queue = send_letter.using(run_after=retry_at)
        else:
            queue = send_letter
        queue.enqueue(letter=record.letter, attempt=attempt, invitation_mail_id=record.pk)
        queued += 1
    return queued


def _can_defer() -> bool:
    return bool(send_letter.get_backend().supports_defer)


def _retry_at(attempt: int) -> datetime.datetime | None:
    """When to try again after try number ``attempt`` failed; None: give up."""
    if attempt > len(RETRY_MINUTES) or not _can_defer():
        return None
    return timezone.now() + datetime.timedelta(minutes=RETRY_MINUTES[attempt - 1])


def _record(
    record_id: int | None,
    *,
    attempt: int,
    state: InvitationMail.State,
    retry_at: datetime.datetime | None = None,
    error: str = "",
) -> None:
    if record_id is None:
        return
    done: dict[str, object] = {} if state == InvitationMail.State.QUEUED else {"letter": {}}
    InvitationMail.objects.filter(pk=record_id).update(
        state=state,
        attempts=attempt,
        tried_at=timezone.now(),
        retry_at=retry_at,
        error=error[:300],
        **done,
    )


def _sent_already(record_id: int | None) -> bool:
    """Whether the invitation mail's record says it went out (a second task for it, say
    one queued again by a restore while a worker was still sending the first)."""
    return (
        record_id is not None
        and InvitationMail.objects.filter(pk=record_id, state=InvitationMail.State.SENT).exists()
    )


@task()
def send_letter(*, letter: Letter, attempt: int, invitation_mail_id: int | None) -> str:
    """Send the letter; on failure queue the next try (or give up). Answers what happened."""
    if _sent_already(invitation_mail_id):
        return "sent already"
    try:
        _message(letter).send()
    except (smtplib.SMTPException, OSError) as error:
        retry_at = _retry_at(attempt)
        logger.warning("Mail to %s failed (try %d): %s", letter["to"], attempt, error)
        with transaction.atomic():
            if retry_at is None:
                _record(
                    invitation_mail_id,
                    attempt=attempt,
                    state=InvitationMail.State.FAILED,
                    error=str(error),
                )
                return "failed"
            _record(
                invitation_mail_id,
                attempt=attempt,
                state=InvitationMail.State.QUEUED,
                retry_at=retry_at,
                error=str(error),
            )
            send_letter.using(run_after=retry_at).enqueue(
                letter=letter, attempt=attempt + 1, invitation_mail_id=invitation_mail_id
            )
        return "retrying"
    _record(invitation_mail_id, attempt=attempt, state=InvitationMail.State.SENT)
    return "sent"


label_task(send_letter, gettext_lazy("Sending an e-mail"))
