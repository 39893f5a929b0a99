"""How a tournament that does not count is told apart wherever it is shown or listed.

A *rehearsal* (``Tournament.rehearsal``) is a tournament played by the computer to try
the site out (``manage.py simulate_tournament``): never rated, never the year's
championship. An *unrated* tournament is any other whose matches do not count on the
rating list (a friendly tournament, an imported copy). Both carry a *mark*, in words
(never a colour alone), in every list of tournaments and on each of their own pages and
documents; a *real* tournament (rated) carries none. Lists show the real tournaments
first, then the unrated ones, then the rehearsals (``LISTED_FIRST``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import Tournament

LISTED_FIRST = ("rehearsal", "-rated")
"""The order of a list of tournaments before its own: rated, then unrated, then rehearsals."""


def listed_first(prefix: str = "") -> list[str]:
    """``LISTED_FIRST`` for a query that reaches the tournament through ``prefix``
    (``"tournament__"`` for entries)."""
    return [f"-{prefix}{key[1:]}" if key[0] == "-" else f"{prefix}{key}" for key in LISTED_FIRST]


def rating_mark(tournament: Tournament) -> str:
    """The tournament's mark: "Rehearsal — not rated", "Not rated", or "" for a real one."""
    if tournament.rehearsal:
        return _("Rehearsal — not rated")
    if not tournament.rated:
        return _("Not rated")
    return ""


def rating_note(tournament: Tournament) -> str:
    """What the mark means, for the tournament's own pages ("" for a real one)."""
    if tournament.rehearsal:
        return _(
            "Played by the computer to try the site out: its results do not count on the "
            "club's rating list."
        )
    if not tournament.rated:
        return _("Its matches do not count on the club's rating list.")
    return ""
