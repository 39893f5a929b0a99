"""The one writer of the rating list: rate it again from a period onward, or from scratch.

The list is a function of the final results (``ratings.bridge`` says which matches
and rounds count). When a result changes, every period from that result's round
onward is rated again, because each later rating starts from the ones before it; the
periods before it stay as stored. Rating again from the first period is recomputing
from scratch, and the two give the same rows: a period is stored with the numbers the
algorithm returned, and the floats read back are the ones written.

The stored periods are also compared with the ones the results make now, and the list
is rated again from the first that differs: a round that became a rated round, a
tournament moved to other dates or an older tournament imported all reorder the periods
after them. Each of these is announced: a result names its round (or month), a change to
a tournament's days or to whether it is rated names none. When every announcement names
its period, only the periods since the earliest of them are read, compared and rated
again, from the stored ratings before it (``bridge.players_before``), so the work does
not grow with the periods before it; an announcement that names none, or a re-rate with
none pending, compares every period.

A final result is told to the list once it is saved (``tournaments.ports``, whose
``RatingList`` is ``ratings.ports.ClubRatingList``; ``play.signals`` for online
matches, ``ratings.receivers``): ``ratings_announce`` writes a ``PendingRerate`` and a
worker rates the list again a moment later (``ratings.tasks``). ``RatingList``'s row is locked
first, so re-rates run one at a time in the order they get the lock; each rates again
from the earliest period any pending announcement names and deletes the announcements it
took into account, so a burst of results is rated by the first re-rate that sees them
and the re-rates after it find the list up to date and do nothing (but compare every
period: nothing pending names where to start). Once none is pending
the list is what a recomputation makes (docs/rating.md).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import TypeVar

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from core import revalidation
from ratings import bridge
from ratings.models import ListRating, PendingRerate, PeriodRating, RatingList, RatingPeriod
from ratings.periods import RatedPlayer, rate_periods
from tournaments.models import Round
from tournaments.ports import EXPECTED_SCORES


def _lock_list() -> None:
    if not RatingList.objects.select_for_update().filter(pk=1).exists():
        RatingList.objects.bulk_create([RatingList(pk=1)], ignore_conflicts=True)
        RatingList.objects.select_for_update().filter(pk=1).exists()


def _first_difference(rated: Sequence[bridge.Period], stored: Sequence[bridge.Period]) -> int:
    """The index of the first period the results make and the list does not store."""
    for index, (made, kept) in enumerate(zip(rated, stored, strict=False)):
        if made != kept:
            return index
    return min(len(rated), len(stored))


@transaction.atomic
def ratings_announce(
    *,
    round_id: int | None = None,
    month: datetime.date | None = None,
) -> None:
    """Note that a final result of the round ``round_id`` (or a rated online match ended
    in ``month``, its first day; neither: a tournament's results joined, left or moved
    among the rated ones) waits to be rated: the next ``ratings_rerate`` starts from it at
    the latest."""
    PendingRerate.objects.create(round_id=round_id, month=month)


@transaction.atomic
def ratings_rerate(
    *,
    round: Round | None = None,  # noqa: A002
    month: datetime.date | None = None,
) -> int | None:
    """Rate the list again from the earliest period of ``round`` (a result of it became
    final or was corrected), of ``month`` (a rated online match ended in it: its first
    day) and of every pending announcement, or from an earlier period the results have
    changed; the pending announcements read are done with.

    Returns the position rated again from, or None when the list was up to date.
    """
    _lock_list()
    # The announcements first: each was written after its result was saved, so the
    # results read after them include theirs (one written later stays for the next).
    pending = list(PendingRerate.objects.values_list("pk", "round_id", "month"))
    rounds = {round_id for _pk, round_id, _month in pending if round_id is not None}
    months = {named for _pk, _round, named in pending if named is not None}
    rounds |= {round.pk} if round is not None else set()
    months |= {month} if month is not None else set()
    unnamed = any(round_id is None and named is None for _pk, round_id, named in pending)
    first, rated, stored = _periods_to_compare(
        None if unnamed else min(bridge.period_keys(rounds=rounds, months=months), default=None)
    )
    start = _first_difference(rated, stored)
    for index, period in enumerate(rated):
        if period.round in rounds or period.month in months:
            start = min(start, index)
    PendingRerate.objects.filter(pk__in=[pk for pk, _round, _month in pending]).delete()
    if start == len(rated) == len(stored):
        return None
    _rebuild(rated[start:], first + start)
    return first + start


def _periods_to_compare(
    since: bridge.PeriodKey | None,
) -> tuple[int, list[bridge.Period], list[bridge.Period]]:
    """The position of the first period to compare, and the periods from it on as the
    results make them and as the list stores them: those since the key ``since``, or all
    (None, or when the stored ones since it are not the last: stored out of order)."""
    if since is not None:
        stored = bridge.stored_periods_since(since)
        latest = RatingPeriod.objects.aggregate(latest=Max("position"))["latest"] or 0
        first = stored[0][0] if stored else latest + 1
        if [position for position, _period in stored] == list(range(first, latest + 1)):
            return first, bridge.rated_periods(since=since), [period for _, period in stored]
    return 1, bridge.rated_periods(), bridge.stored_periods()


@transaction.atomic
def ratings_recompute() -> int:
    """The whole list again from the first period; returns the number of periods (every
    pending announcement is done with)."""
    _lock_list()
    done = list(PendingRerate.objects.values_list("pk", flat=True))
    rated = bridge.rated_periods()
    PendingRerate.objects.filter(pk__in=done).delete()
    _rebuild(rated, 1)
    return len(rated)


def _rebuild(periods: Sequence[bridge.Period], position: int) -> None:
    """Store ``periods`` rated again from ``position`` on, from the stored periods before
    them; the list lines of the players rated in them, before or now, follow."""
    outcomes = bridge.period_outcomes(periods)
    playing = {player for decided in outcomes for match in decided for player in match.players}
    changed = playing | _listed_from(position)
    before = bridge.players_before(position, players=changed) if position > 1 else {}
    after = rate_periods(outcomes, first=position, players=before)
    ListRating.objects.filter(player__in=list(changed)).delete()
    RatingPeriod.objects.filter(position__gte=position).delete()
    RatingPeriod.objects.bulk_create(
        RatingPeriod(
            round_id=period.round,
            month=period.month,
            position=number,
            date=period.date,
            matches=len(decided),
        )
        for number, (period, decided) in enumerate(zip(periods, outcomes, strict=True), position)
    )
    standing = dict(before)
    for players in after:
        standing.update(players)
    listed = {player: standing[player] for player in sorted(changed) if player in standing}
    rebuilt = set(range(position, position + len(periods)))
    period_of = _period_ids({rated.period for rated in listed.values()} | rebuilt)
    PeriodRating.objects.bulk_create(_history(after, before=before, period_of=period_of))
    ListRating.objects.bulk_create(
        _values(ListRating(player_id=player, period_id=period_of[rated.period]), rated)
        for player, rated in listed.items()
    )
    RatingList.objects.filter(pk=1).update(version=F("version") + 1, changed_at=timezone.now())
    # The round pages answered from the cache show expected scores from the list.
    revalidation.moved(EXPECTED_SCORES)


def _history(
    after: Sequence[dict[int, RatedPlayer]],
    *,
    before: dict[int, RatedPlayer],
    period_of: dict[int, int],
) -> list[PeriodRating]:
    """The period ratings of the players of each period in ``after`` (rated in turn from
    ``before``), each naming the player's period before it."""
    previous = {player: rated.period for player, rated in before.items()}
    history = []
    for players in after:
        for player, rated in sorted(players.items()):
            row = PeriodRating(player_id=player, period_id=period_of[rated.period])
            row.previous_position = previous.get(player)
            history.append(_values(row, rated))
            previous[player] = rated.period
    return history


def _listed_from(position: int) -> set[int]:
    """The players whose list line is from the period at ``position`` or later."""
    lines = ListRating.objects.filter(period__position__gte=position).order_by()
    return set(lines.values_list("player_id", flat=True))


def _period_ids(positions: set[int]) -> dict[int, int]:
    """The ids of the periods at ``positions``."""
    periods = RatingPeriod.objects.filter(position__in=positions)
    return dict(periods.values_list("position", "pk"))


_Row = TypeVar("_Row", PeriodRating, ListRating)


def _values(row: _Row, rated: RatedPlayer) -> _Row:
    row.rating = rated.rating.rating
    row.deviation = rated.rating.deviation
    row.volatility = rated.rating.volatility
    row.matches, row.wins = rated.matches, rated.wins
    return row
