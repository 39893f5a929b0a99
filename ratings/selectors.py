"""Reads of the rating list: the list, members' ratings now, a member's history.

Terms (``ratings.glicko``, ``ratings.periods``): a rating *now* is a player's
rating after the latest rating period: their stored rating with the deviation grown
by every period since the last one they played in. The *list* is every rated member
(active players of the register), best first; *provisional* ratings are those whose
deviation now is above ``PROVISIONAL_DEVIATION``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from django.db.models import Max, Min

from club.models import Player
from ratings import bridge
from ratings.glicko import Rating, expected_score, idle
from ratings.models import ListRating, PendingRerate, PeriodRating, RatingList, RatingPeriod
from ratings.periods import RatedPlayer
from tournaments.models import Seat

PROVISIONAL_DEVIATION = 150.0
"""A rating whose deviation is above this is provisional: the member has played too few
rated matches, or too few lately, for it to say much. From the start (350) a member
comes under it after about ten matches, a year of club tournaments or two: lichess's
110 counts games, and a match is one result here."""


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
    """A member's rating after a period they played in, with the period's round (its
    tournament's name and address, and its number), or its month of online matches."""

    position: int
    date: datetime.date
    tournament: str
    tournament_slug: str
    round: int | None
    rating: Rating
    matches: int
    wins: int


def latest_position() -> int:
    """The position of the latest rating period (0 before the first)."""
    return RatingPeriod.objects.aggregate(latest=Max("position"))["latest"] or 0


def list_version() -> int:
    """A number that changes whenever the list does (for the pages' validators)."""
    return RatingList.objects.filter(pk=1).values_list("version", flat=True).first() or 0


def list_updating() -> bool:
    """Whether a final result waits to be rated (the worker rates the list again a moment
    after it: docs/rating.md); the pages say the list is updating meanwhile."""
    return PendingRerate.objects.exists()


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
    return [_point(row) for row in rows]


def _point(row: PeriodRating) -> HistoryPoint:
    round_ = row.period.round
    return HistoryPoint(
        position=row.period.position,
        date=row.period.date,
        tournament=round_.tournament.name if round_ else "",
        tournament_slug=round_.tournament.slug if round_ else "",
        round=round_.number if round_ else None,
        rating=Rating(row.rating, row.deviation, row.volatility),
        matches=row.matches,
        wins=row.wins,
    )


def clubs_on_list() -> list[str]:
    """The clubs of the members on the list, for its filter."""
    clubs = ListRating.objects.filter(player__active=True).values_list("player__club", flat=True)
    return sorted(set(clubs), key=str.casefold)


@dataclass(frozen=True, slots=True)
class LastTournament:
    """The latest tournament rated, and what it changed: each of its players' rating
    after it less their rating before it (None: they were first rated in it)."""

    name: str
    slug: str
    changes: dict[int, float | None]


def last_tournament() -> LastTournament | None:
    """The latest tournament with a rating period, and its changes to the list."""
    latest = RatingPeriod.objects.filter(round__isnull=False).order_by("-position")
    period = latest.select_related("round__tournament").first()
    if period is None or period.round is None:
        return None
    tournament = period.round.tournament
    ratings = PeriodRating.objects.order_by("period__position")
    of_tournament = ratings.filter(period__round__tournament=tournament)
    after = dict(of_tournament.values_list("player_id", "rating"))  # the last one stays
    first = of_tournament.aggregate(first=Min("period__position"))["first"]
    before = dict(
        ratings.filter(player__in=list(after), period__position__lt=first).values_list(
            "player_id", "rating"
        )
    )
    changes = {
        player: rating - before[player] if player in before else None
        for player, rating in after.items()
    }
    return LastTournament(tournament.name, tournament.slug, changes)


def ratings_before(position: int) -> dict[int, Rating]:
    """Every rated player's rating as it stood before the period at ``position`` (their
    deviation grown by the periods they missed), by player id; the unrated left out."""
    standing = bridge.players_before(position)
    return {player: rated.after(position - 1) for player, rated in standing.items()}


@dataclass(frozen=True, slots=True)
class BestWin:
    """A rated match the member won, with their opponent's rating before it."""

    opponent: Player
    rating: Rating | None
    """The opponent's rating before the match; None: not yet rated then."""
    date: datetime.date
    tournament: str
    tournament_slug: str
    round: int
    match: int


def best_wins(*, player: Player, count: int = 5) -> list[BestWin]:
    """The member's ``count`` wins against the highest-rated opponents (as rated before
    each match; an opponent not yet rated then counts at the starting rating)."""
    seats = (
        Seat.objects.filter(match__in=bridge.rated_matches(), match__seats__entry__player=player)
        .exclude(entry__player=player)
        .select_related("entry__player", "match__round__tournament", "match__round__rating_period")
    )
    wins = [seat for seat in seats if seat.match.winner not in (None, seat.seat)]
    history = _histories({seat.entry.player_id for seat in wins})
    found = []
    for seat in wins:
        round_ = seat.match.round
        period = round_.rating_period
        found.append(
            BestWin(
                opponent=seat.entry.player,
                rating=_before(history.get(seat.entry.player_id, []), period.position),
                date=period.date,
                tournament=round_.tournament.name,
                tournament_slug=round_.tournament.slug,
                round=round_.number,
                match=seat.match_id,
            )
        )
    found.sort(key=lambda win: (-(win.rating or Rating()).rating, win.date))
    return found[:count]


def _histories(players: set[int]) -> dict[int, list[tuple[int, Rating]]]:
    """Each player's ratings after the periods they played in: (position, rating), in order."""
    rows = PeriodRating.objects.filter(player__in=players).order_by("period__position")
    history: dict[int, list[tuple[int, Rating]]] = {}
    for player, position, rating, deviation, volatility in rows.values_list(
        "player_id", "period__position", "rating", "deviation", "volatility"
    ):
        history.setdefault(player, []).append((position, Rating(rating, deviation, volatility)))
    return history


def _before(history: list[tuple[int, Rating]], position: int) -> Rating | None:
    """The rating of ``history`` before the period at ``position`` (None: not yet rated)."""
    earlier = [(played, rating) for played, rating in history if played < position]
    if not earlier:
        return None
    played, rating = earlier[-1]
    return idle(rating, position - 1 - played)


def expected_scores(pairs: Mapping[int, tuple[int, int]]) -> dict[int, float]:
    """Seat 0's expected score in each match of ``pairs`` (match id: the player ids in
    seats 0 and 1) from the ratings now, an unrated player at the starting rating; a
    match between two unrated players is left out (the ratings say nothing of it)."""
    now = ratings_now({player for pair in pairs.values() for player in pair})
    return {
        match: expected_score(now.get(first, Rating()), now.get(second, Rating()))
        for match, (first, second) in pairs.items()
        if first in now or second in now
    }


def favourites_record(*, tournament: int) -> tuple[int, int]:
    """Of the tournament's rated matches that had a favourite (the player with the higher
    expected score from the ratings before the match's round), how many the favourite
    won, and of how many."""
    periods = list(
        RatingPeriod.objects.filter(round__tournament=tournament).values_list(
            "round_id", "position"
        )
    )
    decided = bridge.outcomes([round_id for round_id, _position in periods])
    won = of = 0
    for round_id, position in periods:
        before = ratings_before(position)
        for outcome in decided.get(round_id, []):
            winner = before.get(outcome.winner, Rating())
            chance = expected_score(winner, before.get(outcome.loser, Rating()))
            if chance != 0.5:
                of += 1
                won += chance > 0.5
    return won, of
