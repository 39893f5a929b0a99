"""The bridge between the tournaments and the rating list's plain-Python algorithm.

It reads which rounds are rating periods, in which order, what was decided in them and
how the players stood before a period, and turns them into the inputs of
``ratings.periods``; ``ratings.services`` saves what that returns. Terms:

- A *rated match*: a final match of a rated tournament (``Tournament.rated``: made on
  the site, unless the organiser turned it off; a rehearsal or an import only when asked
  for) that is no bye and has its games. Its winner scores 1, its loser 0.
- A *rated online match*: a match between members played on the site that both agreed
  to have rated (``play.models.OnlineGame.rated``), between two members of the register
  (``OnlineGame.player_0`` and ``player_1``: the members whose accounts sat down, kept when
  the game began, so an account given to someone else later takes no result along),
  in which both have taken part (``OnlineGame.both_played``: the first hand of the first
  game was counted), however it ended: played out, resigned, or claimed after 72 hours (a
  loss for the player who stopped answering). Of those between the same two members
  that end in one month, the first ``RATED_A_MONTH`` count (by when they ended) and the
  others not (``counted_online_games``).
- A *rated round*: a round with at least one rated match; a *rated month*: a month
  with at least one rated online match (it ended in that month). They are the rating
  periods: the rounds in the order of their tournament's first day, then the
  tournament (the one made first), then the round's number; a month after the
  tournaments that start in it.
- A period's *date*: the day its round was published, within the tournament's days
  (a round paired the evening before counts on the first day), the first day when it
  was never published; a month's, the day its latest rated online match ended.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import cast

from django.db.models import Exists, OuterRef, QuerySet, Subquery
from django.utils import timezone

from play.models import OnlineGame
from play.rated import RATED_A_MONTH, month_of
from ratings.glicko import Rating
from ratings.models import PeriodRating, RatingPeriod
from ratings.periods import Outcome, RatedPlayer
from tournaments.models import Game, Match, Round, Seat


@dataclass(frozen=True, slots=True)
class Period:
    """A rating period: the round (its id) or the month (its first day), and its date."""

    round: int | None
    date: datetime.date
    month: datetime.date | None = None


@dataclass(frozen=True, slots=True)
class OnlineResult:
    """A counted rated online match: when it ended and its players, winner first."""

    ended: datetime.datetime
    winner: int
    loser: int


def rated_online_games() -> QuerySet[OnlineGame]:
    """Every finished online match agreed rated, between two members of the register, in
    which both took part (before ``RATED_A_MONTH`` is applied)."""
    return OnlineGame.objects.filter(
        rated=True,
        finished=True,
        both_played=True,
        match__isnull=True,
        player_0__isnull=False,
        player_1__isnull=False,
    )


def counted_online_games() -> list[OnlineResult]:
    """The rated online matches that count, in the order they ended: of those between the
    same two members in one month, the first ``RATED_A_MONTH``."""
    games = rated_online_games().order_by("last_move", "pk")
    counted: list[OnlineResult] = []
    between: dict[tuple[datetime.date, frozenset[int]], int] = defaultdict(int)
    for ended, winner, first, second in games.values_list(
        "last_move", "winner", "player_0", "player_1"
    ):
        pair = (first, second)
        key = (month_of(ended), frozenset(pair))
        between[key] += 1
        if between[key] <= RATED_A_MONTH:
            won = cast(int, winner)  # a finished game has a winner
            counted.append(OnlineResult(ended, pair[won], pair[1 - won]))
    return counted


def _month_end(month: datetime.date) -> datetime.date:
    following = (month + datetime.timedelta(days=31)).replace(day=1)
    return following - datetime.timedelta(days=1)


def rated_matches() -> QuerySet[Match]:
    """Every rated match: final, no bye, with games, of a rated tournament."""
    return Match.objects.filter(
        status=Match.Status.FINAL, is_bye=False, round__tournament__rated=True
    ).filter(Exists(Game.objects.filter(match=OuterRef("pk"))))


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
        .only("number", "published_at", "tournament__starts_on", "tournament__ends_on")
    )
    ordered: list[tuple[tuple[datetime.date, int, int, int], Period]] = [
        (
            (round_.tournament.starts_on, 0, round_.tournament_id, round_.number),
            Period(round_.pk, _date(round_)),
        )
        for round_ in rounds
    ]
    latest: dict[datetime.date, datetime.date] = {}
    for ended in (game.ended for game in counted_online_games()):
        month = month_of(ended)
        latest[month] = max(latest.get(month, month), timezone.localdate(ended))
    ordered += [
        ((_month_end(month), 1, 0, 0), Period(None, date, month)) for month, date in latest.items()
    ]
    return [period for _key, period in sorted(ordered, key=lambda pair: pair[0])]


def stored_periods() -> list[Period]:
    """The rating periods as the list stores them, by position."""
    return [
        Period(round_id, date, month)
        for round_id, date, month in RatingPeriod.objects.order_by("position").values_list(
            "round_id", "date", "month"
        )
    ]


def period_outcomes(periods: Sequence[Period]) -> list[list[Outcome]]:
    """The rated matches of each of ``periods``: a round's by match id, a month's in the
    order they ended."""
    of_rounds = outcomes([period.round for period in periods if period.round is not None])
    months = {period.month for period in periods if period.month is not None}
    of_months: dict[datetime.date, list[Outcome]] = defaultdict(list)
    for game in counted_online_games() if months else []:
        if month_of(game.ended) in months:
            of_months[month_of(game.ended)].append(Outcome(winner=game.winner, loser=game.loser))
    decided = []
    for period in periods:
        if period.round is not None:
            decided.append(of_rounds.get(period.round, []))
        elif period.month is not None:
            decided.append(of_months[period.month])
    return decided


def outcomes(rounds: Collection[int]) -> dict[int, list[Outcome]]:
    """The rated matches of ``rounds`` (ids) by round, each round's by match id."""
    # By the seats' own round and a join to each match, not by "match in (the rated
    # matches)": inside a long transaction PostgreSQL has no statistics of the rows
    # written in it, and planned that subquery as nested scans (20 s a query at 24
    # players and 8 rounds). ``rounds`` are rated periods' rounds, of rated tournaments.
    seats = (
        Seat.objects.filter(round__in=rounds, match__status=Match.Status.FINAL, match__is_bye=False)
        .filter(Exists(Game.objects.filter(match=OuterRef("match_id"))))
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
