"""What play does when a tournament match changes (``tournaments.signals``).

Inside the tournament service's transaction: an organiser's result ends the match's
game on the site; a proposal to play a match on the site lapses once the match is
decided otherwise (games saved at the table, a report, a result) or its round closes.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from play.models import Challenge
from play.online import online_end_for_result
from tournaments.models import Match, Round


def on_result_entered(sender: object, *, match: Match, **kwargs: Any) -> None:
    online_end_for_result(tournament_match=match)


def on_match_changed(sender: object, *, match: Match, **kwargs: Any) -> None:
    if match.status not in (Match.Status.PENDING, Match.Status.ONLINE):
        _lapse(Challenge.objects.filter(match=match))


def on_round_closed(sender: object, *, round: Round, **kwargs: Any) -> None:  # noqa: A002
    _lapse(Challenge.objects.filter(match__round=round))


def _lapse(proposals: QuerySet[Challenge]) -> None:
    proposals.filter(status=Challenge.Status.OPEN).update(status=Challenge.Status.LAPSED)
