"""Organisers' pages for a tournament's entries: register members (or a new member, asking
first when the name is already on the register), check in, withdraw or remove players,
and keep two players apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from club.forms import PlayerSearchForm
from club.models import Player
from club.roles import organiser_required
from club.selectors import player_search, possible_twins
from core.errors import run_service
from core.http import AuthenticatedHttpRequest
from tournaments import selectors
from tournaments.forms import (
    EntryAddForm,
    ForbiddenPairForm,
    NewPlayerEntryForm,
    labelled_errors,
)
from tournaments.models import Entry, Tournament
from tournaments.services import tournaments as services
from tournaments.views.common import Question, ask, confirmed, get_tournament


def _entries_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    search_form = PlayerSearchForm(request.GET)
    query = search_form.cleaned_data["q"] if search_form.is_valid() else ""
    entries = list(selectors.entries_marked_paired(tournament))
    entered = {entry.player_id for entry in entries}
    candidates = (
        [p for p in player_search(query=query)[:30] if p.pk not in entered] if query else []
    )
    return {
        "tournament": tournament,
        "entries": entries,
        "entered": entered,
        "entries_closed": services.entries_closed(tournament),
        "add_refusal": services.entry_add_refusal(tournament),
        "search_form": search_form,
        "query": query,
        "candidates": candidates,
        "new_player_form": NewPlayerEntryForm(),
        "forbidden_form": ForbiddenPairForm(tournament=tournament),
        "forbidden": selectors.forbidden_pairs_of(tournament),
        "next_round": selectors.next_swiss_round(tournament),
    }


@organiser_required
@require_safe
def entries(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    context = _entries_context(request, tournament)
    if request.htmx and request.htmx.target == "candidates":
        return render(request, "tournaments/entries.html#candidates", context)
    return render(request, "tournaments/entries.html", context)


def _back_to_entries(tournament: Tournament) -> HttpResponse:
    return redirect("tournaments:entries", slug=tournament.slug)


@organiser_required
@require_POST
def entry_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    form = EntryAddForm(request.POST)
    if form.is_valid():
        player = get_object_or_404(Player, pk=form.cleaned_data["player"])
        run_service(
            request,
            services.entry_add,
            _("%(player)s is registered.") % {"player": player},
            tournament=tournament,
            player=player,
            checked_in=bool(request.POST.get("checked_in")),
        )
    else:
        messages.error(request, _("Choose a member to register."))
    return _back_to_entries(tournament)


@organiser_required
@require_POST
def entry_add_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Add a new member; a name already on the register first asks whether it is them."""
    tournament = get_tournament(slug)
    form = NewPlayerEntryForm(request.POST)
    if not form.is_valid():
        context = _entries_context(request, tournament) | {"new_player_form": form}
        return render(request, "tournaments/entries.html", context, status=400)
    data = form.member_fields()
    twins = [] if form.cleaned_data["add_anyway"] else possible_twins(name=data["name"])
    if twins:
        context = _entries_context(request, tournament) | {"new_player_form": form, "twins": twins}
        return render(request, "tournaments/entries.html", context)
    run_service(
        request,
        services.entry_add_new_player,
        _("%(name)s is added to the club and registered.") % {"name": data["name"]},
        tournament=tournament,
        **data,
    )
    return _back_to_entries(tournament)


def _entry_question(tournament: Tournament, entry: Entry, action: str) -> Question:
    name = {"player": entry.player}
    if action == "withdraw":
        title = _("Withdraw %(player)s?")
        consequences = [
            _("%(player)s will not be paired in any later round.") % name,
            _("Their results so far stand and count for their opponents."),
        ]
        yes = _("Yes, withdraw %(player)s")
    else:
        title = _("Remove %(player)s from the tournament?")
        consequences = [
            _("The registration of %(player)s is deleted; they stay in the club register.") % name,
            _("To take part after all, they must be registered again."),
        ]
        yes = _("Yes, remove %(player)s")
    return Question(
        title=title % name,
        consequences=consequences,
        yes=yes % name,
        cancel_url=reverse("tournaments:entries", args=[tournament.slug]),
        fields={"action": action},
    )


@organiser_required
@require_POST
def entry_change(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Check in or out, withdraw or bring back, or remove an entry (the last two asked first)."""
    tournament = get_tournament(slug)
    entry = selectors.entry_of(tournament, pk)
    action = request.POST.get("action", "")
    name = {"player": entry.player}
    actions: dict[str, tuple[Callable[..., object], dict[str, bool], str]] = {
        "check_in": (services.entry_check_in, {"checked_in": True}, _("%(player)s is checked in.")),
        "check_out": (
            services.entry_check_in,
            {"checked_in": False},
            _("%(player)s is no longer checked in."),
        ),
        "withdraw": (
            services.entry_withdraw,
            {"withdrawn": True},
            _("%(player)s is withdrawn; their results stand."),
        ),
        "reinstate": (
            services.entry_withdraw,
            {"withdrawn": False},
            _("%(player)s is back in the tournament."),
        ),
        "remove": (services.entry_remove, {}, _("%(player)s is no longer registered.")),
    }
    if action not in actions:
        messages.error(request, _("Unknown action."))
    elif action in ("withdraw", "remove") and not confirmed(request):
        return ask(request, tournament, _entry_question(tournament, entry, action))
    else:
        service, extra, text = actions[action]
        run_service(request, service, text % name, entry=entry, **extra)
    return _back_to_entries(tournament)


@organiser_required
@require_POST
def forbidden_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    form = ForbiddenPairForm(request.POST, tournament=tournament)
    if form.is_valid():
        run_service(
            request,
            services.forbidden_pair_add,
            _("These two will never be paired."),
            tournament=tournament,
            **form.cleaned_data,
        )
    elif "reason" in form.errors:
        messages.error(request, labelled_errors(form, "reason"))
    else:
        messages.error(request, _("Choose two players of this tournament."))
    return _back_to_entries(tournament)


@organiser_required
@require_POST
def forbidden_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(slug)
    pair = selectors.forbidden_pair_of(tournament, pk)
    run_service(
        request, services.forbidden_pair_remove, _("The two may be paired again."), pair=pair
    )
    return _back_to_entries(tournament)
