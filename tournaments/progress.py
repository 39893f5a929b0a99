"""Where a tournament stands, said as a visitor wants to know it: "Round 4 is being
played", "Round 3 of 6 played", "Play-off", "Decided", not the name of its stage ("Swiss
rounds").

Lists annotate their tournaments with their latest published round (``with_progress``:
one subquery, not a query a row), and templates say only what was annotated
(``annotated``); a tournament read alone is asked once, by its view (``progress``).
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
    """Where ``tournament`` stands, in a few words: one query unless ``with_progress``
    annotated it (a page's own tournament)."""
    if hasattr(tournament, "latest_round") or tournament.status != Tournament.Status.SWISS:
        return _said(tournament, *_annotation(tournament))
    latest = _published(tournament).values_list("number", "status").first()
    number, round_status = latest if latest is not None else (None, None)
    return _said(tournament, number, round_status)


def annotated(tournament: Tournament) -> str:
    """Where a tournament of a list stands, from what ``with_progress`` annotated: no query
    (a template's ``standing_now``); a tournament read without it is a mistake."""
    if not hasattr(tournament, "latest_round"):
        raise ValueError(f"{tournament.slug}: read with with_progress to say where it stands")
    return _said(tournament, *_annotation(tournament))


def _annotation(tournament: Tournament) -> tuple[int | None, str | None]:
    return getattr(tournament, "latest_round", None), getattr(
        tournament, "latest_round_status", None
    )


def _said(tournament: Tournament, number: int | None, round_status: str | None) -> str:
    status = tournament.status
    if status == Tournament.Status.FINISHED:
        return _("Decided")
    if status == Tournament.Status.PLAYOFF:
        return _("Play-off")
    if status == Tournament.Status.REGISTRATION:
        return _("Registration open")
    if number is None:
        return _("Round 1 is being paired")
    if round_status == Round.Status.PLAYING:
        return _("Round %(n)s is being played") % {"n": number}
    return _("Round %(n)s of %(of)s played") % {"n": number, "of": tournament.swiss_rounds}
