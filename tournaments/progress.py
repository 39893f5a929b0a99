"""Where a tournament stands, said as a visitor wants to know it: "Round 4 is being
played", "Round 3 of 6 played", "Play-off", "Decided", not the name of its stage ("Swiss
rounds").

Lists annotate their tournaments with their latest published round (``with_progress``:
one subquery, not a query a row); a tournament read alone is asked once.
"""

from __future__ import annotations

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils.translation import gettext as _

from tournaments.models import Round, Tournament


def _published(tournament: OuterRef | Tournament) -> QuerySet[Round]:
    return (
        Round.objects.filter(tournament=tournament, kind=Round.Kind.SWISS)
        .exclude(status=Round.Status.PROPOSED)
        .order_by("-number")
    )


def with_progress(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """``tournaments`` with their latest published Swiss round's number and status."""
    latest = _published(OuterRef("pk"))
    return tournaments.annotate(
        latest_round=Subquery(latest.values("number")[:1]),
        latest_round_status=Subquery(latest.values("status")[:1]),
    )


def progress(tournament: Tournament) -> str:
    """Where ``tournament`` stands, in a few words."""
    status = tournament.status
    if status == Tournament.Status.FINISHED:
        return _("Decided")
    if status == Tournament.Status.PLAYOFF:
        return _("Play-off")
    if status == Tournament.Status.REGISTRATION:
        return _("Registration open")
    if hasattr(tournament, "latest_round"):  # annotated by with_progress
        number = getattr(tournament, "latest_round", None)
        round_status = getattr(tournament, "latest_round_status", None)
    else:
        latest = _published(tournament).values_list("number", "status").first()
        number, round_status = latest if latest is not None else (None, None)
    if number is None:
        return _("Round 1 is being paired")
    if round_status == Round.Status.PLAYING:
        return _("Round %(n)s is being played") % {"n": number}
    return _("Round %(n)s of %(of)s played") % {"n": number, "of": tournament.swiss_rounds}
