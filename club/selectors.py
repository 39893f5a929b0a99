"""Reads from the club register: its members, never the made-up players of a rehearsal."""

from __future__ import annotations

from django.db.models import QuerySet

from club.models import InvitationMail, Player
from club.services import fold


def members() -> QuerySet[Player]:
    """Everyone on the register: the players who are not made up for a rehearsal
    (``Player.fictional``), active or not."""
    return Player.objects.filter(fictional=False)


def player_search(*, query: str = "", include_inactive: bool = False) -> QuerySet[Player]:
    """Members whose name or club contains every word of ``query`` (any case or accent)."""
    players = members()
    if not include_inactive:
        players = players.filter(active=True)
    for word in fold(query).split():
        players = players.filter(search_key__contains=word)
    return players.select_related("user")


def possible_twins(*, name: str) -> list[Player]:
    """Members already on the register under this name, whatever their club.

    Adding a member asks "is this the same person?" when any are found, instead of
    silently creating a twin; the clubs shown tell the organiser which is which.
    Case and accents are ignored.
    """
    wanted = fold(name.strip())
    if not wanted:
        return []
    candidates = members().filter(search_key__startswith=f"{wanted} ")
    return [player for player in candidates if fold(player.name) == wanted]


def invitation_mail_latest(*, player: Player) -> InvitationMail | None:
    """The latest e-mail of the player's current invitation (queued, sent or not sent)."""
    if player.invited_at is None:
        return None
    mails = InvitationMail.objects.filter(player=player, queued_at__gte=player.invited_at)
    return mails.order_by("-queued_at", "-pk").first()
