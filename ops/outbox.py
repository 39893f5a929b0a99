"""Calls made once a change is saved: how an app tells another what changed (the outbox).

A service that changes something another app follows (a final result the rating list
rates, a match whose proposal to play it on the site lapses) says so in its own
transaction, with ``after_commit(function, **payload)`` or ``Topic.announce(**payload)``.
Either writes one ``Announcement`` row, which stands or falls with the change, and asks
Django to deliver it once the transaction commits (``transaction.on_commit``).

Delivery (``deliver``) makes each call in a transaction of its own and deletes its row
in it: the one who is told never writes inside the teller's transaction, and a call is
owed exactly while its row is there. What the process did not deliver after the commit
(it was killed in between, a call failed, the database went away) is delivered by the
next delivery of any process, and a call that failed by the task worker's sweep
(``ops.worker``), every ``TASK_WORKER["SWEEP_SECONDS"]``. A call may so be made twice,
never not at all: every call is safe to make again (docs/operating.md, "Announcements
after commit").

- ``after_commit(function, **payload)``: call a module-level function by name, e.g.
  ``tournaments.ports``' call to the rating list (the call can be followed by reading).
- ``Topic``: a signal sent after commit to receivers the sender does not know (the apps
  above it, which connect to it in their ``ready``).

A payload is JSON: ids and ISO dates, not model instances (the receiver reads what is
saved when it is told).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import DatabaseError, transaction
from django.db.models import F
from django.dispatch import Signal
from django.utils.module_loading import import_string

from core.outages import is_database_outage
from ops.models import Announcement

logger = logging.getLogger(__name__)

JSON = str | int | float | bool | None


class Topic(Signal):
    """A signal sent once the announcing transaction has committed (``announce``).

    ``path`` is where the topic stands, e.g. ``"tournaments.signals.match_changed"``: the
    announcement names it, and its delivery sends the topic found there. Receivers take
    the payload as keyword arguments (and ``sender``: the topic)."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def announce(self, **payload: JSON) -> None:
        """Send the topic with ``payload`` once the current transaction commits."""
        _owe(self.path, payload)

    def __call__(self, **payload: JSON) -> None:
        self.send(sender=self, **payload)


def after_commit(function: Callable[..., object], **payload: JSON) -> None:
    """Call ``function`` (module-level) with ``payload`` once the current transaction
    commits, in a transaction of its own."""
    _owe(f"{function.__module__}.{function.__qualname__}", payload)


def _owe(call: str, payload: dict[str, JSON]) -> None:
    Announcement.objects.create(call=call, payload=payload)
    # Outside a transaction, at once; a failure is the announcement's, never the change's.
    transaction.on_commit(deliver, robust=True)


def deliver(*, failed_too: bool = False) -> int:
    """Make every call owed, oldest first, each in a transaction of its own; returns how
    many were made. One that fails is noted on its row and left for the worker's sweep
    (``failed_too``: it is that sweep), so a broken call does not slow every commit; one
    another process is making (its row locked) is that process's."""
    made = 0
    failed: list[int] = []
    while True:
        pk = None
        try:
            with transaction.atomic():
                owed = Announcement.objects.select_for_update(skip_locked=True)
                owed = owed if failed_too else owed.filter(tries=0)
                row = owed.exclude(pk__in=failed).order_by("pk").first()
                if row is None:
                    return made
                pk = row.pk
                import_string(row.call)(**row.payload)
                row.delete()
            made += 1
        except Exception as error:
            if pk is None or is_database_outage(error):
                logger.warning("Announcements wait for the database: %s", error)
                return made
            logger.exception("Announcement %s failed; it will be made again", pk)
            failed.append(pk)
            _note_failure(pk, error)


def _note_failure(pk: int, error: Exception) -> None:
    try:
        Announcement.objects.filter(pk=pk).update(
            tries=F("tries") + 1, error=f"{type(error).__name__}: {error}"[:2000]
        )
    except DatabaseError:
        logger.warning("Could not note that announcement %s failed", pk)


def owed() -> int:
    """How many calls are owed (made a moment after their commit, or failing)."""
    return Announcement.objects.count()


def failing() -> int:
    """How many calls owed have failed at least once (``/health/`` says so)."""
    return Announcement.objects.filter(tries__gt=0).count()
