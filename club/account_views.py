"""Pages for accounts: a member's own account, invitations, and closing accounts.

Organisers invite a player from the player's page, then copy, e-mail or print
the link; the player opens it and makes their account (``invitation_accept``).

Password reset requests are throttled in silence (docs/operating.md, Throttles): past
``RESET_REQUESTS_PER_CLIENT`` from one address, or ``RESET_MAILS_PER_EMAIL`` to one
e-mail address, the page says what it always says and no mail goes out, so it tells
nobody whether an address has an account or was asked for too often.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club import accounts
from club.forms import (
    AccountEmailForm,
    CurrentPasswordChangeForm,
    InvitationAcceptForm,
    QueuedPasswordResetForm,
)
from club.invitations import (
    Invitation,
    InvitationError,
    InvitationProblem,
    invitation_for,
    invitation_tokens,
    qr_code_svg,
)
from club.models import Player
from club.roles import organiser_required
from club.selectors import members
from core.errors import run_service
from core.http import AuthenticatedHttpRequest
from core.throttles import over_limit

RESET_REQUESTS_PER_CLIENT = "10/10m"
RESET_MAILS_PER_EMAIL = "3/h"


def _reset_refused(request: HttpRequest, *, email: str) -> bool:
    """Count a reset request against its address, then its e-mail; True past either limit.

    Both fail closed: a mail cannot be called back, and while the cache cannot count them
    a script could otherwise mail one member, or every member, as often as it liked. A
    member who gets no mail asks again in a few minutes, or asks an organiser.
    """
    by_client = over_limit(
        request,
        group="password-reset-client",
        key="ip",
        rate=RESET_REQUESTS_PER_CLIENT,
        fail_open=False,
    )
    if by_client:
        return True
    return over_limit(
        request,
        group="password-reset-email",
        key=lambda group, request: email.strip().casefold(),
        rate=RESET_MAILS_PER_EMAIL,
        fail_open=False,
    )


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset page; past a limit the same answer, and no mail is sent.

    The mail is sent by the worker (``QueuedPasswordResetForm``), so a slow mail server
    never holds the page."""

    form_class = QueuedPasswordResetForm

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        if _reset_refused(self.request, email=form.cleaned_data["email"]):
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change page; a wrong old password counts toward the lock."""

    form_class = CurrentPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


def _back_to_player(player: Player) -> HttpResponse:
    return redirect(reverse("player_detail", args=[player.pk]) + "#account")


@login_required
@require_safe
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = AccountEmailForm(initial={"email": request.user.email}, request=request)
    return render(request, "registration/account.html", {"email_form": form})


@login_required
@require_POST
def account_email(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = AccountEmailForm(request.POST, request=request)
    if form.is_valid():
        try:
            accounts.account_change_email(user=request.user, email=form.cleaned_data["email"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Your e-mail address was saved."))
            return redirect("account")
    return render(request, "registration/account.html", {"email_form": form})


@organiser_required
@require_POST
def player_invite(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(members(), pk=pk)
    made = _("A new invitation link for %(player)s is ready; older links no longer work.")
    run_service(request, accounts.invitation_create, made % {"player": player}, player=player)
    return _back_to_player(player)


def _with_invitation(pk: int) -> tuple[Player, Invitation | None]:
    """The member ``pk`` (else 404) and their open invitation, if they have one."""
    player = get_object_or_404(members(), pk=pk)
    return player, invitation_for(player)


@organiser_required
@require_POST
def player_invitation_send(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    player, invitation = _with_invitation(pk)
    if invitation is None:
        messages.error(request, _("%(player)s has no open invitation.") % {"player": player})
        return _back_to_player(player)
    url = request.build_absolute_uri(invitation.path)
    sent = _("The invitation to %(email)s is on its way; this page says whether it was sent.")
    run_service(
        request,
        accounts.invitation_send,
        sent % {"email": player.email},
        invitation=invitation,
        url=url,
        organiser=request.user,
    )
    return _back_to_player(player)


@organiser_required
@require_safe
def player_invitation_print(request: HttpRequest, pk: int) -> HttpResponse:
    player, invitation = _with_invitation(pk)
    context: dict[str, object] = {"player": player, "invitation": invitation}
    if invitation is not None:
        url = request.build_absolute_uri(invitation.path)
        title = _("QR code of the invitation link for %(player)s") % {"player": player.name}
        context.update(invitation_url=url, qr_code=qr_code_svg(url, title=title))
    return render(request, "club/invitation_print.html", context)


def _with_account(player: Player) -> User | None:
    user = player.user
    return user if user is not None and user.is_active else None


@organiser_required
@require_safe
def player_password_link(request: HttpRequest, pk: int) -> HttpResponse:
    """A link for the member to choose a new password, to copy, print or scan at the table
    (a member who cannot log in: a forgotten password, or an account made for them)."""
    player = get_object_or_404(members().select_related("user"), pk=pk)
    user = _with_account(player)
    context: dict[str, object] = {"player": player}
    if user is not None:
        path, expires = accounts.password_link(user)
        url = request.build_absolute_uri(path)
        title = _("QR code of the password link for %(player)s") % {"player": player.name}
        context.update(
            account=user, url=url, expires=expires, qr_code=qr_code_svg(url, title=title)
        )
    return render(request, "club/password_link.html", context)


@organiser_required
@require_POST
def player_password_link_send(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(members().select_related("user"), pk=pk)
    user = _with_account(player)
    if user is None:
        messages.error(request, _("%(player)s has no open account.") % {"player": player})
        return _back_to_player(player)

    def send() -> None:  # the link itself is refused too for a closed account
        path, expires = accounts.password_link(user)
        url = request.build_absolute_uri(path)
        accounts.password_link_send(player=player, url=url, expires=expires, by=request.user)

    sent = _("A link to choose a new password is on its way to %(email)s.")
    run_service(request, send, sent % {"email": user.email})
    return _back_to_player(player)


@organiser_required
@require_POST
def player_account_set_active(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(members().select_related("user"), pk=pk)
    if player.user is None:
        messages.error(request, _("%(player)s has no account.") % {"player": player})
        return _back_to_player(player)
    active = request.POST.get("active") == "1"
    if active:
        done = _("%(player)s can log in again.")
    else:
        done = _("The account of %(player)s is closed: they can no longer log in.")
    run_service(
        request,
        accounts.account_set_active,
        done % {"player": player},
        user=player.user,
        active=active,
        by=request.user,
    )
    return _back_to_player(player)


def _invitation_problem(
    request: HttpRequest, player: Player | None, problem: InvitationProblem
) -> HttpResponse:
    status = 404 if problem is InvitationProblem.INVALID else 410
    context = {"player": player, "problem": problem}
    return render(request, "registration/invitation_accept.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def invitation_accept(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    player = members().filter(pk=pk).first()
    if player is None:
        return _invitation_problem(request, None, InvitationProblem.INVALID)
    problem = invitation_tokens.problem(player, token)
    if problem is not None:
        return _invitation_problem(request, player, problem)
    context: dict[str, object] = {"player": player}
    if request.user.is_authenticated:
        return render(request, "registration/invitation_accept.html", context)
    form = InvitationAcceptForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = accounts.invitation_accept(
                    player=player,
                    token=token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
                # The account was just made with this password: no lockout to check.
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        except InvitationError as error:
            return _invitation_problem(request, player, error.problem)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            welcome = _("Welcome, %(name)s! Your account is ready and you are logged in.")
            messages.success(request, welcome % {"name": player.name})
            return redirect("account")
    context["form"] = form
    return render(request, "registration/invitation_accept.html", context)
