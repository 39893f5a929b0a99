"""The engine's review of finished games: computed once by the worker, stored, read by pages.

Terms (docs/review.md): a *review* judges every decision of a game (a discard, a card
played, a count) against the expert's; ``scoring.review`` computes it, this module is
the bridge that turns a practice game or a game between members into the engine's
records and stores its answer as a ``GameReview`` row. A game's review covers the games
of its match that were played to the end (a match resigned or ended by the organisers
keeps its games before; the one left unfinished is not reviewed, as it is not replayed).

When a review is computed is ``play.tasks``' business (this module imports nothing of
it): once when a game ends, when a page asks for a review not stored, and after each
``migrate`` for every review of an older ``REVIEW_VERSION``. A review of a game in
progress is never computed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from play.models import GameReview, OnlineGame, PracticeGame
from scoring.review import REVIEW_VERSION, review_games
from scoring.review import GameReview as EngineReview


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
    for seat in range(game.seats):
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
    computers, or the members (nobody in a seat the computer had from the start; a member
    who left a table is judged on their seat's decisions, the computer's after they left
    included)."""
    if isinstance(game, PracticeGame):
        return {"member_0": game.owner, "member_1": None, "member_2": None, "member_3": None}
    seats = (game.seat_0, game.seat_1, game.seat_2, game.seat_3)
    return {f"member_{seat}": member for seat, member in enumerate(seats)}


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
            Q(member_0=user, decisions_0__gt=0)
            | Q(member_1=user, decisions_1__gt=0)
            | Q(member_2=user, decisions_2__gt=0)
            | Q(member_3=user, decisions_3__gt=0)
        )
        .order_by("-played", "-pk")
        .only(*_ACCURACY_FIELDS)[:last]
    )
    points = []
    for row in rows:
        members = (row.member_0_id, row.member_1_id, row.member_2_id, row.member_3_id)
        seat = members.index(user.pk)
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
    *(f"member_{seat}_id" for seat in range(4)),
    *(
        f"{name}_{seat}"
        for name in ("accuracy", "discard_accuracy", "play_accuracy", "lost")
        for seat in range(4)
    ),
)
