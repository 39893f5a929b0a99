"""Invitation links: how a player on the register gets an account on the site.

An *invitation* is a link an organiser makes for one player ("Invite" on the
player's page, which sets ``Player.invited_at``) and gives them by e-mail, on
paper with a QR code, or by copying it. On the link's page the player chooses a
username and password. A link works once and for ``INVITATION_VALID_FOR`` after
it was made: its token hashes the player, the invitation time, whether the player
has an account yet and whether they are an active member, so a newer invitation,
the account made with it, or leaving the club ends it. Leaving ends it for good:
``club.services.player_set_active`` forgets the invitation, so coming back does
not bring an old link back to life.

This module reads and computes; the writes are in ``club.accounts``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

import segno
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.http import base36_to_int
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from club.models import Player

INVITATION_VALID_FOR = datetime.timedelta(days=14)


class InvitationProblem(StrEnum):
    """Why an invitation link does not work; ``message`` says it to the player."""

    EXPIRED = "expired"
    USED = "used"
    INVALID = "invalid"

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
}


class InvitationError(ValueError):
    """An invitation link was used that does not work; ``problem`` says why."""

    def __init__(self, problem: InvitationProblem) -> None:
        self.problem = problem
        super().__init__(f"invitation link does not work: {problem}")


class _Hashed(NamedTuple):
    """What an invitation token hashes: when any of it changes, the link stops working."""

    pk: int
    invited_at: datetime.datetime | None
    has_account: bool
    active: bool


def _hashed(player: Player) -> _Hashed:
    return _Hashed(player.pk, player.invited_at, player.user_id is not None, player.active)


def _naive_utc(moment: datetime.datetime) -> datetime.datetime:
    return moment.astimezone(datetime.UTC).replace(tzinfo=None)


class InvitationTokenGenerator(PasswordResetTokenGenerator):
    """Django's password-reset tokens, for a player's invitation instead of a user's password.

    A token's timestamp is the invitation time itself, so the same link can be
    shown again (on the player's page, in the e-mail, on paper) and always
    expires ``INVITATION_VALID_FOR`` after the invitation.
    """

    key_salt = "club.invitations.InvitationTokenGenerator"

    # Django's token code hashes whatever it is given with ``_make_hash_value``; here that is
    # a player's ``_Hashed`` state, where django-stubs expects a user: hence the ignores.

    def make_token(self, player: Player) -> str:  # type: ignore[override]
        if player.invited_at is None:
            raise ValueError(f"player {player.pk} has not been invited")
        timestamp = self._num_seconds(_naive_utc(player.invited_at))
        return self._make_token_with_timestamp(_hashed(player), timestamp, self.secret)  # type: ignore[arg-type]

    def check_token(self, player: Player, token: str) -> bool:  # type: ignore[override]
        return self.problem(player, token) is None

    def problem(self, player: Player, token: str) -> InvitationProblem | None:
        """What is wrong with ``token`` as ``player``'s invitation link; None if it works."""
        try:
            timestamp = base36_to_int(token.split("-")[0])
        except ValueError:
            return InvitationProblem.INVALID
        state = _hashed(player)
        if self._signed(state, timestamp, token):
            age = self._num_seconds(self._now()) - timestamp
            if age > INVITATION_VALID_FOR.total_seconds():
                return InvitationProblem.EXPIRED
            return None
        if state.has_account and self._signed(state._replace(has_account=False), timestamp, token):
            return InvitationProblem.USED
        return InvitationProblem.INVALID

    def _signed(self, state: _Hashed, timestamp: int, token: str) -> bool:
        return any(
            constant_time_compare(
                self._make_token_with_timestamp(state, timestamp, secret),  # type: ignore[arg-type]
                token,
            )
            for secret in [self.secret, *self.secret_fallbacks]
        )

    def _make_hash_value(self, state: _Hashed, timestamp: int) -> str:  # type: ignore[override]
        invited = state.invited_at.isoformat() if state.invited_at else ""
        return f"{state.pk}|{invited}|{state.has_account}|{state.active}|{timestamp}"

    def _now(self) -> datetime.datetime:
        return _naive_utc(timezone.now())


invitation_tokens = InvitationTokenGenerator()


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
