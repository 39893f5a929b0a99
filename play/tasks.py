"""Play's work for the worker (``manage.py db_worker``, docs/operating.md): the review of
a finished game (``play.reviews``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from django_tasks import task

from ops.status import label_task
from play.models import OnlineGame, PracticeGame
from play.reviews import Kind, review_store


@task()
def compute_review(kind: str, pk: int) -> bool:
    """Review the finished game ``pk`` of ``kind`` ("practice", "online") and store it;
    nothing when a current review is stored already. False for a game in progress or one
    deleted since (nothing to review)."""
    try:
        return review_store(kind=Kind(kind), pk=pk) is not None
    except (PracticeGame.DoesNotExist, OnlineGame.DoesNotExist):
        return False


label_task(compute_review, gettext_lazy("Reviewing a finished game"))
