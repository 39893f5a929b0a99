"""The tournaments' sections on the register's pages (``core.sections``): the championship
and the visitor's matches now on the home page, the tournaments on a member's page.

Each reads all it shows here, before the page is drawn; its template only draws it.
"""

from __future__ import annotations

from django.http import HttpRequest

from club.models import Player
from core.sections import Section
from tournaments import selectors
from tournaments.access import SESSION_KEY


def championship_summary(request: HttpRequest) -> Section:
    """The current championship (where it stands, its champion) and the champions by year."""
    return Section(
        "tournaments/includes/home_championship.html",
        {
            "championship": selectors.current_championship(),
            "champions": list(selectors.champions_by_year()[:10]),
        },
    )


def my_tables_now(request: HttpRequest) -> Section:
    """The visitor's match now in each tournament being played that they are in."""
    private_keys = request.session.get(SESSION_KEY, {})
    tables = selectors.my_tables_now(request.user, private_keys)
    return Section("tournaments/includes/my_tables_now.html", {"tables": tables})


def player_tournaments(request: HttpRequest, *, player: Player) -> Section:
    """The tournaments ``player`` has entered, newest first."""
    entries = list(selectors.entries_of(player))
    return Section("tournaments/includes/player_tournaments.html", {"entries": entries})
