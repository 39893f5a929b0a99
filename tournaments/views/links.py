"""The organisers' list of private links: copy, print, revoke or replace each player's link."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
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


# Each change to a player's private link: the service that makes it and what it says.
_CHANGES: dict[str, tuple[Callable[..., Entry], str]] = {
    "issue": (
        services.entry_link_issue,
        gettext_noop("%(player)s has a new private link; the old one no longer works."),
    ),
    "revoke": (
        services.entry_link_revoke,
        gettext_noop("%(player)s's private link no longer works."),
    ),
}


@organiser_required
@require_POST
def private_link_change(request: HttpRequest, slug: str, pk: int, change: str) -> HttpResponse:
    """A new private link for an entry (``change`` "issue": the old one stops working), or
    none ("revoke"); ``change`` comes from the address's path() (tournaments/urls.py)."""
    service, done = _CHANGES[change]
    entry = service(entry=selectors.entry_of(get_tournament(slug), pk))
    messages.success(request, _(done) % {"player": entry.player})
    return redirect("tournaments:private_links", slug=slug)
