"""Writes to the club register. Each service validates, then saves in one transaction."""

from __future__ import annotations

import datetime
import unicodedata

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from club.accounts import account_set_active, account_set_email
from club.models import Player
from club.signals import player_changed


def fold(text: str) -> str:
    """Case- and accent-folded text for searching: "Östlund" -> "ostlund"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _check_account_free(user: User | None, player: Player | None) -> None:
    if user is None:
        return
    taken = Player.objects.filter(user=user)
    if player is not None and player.pk:
        taken = taken.exclude(pk=player.pk)
    other = taken.first()
    if other is not None:
        raise ValidationError(
            {"user": _("This account already belongs to %(player)s.") % {"player": other}}
        )


@transaction.atomic
def player_create(
    *,
    name: str,
    club: str,
    email: str = "",
    user: User | None = None,
    joined: datetime.date | None = None,
    fictional: bool = False,
) -> Player:
    """A new member of the register; with ``fictional``, a player made up for a rehearsal
    instead (never a member, never with an account: ``Player.fictional``)."""
    player = Player(
        name=name.strip(), club=club.strip(), email=email.strip(), user=user, fictional=fictional
    )
    if joined is not None:
        player.joined = joined
    _check_account_free(user, None)
    player.search_key = fold(f"{player.name} {player.club}")
    player.full_clean()
    player.save()
    return player


@transaction.atomic
def player_update(*, player: Player, **fields: object) -> Player:
    for field, value in fields.items():
        setattr(player, field, value.strip() if isinstance(value, str) else value)
    _check_account_free(player.user, player)
    player.search_key = fold(f"{player.name} {player.club}")
    player.full_clean()
    player.save()
    player_changed.announce(player=player.pk)
    if "email" in fields and player.user is not None:
        account_set_email(user=player.user, email=player.email)
    return player


@transaction.atomic
def player_set_active(
    *,
    player: Player,
    active: bool,
    close_account: bool = False,
    by: User | None = None,
) -> Player:
    """Deactivate (or bring back) a member; players are never deleted once they have played.

    With ``close_account``, a member who leaves can no longer log in either.
    Bringing a member back leaves their account as it is: reopening it is a
    separate step, so an account closed for its own reasons stays closed.
    Leaving ends the member's invitation for good: bringing them back does not
    make an old link work again; an organiser invites them anew.
    """
    player.active = active
    fields = ["active"]
    if not active and player.invited_at is not None:
        player.invited_at = None
        fields.append("invited_at")
    player.save(update_fields=fields)
    if not active and close_account and player.user is not None and player.user.is_active:
        account_set_active(user=player.user, active=False, by=by)
    return player
