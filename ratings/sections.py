"""The rating list's sections on other apps' pages (``core.sections``): a member's rating
panel on their page in the register, a finished tournament's favourites in its facts.

Each reads all it shows here, before the page is drawn; its template only draws it.
"""

from __future__ import annotations

from django.http import HttpRequest

from club.models import Player
from core.caching import computed_once
from core.sections import Section
from ratings.chart import history_chart
from ratings.selectors import (
    PROVISIONAL_DEVIATION,
    best_wins,
    favourites_record,
    list_updating,
    list_version,
    rating_history,
    ratings_now,
)
from tournaments.models import Tournament

DAY = 24 * 60 * 60


def rating_panel(request: HttpRequest, *, player: Player) -> Section:
    """On a member's page: their rating now, its history (a chart and a table) and their
    best wins; nothing but a line when they have no rated match."""
    history = rating_history(player=player)
    now = ratings_now([player.pk]).get(player.pk)
    return Section(
        "ratings/player_panel.html",
        {
            "player": player,
            "now": now,
            "provisional": now is not None and now.deviation > PROVISIONAL_DEVIATION,
            "history": list(reversed(history)),  # the table: the latest first
            "chart": history_chart(
                [(point.rating.rating, point.rating.deviation) for point in history]
            ),
            "best_wins": best_wins(player=player) if history else [],
            "updating": list_updating(),
        },
    )


def favourites(request: HttpRequest, *, tournament: Tournament) -> Section | None:
    """On a finished tournament's page: how many of its matches the favourite won (kept
    until the list changes: the count reads every round's ratings before it)."""
    if tournament.status != Tournament.Status.FINISHED:
        return None
    key = f"favourites:{tournament.pk}:{list_version()}"
    record = computed_once(
        key, lambda: favourites_record(tournament=tournament.pk), timeout=DAY, wait=5.0
    )
    won, of = record or (0, 0)
    return Section("ratings/favourites.html", {"won": won, "of": of})
