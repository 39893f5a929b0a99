"""Login lockouts on the site: the login page a locked-out visitor sees, and the
organisers' page listing the locks in force, where they can lift one."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import validate_ipv46_address
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from club import lockouts
from club.lockouts import Kind
from club.roles import organiser_required
from core.clients import client_ip
from core.http import AuthenticatedHttpRequest


class LiftForm(forms.Form):
    kind = forms.ChoiceField(choices=Kind.choices)
    who = forms.CharField(max_length=255)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kind") == Kind.ADDRESS and data.get("who"):
            validate_ipv46_address(data["who"])
        return data


def _safe_next(request: HttpRequest) -> str:
    target = request.POST.get("next", "")
    allowed = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if allowed else ""


# The account pages that ask for the member's current password: their form says itself
# that the account is locked, and until when (club.lockouts.current_password_check).
CURRENT_PASSWORD_PAGES = frozenset({"account_email", "password_change"})


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the login page again, saying when the visitor may try again;
    on a page that asked for the current password, that page as it is, with the status."""
    username = lockouts.attempted_username(request, credentials) or ""
    now = timezone.now()
    locks = lockouts.current_lockouts(now=now, username=username, address=client_ip(request))
    ends = max((lock.ends for lock in locks), default=None)
    page = request.resolver_match.url_name if request.resolver_match else None
    if original_response is not None and page in CURRENT_PASSWORD_PAGES:
        return _retry_after(original_response, ends=ends, now=now)
    context = {
        "form": AuthenticationForm(request, initial={"username": username}),
        "next": _safe_next(request),
        "lockout_ends": ends,
        "locked_out": True,
    }
    response = render(request, "registration/login.html", context, status=429)
    return _retry_after(response, ends=ends, now=now)


def _retry_after(response: HttpResponse, *, ends: datetime | None, now: datetime) -> HttpResponse:
    response.status_code = 429
    if ends is not None:
        response["Retry-After"] = str(max(1, math.ceil((ends - now).total_seconds())))
    return response


@organiser_required
@require_safe
def lockout_list(request: HttpRequest) -> HttpResponse:
    context = {
        "lockouts": lockouts.current_lockouts(),
        "account_limit": lockouts.limit(Kind.ACCOUNT),
        "address_limit": lockouts.limit(Kind.ADDRESS),
        "cool_off_minutes": round(lockouts.cool_off().total_seconds() / 60),
    }
    return render(request, "club/lockouts.html", context)


@organiser_required
@require_POST
def lockout_lift(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = LiftForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("That lock could not be lifted: choose one from the list."))
        return redirect("lockouts")
    kind, who = Kind(form.cleaned_data["kind"]), form.cleaned_data["who"]
    lockouts.lockout_lift(kind=kind, who=who, by=request.user)
    if kind is Kind.ACCOUNT:
        done = _("The account %(who)s may log in again.")
    else:
        done = _("Logins from the address %(who)s are allowed again.")
    messages.success(request, done % {"who": who})
    return redirect("lockouts")
