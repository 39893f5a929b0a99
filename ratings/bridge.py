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
- A period's *key*: where it comes in that order (``PeriodKey``); the periods *since* a
  key are those whose key is the same or later. Reading only those, a re-rate after a
  result reads no more when the club's history is longer.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import cast

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from play.models import OnlineGame
from play.rated import RATED_A_MONTH, month_of
from ratings.glicko import Rating
from ratings.models import ListRating, PeriodRating, RatingPeriod
from ratings.periods import Outcome, RatedPlayer
from tournaments.models import Game, Match, Round, Seat


@dataclass(frozen=True, slots=True)
class Period:
    """A rating period: the round (its id) or the month (its first day), and its date."""

    round: int | None
    date: datetime.date
    month: datetime.date | None = None


PeriodKey = tuple[datetime.date, int, int, int]
"""A period's place in the order they are rated: a round's (its tournament's first day,
0, the tournament, the round's number), a month's (its last day, 1, 0, 0)."""


def round_key(starts_on: datetime.date, tournament: int, number: int) -> PeriodKey:
    return (starts_on, 0, tournament, number)


def month_key(month: datetime.date) -> PeriodKey:
    return (_month_end(month), 1, 0, 0)


def period_keys(*, rounds: Collection[int], months: Collection[datetime.date]) -> list[PeriodKey]:
    """The keys of ``rounds`` (ids: those that still exist) and of ``months``."""
    found = Round.objects.filter(pk__in=list(rounds)).values_list(
        "tournament__starts_on", "tournament_id", "number"
    )
    return [round_key(*row) for row in found] + [month_key(month) for month in months]


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


def counted_online_games(*, since: datetime.date | None = None) -> list[OnlineResult]:
    """The rated online matches that count, in the order they ended: of those between the
    same two members in one month, the first ``RATED_A_MONTH``. ``since``: only those of
    that month (its first day) and later (the months are counted apart)."""
    games = rated_online_games().order_by("last_move", "pk")
    if since is not None:  # a day early: the site's time zone decides the month
        day_before = datetime.datetime.combine(since - datetime.timedelta(days=1), datetime.time())
        games = games.filter(last_move__gte=timezone.make_aware(day_before))
    counted: list[OnlineResult] = []
    between: dict[tuple[datetime.date, frozenset[int]], int] = defaultdict(int)
    for ended, winner, first, second in games.values_list(
        "last_move", "winner", "player_0", "player_1"
    ):
        if since is not None and month_of(ended) < since:
            continue
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


def rated_periods(*, since: PeriodKey | None = None) -> list[Period]:
    """The rating periods as the results make them, in the order they are rated (``since``:
    only those since that key)."""
    rounds = (
        Round.objects.filter(Exists(rated_matches().filter(round=OuterRef("pk"))))
        .select_related("tournament")
        .only("number", "published_at", "tournament__starts_on", "tournament__ends_on")
    )
    if since is not None:
        rounds = rounds.filter(tournament__starts_on__gte=since[0])
    ordered: list[tuple[PeriodKey, Period]] = [
        (
            round_key(round_.tournament.starts_on, round_.tournament_id, round_.number),
            Period(round_.pk, _date(round_)),
        )
        for round_ in rounds
    ]
    latest: dict[datetime.date, datetime.date] = {}
    first_month = None if since is None else since[0].replace(day=1)
    for ended in (game.ended for game in counted_online_games(since=first_month)):
        month = month_of(ended)
        latest[month] = max(latest.get(month, month), timezone.localdate(ended))
    ordered += [(month_key(month), Period(None, date, month)) for month, date in latest.items()]
    ordered.sort(key=lambda pair: pair[0])
    return [period for key, period in ordered if since is None or key >= since]


def stored_periods() -> list[Period]:
    """The rating periods as the list stores them, by position."""
    return [
        Period(round_id, date, month)
        for round_id, date, month in RatingPeriod.objects.order_by("position").values_list(
            "round_id", "date", "month"
        )
    ]


def stored_periods_since(since: PeriodKey) -> list[tuple[int, Period]]:
    """The rating periods the list stores since the key ``since``, with their positions,
    by position."""
    stored = RatingPeriod.objects.filter(
        Q(round__tournament__starts_on__gte=since[0]) | Q(month__gte=since[0].replace(day=1))
    ).order_by("position")
    found = []
    for position, round_id, date, month, starts_on, tournament, number in stored.values_list(
        "position",
        "round_id",
        "date",
        "month",
        "round__tournament__starts_on",
        "round__tournament_id",
        "round__number",
    ):
        key = round_key(starts_on, tournament, number) if month is None else month_key(month)
        if key >= since:
            found.append((position, Period(round_id, date, month)))
    return found


def period_outcomes(periods: Sequence[Period]) -> list[list[Outcome]]:
    """The rated matches of each of ``periods``: a round's by match id, a month's in the
    order they ended."""
    of_rounds = outcomes([period.round for period in periods if period.round is not None])
    months = {period.month for period in periods if period.month is not None}
    of_months: dict[datetime.date, list[Outcome]] = defaultdict(list)
    for game in counted_online_games(since=min(months)) if months else []:
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


def players_before(
    position: int, *, players: Collection[int] | None = None
) -> dict[int, RatedPlayer]:
    """Every rated player (of ``players``, ids; None: all) as they stood before the period at
    ``position``, by player id.

    A player's list line is how they stand after the last period they played in; for a
    player whose last period is ``position`` or later, their first period rating from
    ``position`` on names the period before it (``previous_position``). Neither reads the
    periods before ``position``, however many there are.
    """
    lines = (
        ListRating.objects.all()
        if players is None
        else ListRating.objects.filter(player__in=list(players))
    )
    standing: dict[int, RatedPlayer] = {}
    played_since: list[int] = []
    for player, period, *values in lines.order_by().values_list(
        "player_id", "period__position", *_VALUES
    ):
        if period < position:
            standing[player] = _rated_player(period, *values)
        else:
            played_since.append(player)
    return standing | _before_their_first_since(position, played_since)


def _before_their_first_since(position: int, players: list[int]) -> dict[int, RatedPlayer]:
    """``players`` (ids), each as they stood after the period that their first period
    rating from ``position`` on names (none: they were first rated from it on)."""
    since = PeriodRating.objects.filter(player__in=players, period__position__gte=position)
    first: dict[int, tuple[int, int | None]] = {}
    for player, period, previous in since.order_by().values_list(
        "player_id", "period__position", "previous_position"
    ):
        if player not in first or period < first[player][0]:
            first[player] = (period, previous)
    standing: dict[int, RatedPlayer] = {}
    before = {player: previous for player, (_first, previous) in first.items() if previous}
    rows = PeriodRating.objects.filter(
        player__in=list(before), period__position__in=set(before.values())
    )
    for player, period, *values in rows.order_by().values_list(
        "player_id", "period__position", *_VALUES
    ):
        if before[player] == period:
            standing[player] = _rated_player(period, *values)
    return standing


_VALUES = ("rating", "deviation", "volatility", "matches", "wins")


def _rated_player(
    period: int, rating: float, deviation: float, volatility: float, matches: int, wins: int
) -> RatedPlayer:
    return RatedPlayer(Rating(rating, deviation, volatility), period, matches, wins)
