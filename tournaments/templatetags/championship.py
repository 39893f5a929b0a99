"""Championship sections for pages outside the tournaments app: the home page, a player's page."""

from __future__ import annotations

from typing import Any

from django import template

from club.models import Player
from tournaments import selectors

register = template.Library()


@register.inclusion_tag("tournaments/includes/home_championship.html")
def championship_summary() -> dict[str, Any]:
    """The current championship and the champions by year."""
    return {
        "championship": selectors.current_championship(),
        "champions": selectors.champions_by_year()[:10],
    }


@register.inclusion_tag("tournaments/includes/player_tournaments.html")
def player_tournaments(player: Player) -> dict[str, Any]:
    """The tournaments a player has entered, newest first."""
    return {"entries": selectors.entries_of(player)}
