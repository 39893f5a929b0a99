"""The rating list as pages and the printed document show it (printed by ``printing``,
like the standings). A line's *change* is its rating's move in the latest
tournament rated: signed, whole, empty when the member did not play there, and *new*
when they were first rated there."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from club.names import distinct_names
from printing.documents import Document
from ratings.selectors import (
    PROVISIONAL_DEVIATION,
    LastTournament,
    ListLine,
    last_tournament,
    rating_list,
)
from tournaments.tiebreaks import signed

# The name the render task builds the printed list by (``printing.builders``).
RATING_LIST = "ratings.rating_list"


@dataclass(frozen=True, slots=True)
class Row:
    line: ListLine
    change: str
    new: bool
    name: str
    """The member's name as the list tells namesakes apart (``club.names``): a phone hides
    the club column, and two Johan Andersson must still be two."""


def listed(lines: list[ListLine], last: LastTournament | None) -> list[Row]:
    """The list's lines with their change in the latest tournament rated."""
    changes = last.changes if last is not None else {}
    names = distinct_names(line.player for line in lines)
    rows = []
    for line in lines:
        name = names[line.player.pk]
        if line.player.pk not in changes:  # not in the latest tournament
            rows.append(Row(line, "", new=False, name=name))
            continue
        change = changes[line.player.pk]
        shown = "" if change is None else signed(round(change))
        rows.append(Row(line, shown, change is None, name=name))
    return rows


def rating_list_title(club: str | None = None) -> str:
    return _("Rating list") if club is None else _("Rating list: %(club)s") % {"club": club}


def rating_list_document(*, club: str | None = None) -> Document:
    """The list (``club``: that club's members, with their rank on the whole list)."""
    last = last_tournament()
    return Document(
        kind="rating_list",
        title=rating_list_title(club),
        filename="rating-list.pdf",
        preliminary=False,
        context={
            "rows": listed(rating_list(club=club), last),
            "last": last,
            "provisional_deviation": round(PROVISIONAL_DEVIATION),
        },
    )
