"""The game reviews on other pages: a member's accuracy over their last reviewed games
(on the club's player page, which does not know play)."""

from __future__ import annotations

from typing import Any

from django import template

from club.models import Player
from play.accuracy_chart import accuracy_chart
from play.reviews import member_accuracy

register = template.Library()

LAST_GAMES = 20


@register.inclusion_tag("play/accuracy_panel.html")
def accuracy_panel(player: Player) -> dict[str, Any]:
    """On a member's page: their accuracy in the discards and the play over their last
    ``LAST_GAMES`` reviewed games, a chart and a table; nothing when they have none."""
    points = member_accuracy(player.user, last=LAST_GAMES) if player.user is not None else []
    return {
        "player": player,
        "games": list(reversed(points)),  # the table: the latest first
        "chart": accuracy_chart([(p.discard_accuracy, p.play_accuracy) for p in points]),
    }
