"""The mark of a rehearsal or an unrated tournament, for every page and document that
shows or lists one (``tournaments.marks``), and where a tournament stands
(``tournaments.progress``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import template

from tournaments import marks, progress

if TYPE_CHECKING:
    from tournaments.models import Tournament

register = template.Library()


@register.filter
def standing_now(tournament: Tournament) -> str:
    """Where a tournament of a list stands: "Round 4 is being played", from what its
    selector annotated (``tournaments.progress.annotated``: no query)."""
    return progress.annotated(tournament)


@register.filter
def rating_mark(tournament: Tournament) -> str:
    """The mark as plain text ("" for a real tournament): for the printed documents."""
    return marks.rating_mark(tournament)


@register.inclusion_tag("tournaments/includes/rating_mark.html")
def rating_tag(tournament: Tournament) -> dict[str, Any]:
    """The mark as a tag beside the tournament's name in a list (nothing for a real one)."""
    return {"mark": marks.rating_mark(tournament), "rehearsal": tournament.rehearsal}


@register.inclusion_tag("tournaments/includes/rating_notice.html")
def rating_notice(tournament: Tournament) -> dict[str, Any]:
    """The mark with what it means, at the top of the tournament's own pages."""
    return {
        "mark": marks.rating_mark(tournament),
        "note": marks.rating_note(tournament),
        "rehearsal": tournament.rehearsal,
    }
