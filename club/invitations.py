"""Invitation links: how a player on the register gets an account on the site.

An *invitation* is a link an organiser makes for one player ("Invite" on the
player's page, which sets ``Player.invited_at``) and gives them by e-mail, on
paper with a QR code, or by copying it. On the link's page the player chooses a
username and password. A link works once and for ``INVITATION_VALID_FOR`` after
it was made: its token is signed with the player, the invitation time, whether the
player has an account yet and whether they are an active member, so a newer invitation,
the account made with it, or leaving the club ends it. Leaving ends it for good:
``club.services.player_set_active`` forgets the invitation, so coming back does
not bring an old link back to life.

This module reads and computes; the writes are in ``club.accounts``.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

import segno
from django.core.signing import BadSignature, Signer
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from club.models import Player

INVITATION_VALID_FOR = datetime.timedelta(days=14)


class InvitationProblem(StrEnum):
    """Why an invitation link does not work; ``message`` says it to the player."""

    EXPIRED = "expired"
    USED = "used"
    INVALID = "invalid"
    OUTDATED = "outdated"

    @property
    def message(self) -> str:
        return str(_PROBLEM_MESSAGES[self])


_PROBLEM_MESSAGES = {
    InvitationProblem.EXPIRED: _("This invitation link has expired: links work for 14 days."),
    InvitationProblem.USED: _(
        "This invitation link has been used already: the account it made exists."
    ),
    InvitationProblem.INVALID: _(
        "This invitation link does not work: a newer invitation may have replaced it, "
        "or part of the address is missing."
    ),
    InvitationProblem.OUTDATED: _(
        "This invitation link was made before an update of the site and no longer works: "
        "the same invitation has a new link, which an organiser can show or send you again."
    ),
}


class InvitationError(ValueError):
    """An invitation link was used that does not work; ``problem`` says why."""

    def __init__(self, problem: InvitationProblem) -> None:
        self.problem = problem
        super().__init__(f"invitation link does not work: {problem}")


class _Hashed(NamedTuple):
    """What an invitation token is signed with: when any of it changes, the link stops working."""

    pk: int
    invited_at: datetime.datetime | None
    has_account: bool
    active: bool


def _hashed(player: Player) -> _Hashed:
    return _Hashed(player.pk, player.invited_at, player.user_id is not None, player.active)


def _now() -> datetime.datetime:
    return timezone.now()


class InvitationTokens:
    """A player's invitation token: the invitation's time, signed by Django's ``Signer``
    (docs: "Cryptographic signing") with a salt naming the player's state, so the same
    link can be shown again (on the player's page, in the e-mail, on paper) and stops
    working when the state changes. ``SECRET_KEY_FALLBACKS`` are honoured, as by every
    signature of Django's. It expires ``INVITATION_VALID_FOR`` after the invitation."""

    salt = "club.invitations"

    def _signer(self, state: _Hashed) -> Signer:
        invited = state.invited_at.isoformat() if state.invited_at else ""
        return Signer(salt=f"{self.salt}|{state.pk}|{invited}|{state.has_account}|{state.active}")

    def make_token(self, player: Player) -> str:
        if player.invited_at is None:
            raise ValueError(f"player {player.pk} has not been invited")
        return self._signer(_hashed(player)).sign(str(int(player.invited_at.timestamp())))

    def problem(self, player: Player, token: str) -> InvitationProblem | None:
        """What is wrong with ``token`` as ``player``'s invitation link; None if it works."""
        state = _hashed(player)
        if state.invited_at is not None and self._signed(state, token):
            if _now() - state.invited_at > INVITATION_VALID_FOR:
                return InvitationProblem.EXPIRED
            return None
        if state.has_account and self._signed(state._replace(has_account=False), token):
            return InvitationProblem.USED
        if _OLD_FORM.fullmatch(token):
            return InvitationProblem.OUTDATED
        return InvitationProblem.INVALID

    def _signed(self, state: _Hashed, token: str) -> bool:
        try:
            self._signer(state).unsign(token)
        except BadSignature:
            return False
        return True


_OLD_FORM = re.compile(r"[0-9a-z]{1,13}-[0-9a-f]{20}")
"""A link made before the tokens were Django's signatures (they were password-reset tokens)."""

invitation_tokens = InvitationTokens()


@dataclass(frozen=True)
class Invitation:
    """A player's open invitation: the link's path (make it absolute with the request)."""

    player: Player
    path: str
    expires: datetime.datetime


def invitation_for(player: Player) -> Invitation | None:
    """The player's invitation if it is open (made, not used, not expired), else None."""
    if player.invited_at is None or player.user_id is not None or not player.active:
        return None
    token = invitation_tokens.make_token(player)
    if invitation_tokens.problem(player, token) is not None:  # expired
        return None
    return Invitation(
        player=player,
        path=reverse("invitation_accept", args=[player.pk, token]),
        expires=player.invited_at + INVITATION_VALID_FOR,
    )


def qr_code_svg(url: str, *, title: str) -> SafeString:
    """``url`` as a QR code in inline SVG, to print; ``title`` is its text alternative."""
    code = segno.make(url, error="m", micro=False)
    # A viewBox and no fixed size: the stylesheet sets how big it prints.
    svg = code.svg_inline(border=4, title=title, svgclass="qr-code", lineclass=None, omitsize=True)
    # segno writes the SVG itself and escapes the title; nothing else in it comes from a user.
    return mark_safe(svg)
