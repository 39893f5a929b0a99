"""What play does when a tournament match changes (``tournaments.signals``).

Told once the tournament service's change is saved, in a transaction of its own
(``ops.outbox``), and safe to be told twice: an organiser's result ends the match's game
on the site; a proposal to play a match on the site lapses once the match is decided
otherwise (games saved at the table, a report, a result) or its round closes.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from play.models import Challenge
from play.online import online_end_for_result
from tournaments.models import Match, Round


def on_result_entered(sender: object, *, match: int, **kwargs: Any) -> None:
    entered = Match.objects.filter(pk=match, status=Match.Status.FINAL).first()
    if entered is not None:
        online_end_for_result(tournament_match=entered)


def on_match_changed(sender: object, *, match: int, **kwargs: Any) -> None:
    decided = Match.objects.filter(pk=match).exclude(
        status__in=[Match.Status.PENDING, Match.Status.ONLINE]
    )
    _lapse(Challenge.objects.filter(match__in=decided))


def on_round_closed(sender: object, *, round: int, **kwargs: Any) -> None:  # noqa: A002
    _lapse(Challenge.objects.filter(match__round=round, match__round__status=Round.Status.CLOSED))


def _lapse(proposals: QuerySet[Challenge]) -> None:
    proposals.filter(status=Challenge.Status.OPEN).update(status=Challenge.Status.LAPSED)
