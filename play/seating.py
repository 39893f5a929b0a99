"""The seats of a table of three or four as a reader sees them, named from where they sit.

Terms (docs/rules.md §7): seats are numbered clockwise, so the seat after the reader's is
on their *left*; with four, the seat across the table is their *partner* and the two
others, *left* and *right*, the other partnership. A *side* keeps one score: each player
with three, each partnership with four. The names are the reader's language's, made when
asked (``table_seats``), so that a practice game and, later, a table of members share them.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from play.narration import Seats
from scoring.rules.seats import seating


def seat_names(seats: int, *, viewer: int = 0) -> tuple[str, ...]:
    """Each seat's name as ``viewer`` sees the table: "You", "Left", ("Partner"), "Right"."""
    relative = {
        3: (_("You"), _("Left"), _("Right")),
        4: (_("You"), _("Left"), _("Partner"), _("Right")),
    }[seats]
    return tuple(relative[(seat - viewer) % seats] for seat in range(seats))


def side_names(seats: int, *, viewer: int = 0) -> tuple[str, ...]:
    """Each side's name: the seats' own with three; with four "You and your partner" and
    "Left and Right", the reader's partnership first or second as its side is."""
    if seats == 3:
        return seat_names(seats, viewer=viewer)
    ours, theirs = _("You and your partner"), _("Left and Right")
    return (ours, theirs) if viewer % 2 == 0 else (theirs, ours)


def table_seats(seats: int, *, viewer: int = 0) -> Seats:
    """The narration's seats of a table of three or four, read from ``viewer``'s seat."""
    return Seats(
        viewer=viewer,
        names=seat_names(seats, viewer=viewer),
        side_of=seating(seats).side_of,
        side_names=side_names(seats, viewer=viewer),
    )
