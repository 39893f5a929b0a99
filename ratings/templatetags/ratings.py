"""The rating list on other pages: a member's rating panel, a finished tournament's
favourites."""

from __future__ import annotations

from typing import Any

from django import template

from club.models import Player
from core.caching import computed_once
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

register = template.Library()


@register.inclusion_tag("ratings/player_panel.html")
def rating_panel(player: Player) -> dict[str, Any]:
    """On a member's page: their rating now, its history (a chart and a table) and their
    best wins; nothing but a line when they have no rated match."""
    history = rating_history(player=player)
    now = ratings_now([player.pk]).get(player.pk)
    return {
        "player": player,
        "now": now,
        "provisional": now is not None and now.deviation > PROVISIONAL_DEVIATION,
        "history": list(reversed(history)),  # the table: the latest first
        "chart": history_chart(
            [(point.rating.rating, point.rating.deviation) for point in history]
        ),
        "best_wins": best_wins(player=player) if history else [],
        "updating": list_updating(),
    }


@register.inclusion_tag("ratings/favourites.html")
def favourites_line(tournament: Tournament) -> dict[str, Any]:
    """On a finished tournament's page: how many of its matches the favourite won (kept
    until the list changes: the count reads every round's ratings before it)."""
    key = f"favourites:{tournament.pk}:{list_version()}"
    record = computed_once(
        key, lambda: favourites_record(tournament=tournament.pk), timeout=DAY, wait=5.0
    )
    won, of = record or (0, 0)
    return {"won": won, "of": of}


DAY = 24 * 60 * 60
