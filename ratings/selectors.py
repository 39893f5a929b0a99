"""Reads of the rating list: the list, members' ratings now, a member's history.

Terms (``ratings.glicko``, ``ratings.periods``): a rating *now* is a player's
rating after the latest rating period: their stored rating with the deviation grown
by every period since the last one they played in. The *list* is every rated member
(active players of the register), best first; *provisional* ratings are those whose
deviation now is above ``PROVISIONAL_DEVIATION``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Max

from club.models import Player
from ratings.glicko import Rating
from ratings.models import ListRating, PeriodRating, RatingList, RatingPeriod
from ratings.periods import RatedPlayer

PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional: the member has played too few
rated matches, or too few lately, for it to say much (a first choice, as on lichess)."""


@dataclass(frozen=True, slots=True)
class ListLine:
    """A member's line on the list: ``rank`` 1 is the top; ``rating`` is as of now."""

    rank: int
    player: Player
    rating: Rating
    matches: int
    wins: int

    @property
    def provisional(self) -> bool:
        return self.rating.deviation > PROVISIONAL_DEVIATION


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A member's rating after a period they played in, with the period's round."""

    position: int
    date: datetime.date
    tournament: str
    tournament_slug: str
    round: int
    rating: Rating
    matches: int
    wins: int


def latest_position() -> int:
    """The position of the latest rating period (0 before the first)."""
    return RatingPeriod.objects.aggregate(latest=Max("position"))["latest"] or 0


def list_version() -> int:
    """A number that changes whenever the list does (for the pages' validators)."""
    return RatingList.objects.filter(pk=1).values_list("version", flat=True).first() or 0


def _now(line: ListRating, latest: int) -> Rating:
    rating = Rating(line.rating, line.deviation, line.volatility)
    return RatedPlayer(rating, line.period.position, line.matches, line.wins).after(latest)


def rating_list(*, club: str | None = None) -> list[ListLine]:
    """The list of rated members, best first; ``club``: only that club's members, each
    with their rank on the whole list."""
    latest = latest_position()
    lines = (
        ListRating.objects.filter(player__active=True)
        .select_related("player", "period")
        .order_by("-rating", "deviation", "player__name", "player_id")
    )
    listed = [
        ListLine(rank, line.player, _now(line, latest), line.matches, line.wins)
        for rank, line in enumerate(lines, start=1)
    ]
    return [line for line in listed if club is None or line.player.club == club]


def ratings_now(players: Iterable[int]) -> dict[int, Rating]:
    """The ratings now of those of ``players`` (ids) who are rated; the unrated are left out."""
    latest = latest_position()
    lines = ListRating.objects.filter(player__in=list(players)).select_related("period")
    return {line.player_id: _now(line, latest) for line in lines}


def rating_history(*, player: Player) -> list[HistoryPoint]:
    """The member's rating after each period they played in, oldest first."""
    rows = (
        PeriodRating.objects.filter(player=player)
        .select_related("period__round__tournament")
        .order_by("period__position")
    )
    return [
        HistoryPoint(
            position=row.period.position,
            date=row.period.date,
            tournament=row.period.round.tournament.name,
            tournament_slug=row.period.round.tournament.slug,
            round=row.period.round.number,
            rating=Rating(row.rating, row.deviation, row.volatility),
            matches=row.matches,
            wins=row.wins,
        )
        for row in rows
    ]
