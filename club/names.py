"""Players' names in a list, told apart when two players share one.

The club has members with the same name (two Johan Andersson). Wherever a list of
players is read to find oneself or a table (the organiser's desk, a round's table of
pairings, the pairings' find-your-table list), a shared name is followed by the
player's club (or town), and when that is shared too, by their member number. A member
plays games on the site under their player's name (``member_name``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Protocol

from django.contrib.auth.models import User
from django.utils.translation import gettext as _


class Named(Protocol):
    """A player as the helper reads one (``club.models.Player``)."""

    pk: int
    name: str
    club: str


def distinct_names(players: Iterable[Named]) -> dict[int, str]:
    """Each player's name (by ``pk``) as a list shows it: alone when nobody else in the
    list has it, else with the club, and with the member number when the club is shared
    too."""
    unique = {player.pk: player for player in players}
    names = Counter(player.name for player in unique.values())
    clubs = Counter((player.name, player.club) for player in unique.values())
    shown = {}
    for pk, player in unique.items():
        if names[player.name] == 1:
            shown[pk] = player.name
        elif clubs[(player.name, player.club)] == 1 and player.club:
            shown[pk] = _("%(name)s (%(club)s)") % {"name": player.name, "club": player.club}
        elif player.club:
            shown[pk] = _("%(name)s (%(club)s, member no. %(number)s)") % {
                "name": player.name,
                "club": player.club,
                "number": pk,
            }
        else:
            shown[pk] = _("%(name)s (member no. %(number)s)") % {
                "name": player.name,
                "number": pk,
            }
    return shown


def member_name(user: User) -> str:
    """The name a member plays under: their player's in the register, else their username
    (the player read with the account, or one query)."""
    player = getattr(user, "player", None)
    return player.name if player is not None else user.get_username()
