"""The rating list's work for the worker (``manage.py db_worker``, docs/operating.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from django_tasks import task

from ops.status import label_task
from ratings.selectors import list_updating
from ratings.services import ratings_rerate


@task()
def rerate() -> int | None:
    """Rate the list again from the earliest pending announcement (``ratings.services``);
    None when another re-rate already did (the list was up to date)."""
    return ratings_rerate()


def rerate_requeue() -> int:
    """After a restore (``ops.backup``): queue the re-rate when a result waits to be
    rated (the backup kept its announcement, not the task the queue held); the number
    queued, 0 or 1. One is enough: it takes every pending announcement."""
    if not list_updating():
        return 0
    rerate.enqueue()
    return 1


label_task(rerate, gettext_lazy("Re-rating the rating list"))
