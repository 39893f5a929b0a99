"""Writes to the site's accounts: invitations and accepting them, closing accounts, e-mail.

An *account* is a Django user; a player on the register has at most one
(``Player.user``). Organisers invite a player (``club.invitations``); the player
makes their own account from the link. An account is *closed* (``is_active``
off) when someone leaves: its password stops working, its sessions end, and the
player and their results stay on the register. The e-mail address of a player
with an account is kept the same on both, since password resets go to the
account's address.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Field
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from club import mail
from club.errors import ClubError
from club.invitations import (
    Invitation,
    InvitationError,
    invitation_for,
    invitation_tokens,
)
from club.models import InvitationMail, Player


@transaction.atomic
def invitation_create(*, player: Player) -> Invitation:
    """Invite the player (again): a new link, and every older link stops working."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        raise ClubError(_("%(player)s already has an account.") % {"player": player})
    if not player.active:
        raise ClubError(
            _("%(player)s is not an active member; make them active first.") % {"player": player}
        )
    player.invited_at = timezone.now()
    player.save(update_fields=["invited_at"])
    invitation = invitation_for(player)
    assert invitation is not None, "a fresh invitation is open"
    return invitation


def invitation_send(*, invitation: Invitation, url: str, organiser: User) -> InvitationMail:
    """Queue the e-mail of the invitation link ``url`` to the player, in the current language.

    The worker sends it and tries again if the mail server fails (``club.mail``); the
    returned record says, on the player's page, whether it went out.
    """
    player = invitation.player
    if not player.email:
        raise ClubError(_("%(player)s has no e-mail address.") % {"player": player})
    sender = organiser.get_full_name() or organiser.get_username()
    context = {"player": player, "url": url, "expires": invitation.expires, "sender": sender}
    written = mail.letter(
        subject=_("Your invitation to the Swedish Cribbage Club's site"),
        body=render_to_string("club/invitation_email.txt", context),
        to=[player.email],
        reply_to=[organiser.email] if organiser.email else None,
    )
    return mail.invitation_mail_queue(player=player, letter=written)


def password_link(user: User) -> tuple[str, datetime.datetime]:
    """The path of a link to choose a new password for ``user``, and until when it works.

    Django's own password reset link (``password_reset_confirm``), made for an organiser
    to hand over when a member cannot log in: a forgotten password, or an account that
    was made for them without one. It works once: choosing a password, or logging in,
    ends it.
    """
    if not user.is_active:
        raise ClubError(_("The account is closed: reopen it first."))
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    expires = timezone.now() + datetime.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    return path, expires


def password_link_send(*, player: Player, url: str, expires: datetime.datetime, by: User) -> None:
    """Queue the e-mail of the password link ``url`` to the member's account address."""
    user = player.user
    assert user is not None, "a link is made for an account"
    if not user.email:
        raise ClubError(_("%(player)s has no e-mail address.") % {"player": player})
    sender = by.get_full_name() or by.get_username()
    context = {
        "player": player,
        "username": user.get_username(),
        "url": url,
        "expires": expires,
        "sender": sender,
    }
    mail.letter_queue(
        mail.letter(
            subject=_("A link to choose your password on the Swedish Cribbage Club's site"),
            body=render_to_string("club/password_link_email.txt", context),
            to=[user.email],
            reply_to=[by.email] if by.email else None,
        )
    )


def _username_taken(username: str) -> ValidationError:
    taken = _("The username %(username)s is taken; choose another.")
    return ValidationError({"username": taken % {"username": username}})


@transaction.atomic
def invitation_accept(*, player: Player, token: str, username: str, password: str) -> User:
    """Make the player's account from their invitation link; return the new user.

    Raises ``InvitationError`` when the link does not work (any more), and
    ``ValidationError`` (by field: ``username``, ``password1``) for a taken or
    malformed username or a password the validators refuse.
    """
    player = Player.objects.select_for_update().get(pk=player.pk)
    problem = invitation_tokens.problem(player, token)
    if problem is not None:
        raise InvitationError(problem)
    users = get_user_model()
    username = users.normalize_username(username.strip())
    if users.objects.filter(username__iexact=username).exists():
        raise _username_taken(username)
    user = users(email=player.email)
    username_field = users._meta.get_field(users.USERNAME_FIELD)
    assert isinstance(username_field, Field), "the username is a column of the user table"
    try:
        username = username_field.clean(username, user)
    except ValidationError as error:
        raise ValidationError({"username": error.messages}) from error
    setattr(user, users.USERNAME_FIELD, username)
    try:
        password_validation.validate_password(password, user)
    except ValidationError as error:
        raise ValidationError({"password1": error.messages}) from error
    user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as error:
        # Another invitation took the name since the check above (both accepted at once).
        raise _username_taken(username) from error
    player.user = user
    player.save(update_fields=["user"])
    return user


def account_set_active(*, user: User, active: bool, by: User | None = None) -> None:
    """Close (or reopen) an account: a closed one cannot log in; nothing is deleted."""
    if not active and by is not None and user.pk == by.pk:
        raise ClubError(_("You cannot close your own account."))
    user.is_active = active
    user.save(update_fields=["is_active"])


def account_set_email(*, user: User, email: str) -> None:
    """The account's address, where password resets go; kept equal to its player's."""
    if user.email != email:
        user.email = email
        user.save(update_fields=["email"])


@transaction.atomic
def account_change_email(*, user: User, email: str) -> None:
    """The member's own new e-mail address, on their account and their player alike.

    The page has checked the member's current password first, as a login is
    (``club.lockouts.current_password_check``: a wrong one counts toward the lock).
    """
    email = email.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError as error:
            raise ValidationError({"email": error.messages}) from error
    account_set_email(user=user, email=email)
    Player.objects.filter(user=user).update(email=email)
