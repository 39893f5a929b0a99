"""The engine's review of finished games: computed once by the worker, stored, read by pages.

Terms (docs/review.md): a *review* judges every decision of a game (a discard, a card
played, a count) against the expert's; ``scoring.review`` computes it, this module is
the bridge that turns a practice game or a game between members into the engine's
records and stores its answer as a ``GameReview`` row. A game's review covers the games
of its match that were played to the end (a match resigned or ended by the organisers
keeps its games before; the one left unfinished is not reviewed, as it is not replayed).

A game that ends (``review_when_ended``) queues its review once its transaction
commits; the review page asks again (``review_requested``) when none of the current
``REVIEW_VERSION`` is stored, so a game that ended before reviews existed, or whose
review is of an older version, gets one the first time someone opens it; after each
``migrate`` every review of an older version is queued again
(``outdated_reviews_requeue``). A review of a game in progress is never computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q

from play.models import GameReview, OnlineGame, PracticeGame
from scoring.review import REVIEW_VERSION, review_games
from scoring.review import GameReview as EngineReview

QUEUED_SECONDS = 5 * 60
"""How long a review asked for by a page keeps other readers from asking again (a review
takes a second or two; a queue of them after a busy evening a minute or so)."""


class Kind(StrEnum):
    """The two kinds of game a review is of (the command's first argument)."""

    PRACTICE = "practice"
    ONLINE = "online"


Reviewed = PracticeGame | OnlineGame


def game_of(kind: Kind, pk: int) -> Reviewed:
    """The practice game or game between members ``pk``; ``DoesNotExist`` if none."""
    if kind is Kind.PRACTICE:
        return PracticeGame.objects.get(pk=pk)
    return OnlineGame.objects.get(pk=pk)


def kind_of(game: Reviewed) -> Kind:
    return Kind.PRACTICE if isinstance(game, PracticeGame) else Kind.ONLINE


def reviewed_records(game: Reviewed) -> list[Mapping[str, Any]]:
    """The records of the games of ``game``'s match played to the end (a finished match)."""
    if not game.finished or not game.record:
        return []
    return [record for record in game.record["games"] if record.get("winner") is not None]


def engine_review(game: Reviewed) -> EngineReview:
    """The engine's review of a finished ``game``; ``ValueError`` for one in progress."""
    if not game.finished:
        raise ValueError("a game in progress is not reviewed")
    return review_games(reviewed_records(game))


def stored_review(game: Reviewed) -> GameReview | None:
    """The stored review of ``game`` if it is of the current version."""
    field = "practice" if isinstance(game, PracticeGame) else "online"
    return GameReview.objects.filter(**{field: game.pk}, version=REVIEW_VERSION).first()


@transaction.atomic
def review_store(*, kind: Kind, pk: int) -> GameReview | None:
    """Review the finished game ``pk`` and store it; the stored one if it is current
    already (a review queued twice is made once); None for a game in progress."""
    game = game_of(kind, pk)
    if not game.finished:
        return None
    stored = stored_review(game)
    if stored is not None:
        return stored
    review = engine_review(game)
    values: dict[str, Any] = {
        "version": REVIEW_VERSION,
        "review": review.as_json(),
        "played": game.updated if isinstance(game, PracticeGame) else game.last_move,
        **_members(game),
    }
    for seat in (0, 1):
        totals = review.totals(seat)
        values |= {
            f"decisions_{seat}": totals.discards + totals.plays,
            f"accuracy_{seat}": totals.accuracy,
            f"discard_accuracy_{seat}": totals.discard_accuracy,
            f"play_accuracy_{seat}": totals.play_accuracy,
            f"lost_{seat}": totals.discards_lost + totals.play_lost,
        }
    if isinstance(game, PracticeGame):
        row, _created = GameReview.objects.update_or_create(practice=game, defaults=values)
    else:
        row, _created = GameReview.objects.update_or_create(online=game, defaults=values)
    return row


def _members(game: Reviewed) -> dict[str, User | None]:
    """Who sits in each seat: a practice game's owner (a guest: nobody) against the
    computer, or the two members."""
    if isinstance(game, PracticeGame):
        return {"member_0": game.owner, "member_1": None}
    return {"member_0": game.seat_0, "member_1": game.seat_1}


def review_when_ended(game: Reviewed) -> None:
    """``game`` has just ended (inside its transaction): queue its review once that commits.

    After the commit, so the worker reads the game as ended; ``robust``: a queue that
    fails then costs the review (the page asks for it again), not the move that ended it.
    """
    transaction.on_commit(partial(_enqueue, kind_of(game), game.pk), robust=True)


def review_requested(game: Reviewed) -> bool:
    """A reader opened the review of the finished ``game`` and none is stored: queue it,
    unless it was queued a moment ago (True when this one queued it)."""
    return game.finished and _enqueue(kind_of(game), game.pk)


def _enqueue(kind: Kind, pk: int) -> bool:
    """Queue the review of game ``pk`` unless it was in the last ``QUEUED_SECONDS`` (a
    marker in the cache: the game's end and its first readers queue it once)."""
    from play.tasks import compute_review  # the task module imports this one

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
        queued += _enqueue(kind, pk)
    return queued


@dataclass(frozen=True)
class AccuracyPoint:
    """One reviewed game of a member: when, which, and their figures in it (0..100)."""

    played: Any
    kind: Kind
    game_id: int
    accuracy: float
    discard_accuracy: float
    play_accuracy: float
    lost: float


def member_accuracy(user: User, *, last: int = 20) -> list[AccuracyPoint]:
    """``user``'s figures in their ``last`` reviewed games, oldest first: their own
    practice games (played logged in) and their games between members, championship
    games included; a game where they were judged on no decision is left out."""
    rows = (
        GameReview.objects.filter(
            Q(member_0=user, decisions_0__gt=0) | Q(member_1=user, decisions_1__gt=0)
        )
        .order_by("-played", "-pk")
        .only(*_ACCURACY_FIELDS)[:last]
    )
    points = []
    for row in rows:
        seat = 0 if row.member_0_id == user.pk else 1
        points.append(
            AccuracyPoint(
                played=row.played,
                kind=Kind.PRACTICE if row.practice_id else Kind.ONLINE,
                game_id=row.practice_id or row.online_id or 0,
                accuracy=getattr(row, f"accuracy_{seat}"),
                discard_accuracy=getattr(row, f"discard_accuracy_{seat}"),
                play_accuracy=getattr(row, f"play_accuracy_{seat}"),
                lost=getattr(row, f"lost_{seat}"),
            )
        )
    return list(reversed(points))


_ACCURACY_FIELDS = (
    "played",
    "practice_id",
    "online_id",
    "member_0_id",
    "member_1_id",
    *(
        f"{name}_{seat}"
        for name in ("accuracy", "discard_accuracy", "play_accuracy", "lost")
        for seat in (0, 1)
    ),
)
