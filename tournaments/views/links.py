"""The organisers' list of private links: copy, print, revoke or replace each player's link."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from club.roles import organiser_required
from tournaments import selectors
from tournaments.models import Entry
from tournaments.services import links as services
from tournaments.views.common import get_tournament


@organiser_required
@require_safe
def private_links(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    context = {"tournament": tournament, "entries": selectors.entries_listed(tournament)}
    return render(request, "tournaments/private_links.html", context)


def _link_changed(
    request: HttpRequest, slug: str, pk: int, service: Callable[..., Entry], done: str
) -> HttpResponse:
    """``service`` on an entry's link, ``done`` said (it names the player), back to the list."""
    entry = service(entry=selectors.entry_of(get_tournament(slug), pk))
    messages.success(request, done % {"player": entry.player})
    return redirect("tournaments:private_links", slug=slug)


@organiser_required
@require_POST
def private_link_issue(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    done = _("%(player)s has a new private link; the old one no longer works.")
    return _link_changed(request, slug, pk, services.entry_link_issue, done)


@organiser_required
@require_POST
def private_link_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    done = _("%(player)s's private link no longer works.")
    return _link_changed(request, slug, pk, services.entry_link_revoke, done)
