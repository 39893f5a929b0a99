"""Play's work for the worker (``manage.py db_worker``, docs/operating.md): the review of
a finished game (``play.reviews`` computes and stores it), and when it is queued.

A game that ends (``review_when_ended``) queues its review once its transaction commits;
the review page asks again (``review_requested``) when none of the current
``REVIEW_VERSION`` is stored, so a game that ended before reviews existed, or whose
review is of an older version, gets one the first time someone opens it; after each
``migrate`` every review of an older version is queued again
(``outdated_reviews_requeue``)."""

from __future__ import annotations

from functools import partial

from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext_lazy
from django_tasks import task

from ops.status import label_task
from play.models import GameReview, OnlineGame, PracticeGame
from play.reviews import Kind, Reviewed, kind_of, review_store
from scoring.review import REVIEW_VERSION

QUEUED_SECONDS = 5 * 60
"""How long a review asked for by a page keeps other readers from asking again (a review
takes a second or two; a queue of them after a busy evening a minute or so)."""


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


def review_when_ended(game: Reviewed) -> None:
    """``game`` has just ended (inside its transaction): queue its review once that commits.

    After the commit, so the worker reads the game as ended; ``robust``: a queue that
    fails then costs the review (the page asks for it again), not the move that ended it.
    """
    transaction.on_commit(partial(review_enqueue, kind_of(game), game.pk), robust=True)


def review_requested(game: Reviewed) -> bool:
    """A reader opened the review of the finished ``game`` and none is stored: queue it,
    unless it was queued a moment ago (True when this one queued it)."""
    return game.finished and review_enqueue(kind_of(game), game.pk)


def review_enqueue(kind: Kind, pk: int) -> bool:
    """Queue the review of game ``pk`` unless it was in the last ``QUEUED_SECONDS`` (a
    marker in the cache: the game's end and its first readers queue it once)."""
    if not cache.add(f"review-queued:{kind}:{pk}:{REVIEW_VERSION}", True, QUEUED_SECONDS):
        return False
    compute_review.enqueue(kind.value, pk)
    return True


def outdated_reviews_requeue() -> int:
    """Queue again the review of every game whose stored review is of an older
    ``REVIEW_VERSION`` (what a review says changed); return how many were queued.

    Run after every ``migrate`` (``play.apps``), so a release that changes the review
    redoes the stored ones on the queue, not only those a reader opens.
    """
    queued = 0
    stale = GameReview.objects.filter(version__lt=REVIEW_VERSION)
    for practice, online in stale.values_list("practice_id", "online_id").iterator():
        kind, pk = (Kind.PRACTICE, practice) if practice else (Kind.ONLINE, online)
        queued += review_enqueue(kind, pk)
    return queued
