"""Championship sections for pages outside the tournaments app: the home page, a player's page."""

from __future__ import annotations

from typing import Any

from django import template
from django.template import Context

from club.models import Player
from tournaments import selectors
from tournaments.access import SESSION_KEY

register = template.Library()


@register.inclusion_tag("tournaments/includes/home_championship.html")
def championship_summary() -> dict[str, Any]:
    """The current championship and the champions by year."""
    return {
        "championship": selectors.current_championship(),
        "champions": selectors.champions_by_year()[:10],
    }


@register.inclusion_tag("tournaments/includes/my_tables_now.html", takes_context=True)
def my_tables_now(context: Context) -> dict[str, Any]:
    """The visitor's match now in each tournament being played that they are in."""
    request = context["request"]
    private_keys = request.session.get(SESSION_KEY, {})
    return {"tables": selectors.my_tables_now(request.user, private_keys)}


@register.inclusion_tag("tournaments/includes/player_tournaments.html")
def player_tournaments(player: Player) -> dict[str, Any]:
    """The tournaments a player has entered, newest first."""
    return {"entries": selectors.entries_of(player)}
