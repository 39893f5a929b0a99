"""Reads from the club register."""

from __future__ import annotations

from django.db.models import QuerySet

from club.models import Player
from club.services import fold


def player_search(*, query: str = "", include_inactive: bool = False) -> QuerySet[Player]:
    """Players whose name or club contains every word of ``query`` (any case or accent)."""
    players = Player.objects.all()
    if not include_inactive:
        players = players.filter(active=True)
    for word in fold(query).split():
        players = players.filter(search_key__contains=word)
    return players.select_related("user")
