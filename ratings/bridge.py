"""The bridge between the tournaments and the rating list's plain-Python algorithm.

It reads which rounds are rating periods, in which order, what was decided in them and
how the players stood before a period, and turns them into the inputs of
``ratings.periods``; ``ratings.services`` saves what that returns. Terms:

- A *rated match*: a final match of any tournament (championship or club) that is no
  bye and has its games. Its winner scores 1, its loser 0.
- A *rated round*: a round with at least one rated match. The rated rounds are the
  rating periods, in the order of their tournament's first day, then the tournament
  (the one made first), then the round's number.
- A period's *date*: the day its round was published, within the tournament's days
  (a round paired the evening before counts on the first day); the first day when it
  was never published.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from typing import cast

from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.utils import timezone

from ratings.glicko import Rating
from ratings.models import PeriodRating, RatingPeriod
from ratings.periods import Outcome, RatedPlayer
from tournaments.models import Game, Match, Round, Seat


@dataclass(frozen=True, slots=True)
class Period:
    """A rated round as a rating period: the round (its id) and the period's date."""

    round: int
    date: datetime.date


def rated_matches() -> QuerySet[Match]:
    """Every rated match: final, no bye, with games."""
    return Match.objects.filter(status=Match.Status.FINAL, is_bye=False).filter(
        Exists(Game.objects.filter(match=OuterRef("pk")))
    )


def _date(round_: Round) -> datetime.date:
    tournament = round_.tournament
    if round_.published_at is None:
        return tournament.starts_on
    published = timezone.localdate(round_.published_at)
    return min(max(published, tournament.starts_on), tournament.ends_on)


def rated_periods() -> list[Period]:
    """The rating periods as the results make them, in the order they are rated."""
    rounds = (
        Round.objects.filter(Exists(rated_matches().filter(round=OuterRef("pk"))))
        .select_related("tournament")
        .only("published_at", "tournament__starts_on", "tournament__ends_on")
        .order_by("tournament__starts_on", "tournament_id", "number")
    )
    return [Period(round_.pk, _date(round_)) for round_ in rounds]


def stored_periods() -> list[Period]:
    """The rating periods as the list stores them, by position."""
    return [
        Period(round_id, date)
        for round_id, date in RatingPeriod.objects.order_by("position").values_list(
            "round_id", "date"
        )
    ]


def outcomes(rounds: Collection[int]) -> dict[int, list[Outcome]]:
    """The rated matches of ``rounds`` (ids) by round, each round's by match id."""
    seats = (
        Seat.objects.filter(match__in=rated_matches().filter(round__in=rounds))
        .order_by("match_id", "seat")
        .values_list("match_id", "round_id", "match__winner", "entry__player_id")
    )
    players: dict[int, list[int]] = defaultdict(list)
    seated: dict[int, tuple[int, int]] = {}
    for match_id, round_id, winner, player in seats:
        players[match_id].append(player)
        seated[match_id] = (round_id, cast(int, winner))  # a final match has a winner
    by_round: dict[int, list[Outcome]] = defaultdict(list)
    for match_id, (round_id, winner) in seated.items():
        pair = players[match_id]
        by_round[round_id].append(Outcome(winner=pair[winner], loser=pair[1 - winner]))
    return by_round


def players_before(position: int) -> dict[int, RatedPlayer]:
    """Every rated player as they stood before the period at ``position``, by player id."""
    last = (
        PeriodRating.objects.filter(player=OuterRef("player"), period__position__lt=position)
        .order_by("-period__position")
        .values("period__position")[:1]
    )
    rows = PeriodRating.objects.filter(
        period__position__lt=position, period__position=Subquery(last)
    ).values_list(
        "player_id", "period__position", "rating", "deviation", "volatility", "matches", "wins"
    )
    return {
        player: RatedPlayer(Rating(rating, deviation, volatility), period, matches, wins)
        for player, period, rating, deviation, volatility, matches, wins in rows
    }
