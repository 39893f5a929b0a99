"""A player's own page for one tournament, opened by their private link (no account needed).

The page shows the player's match in the latest published round (table, opponent
and the report, confirm and dispute forms) and their earlier matches. Opening it
keeps the link in the session, so the match pages it leads to know the player.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core.http import HtmxHttpRequest
from tournaments import selectors
from tournaments.access import Actor, remember_private_link
from tournaments.presenters import match_context


@never_cache
@require_safe
def private_page(request: HtmxHttpRequest, key: str) -> HttpResponse:
    # No key of ours holds a NUL byte, and PostgreSQL refuses one in a query.
    entry = None if "\x00" in key else selectors.entry_by_private_key(key)
    if entry is None:
        return render(request, "tournaments/private_invalid.html", status=404)
    remember_private_link(request, entry)
    tournament = entry.tournament
    actor = Actor(user=request.user, entry=entry)
    mine = selectors.my_table(tournament, actor)
    context: dict[str, Any] = {
        "tournament": tournament,
        "entry": entry,
        "my_table": mine,
        "history": selectors.entry_history(entry),
        "playing": selectors.round_in_play(tournament),
    }
    if mine is not None:
        context |= match_context(request, tournament, mine.match, actor=actor)
        context["round"] = mine.round
    if request.htmx:
        return render(request, "tournaments/private_page.html#now", context)
    response = render(request, "tournaments/private_page.html", context)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
