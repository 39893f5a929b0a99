"""Organisers' pages: create a tournament, manage entries, pair, publish and close rounds.

An action that cannot be undone first answers with a *question*: a page saying what
will happen, whose "Yes" button posts the same form again with ``confirm=1``.
Nothing changes until then, with or without JavaScript.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from club.models import Player
from club.roles import organiser_required
from club.selectors import player_search, possible_twins
from tournaments import bridge, selectors
from tournaments.errors import TournamentError
from tournaments.explain import explanation_lines
from tournaments.forms import (
    EntryAddForm,
    ForbiddenPairForm,
    NewPlayerEntryForm,
    SwapForm,
    TournamentForm,
)
from tournaments.models import Entry, ForbiddenPair, Round, Tournament
from tournaments.services import playoff as playoff_services
from tournaments.services import rounds as round_services
from tournaments.services import tournaments as services
from tournaments.views.common import get_tournament


def _error_message(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return str(error)


@dataclass(frozen=True)
class Question:
    """What an irreversible action will do, asked before it is done."""

    title: str
    consequences: list[str]
    yes: str
    cancel_url: str
    fields: dict[str, str] = field(default_factory=dict)


def _confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirm") == "1"


def _ask(request: HttpRequest, tournament: Tournament, question: Question) -> HttpResponse:
    context = {"tournament": tournament, "question": question}
    return render(request, "tournaments/confirm.html", context)


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(**form.service_fields())
        except (TournamentError, ValidationError) as error:
            form.add_error(None, _error_message(error))
        else:
            messages.success(request, _("The tournament is created. Now register the players."))
            return redirect("tournaments:entries", slug=tournament.slug)
    return render(request, "tournaments/tournament_form.html", {"form": form})


@organiser_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    form = TournamentForm(request.POST or None, instance=Tournament.objects.get(pk=tournament.pk))
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament=tournament, **form.service_fields())
        except (TournamentError, ValidationError) as error:
            form.add_error(None, _error_message(error))
        else:
            messages.success(request, _("The tournament is saved."))
            return redirect("tournaments:detail", slug=tournament.slug)
    return render(
        request, "tournaments/tournament_form.html", {"form": form, "tournament": tournament}
    )


def _entries_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    query = request.GET.get("q", "").strip()
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
        "query": query,
        "candidates": candidates,
        "new_player_form": NewPlayerEntryForm(),
        "forbidden_form": ForbiddenPairForm(tournament=tournament),
        "forbidden": tournament.forbidden_pairs.select_related("first__player", "second__player"),
        "next_round": tournament.rounds.filter(kind=Round.Kind.SWISS).count() + 1,
    }


@organiser_required
@require_http_methods(["GET"])
def entries(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    context = _entries_context(request, tournament)
    if request.htmx and request.htmx.target == "candidates":
        return render(request, "tournaments/entries.html#candidates", context)
    return render(request, "tournaments/entries.html", context)


def _back_to_entries(tournament: Tournament) -> HttpResponse:
    return redirect("tournaments:entries", slug=tournament.slug)


def _run(request: HttpRequest, action: Any, success: str, **kwargs: Any) -> bool:
    """Call a service; show its error (nothing saved) or the success message."""
    try:
        action(**kwargs)
    except (TournamentError, ValidationError) as error:
        messages.error(request, _error_message(error))
        return False
    messages.success(request, success)
    return True


@organiser_required
@require_POST
def entry_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    form = EntryAddForm(request.POST)
    if form.is_valid():
        player = get_object_or_404(Player, pk=form.cleaned_data["player"])
        _run(
            request,
            services.entry_add,
            _("%(player)s is registered.") % {"player": player},
            tournament=tournament,
            player=player,
            checked_in=bool(request.POST.get("checked_in")),
        )
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
    _run(
        request,
        services.entry_add_new_player,
        _("%(name)s is added to the club and registered.") % {"name": data["name"]},
        tournament=tournament,
        **data,
    )
    return _back_to_entries(tournament)


def _entry(tournament: Tournament, pk: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player"), tournament=tournament, pk=pk)


def _entry_question(tournament: Tournament, entry: Entry, action: str) -> Question:
    name = {"player": entry.player}
    cancel = reverse("tournaments:entries", args=[tournament.slug])
    if action == "withdraw":
        return Question(
            title=_("Withdraw %(player)s?") % name,
            consequences=[
                _("%(player)s will not be paired in any later round.") % name,
                _("Their results so far stand and count for their opponents."),
            ],
            yes=_("Yes, withdraw %(player)s") % name,
            cancel_url=cancel,
            fields={"action": action},
        )
    return Question(
        title=_("Remove %(player)s from the tournament?") % name,
        consequences=[
            _("The registration of %(player)s is deleted; they stay in the club register.") % name,
            _("To take part after all, they must be registered again."),
        ],
        yes=_("Yes, remove %(player)s") % name,
        cancel_url=cancel,
        fields={"action": action},
    )


@organiser_required
@require_POST
def entry_change(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Check in or out, withdraw or bring back, or remove an entry (the last two asked first)."""
    tournament = get_tournament(slug)
    entry = _entry(tournament, pk)
    action = request.POST.get("action", "")
    name = {"player": entry.player}
    actions = {
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
    elif action in ("withdraw", "remove") and not _confirmed(request):
        return _ask(request, tournament, _entry_question(tournament, entry, action))
    else:
        service, extra, text = actions[action]
        _run(request, service, text % name, entry=entry, **extra)
    return _back_to_entries(tournament)


@organiser_required
@require_POST
def forbidden_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    form = ForbiddenPairForm(request.POST, tournament=tournament)
    if form.is_valid():
        _run(
            request,
            services.forbidden_pair_add,
            _("These two will never be paired."),
            tournament=tournament,
            **form.cleaned_data,
        )
    else:
        messages.error(request, _("Choose two players of this tournament."))
    return _back_to_entries(tournament)


@organiser_required
@require_POST
def forbidden_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(slug)
    pair = get_object_or_404(ForbiddenPair, tournament=tournament, pk=pk)
    _run(request, services.forbidden_pair_remove, _("The two may be paired again."), pair=pair)
    return _back_to_entries(tournament)


def _to_round(tournament: Tournament, number: int) -> HttpResponse:
    return redirect("tournaments:round", slug=tournament.slug, number=number)


@organiser_required
@require_POST
def round_pair(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    try:
        round_ = round_services.round_propose(tournament=tournament)
    except TournamentError as error:
        messages.error(request, str(error))
        return redirect("tournaments:detail", slug=tournament.slug)
    messages.success(
        request,
        _("Round %(n)d is paired. Check the proposal, then publish it.") % {"n": round_.number},
    )
    return _to_round(tournament, round_.number)


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


@organiser_required
@require_POST
def round_repair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_tournament(slug)
    _run(
        request,
        round_services.round_repair,
        _("The round is paired again with a new draw."),
        round=_round(tournament, number),
    )
    return _to_round(tournament, number)


@organiser_required
@require_POST
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_tournament(slug)
    round_ = _round(tournament, number)
    form = SwapForm(request.POST, round_entries=Entry.objects.filter(seats__round=round_))
    if form.is_valid():
        _run(
            request,
            round_services.round_swap,
            _("The two players have swapped places."),
            round=round_,
            **form.cleaned_data,
        )
    else:
        messages.error(request, _("Choose two players of this round."))
    return _to_round(tournament, number)


@organiser_required
@require_POST
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_tournament(slug)
    _run(
        request,
        round_services.round_publish,
        _("The round is published; players can see their tables."),
        round=_round(tournament, number),
    )
    return _to_round(tournament, number)


def _close_question(tournament: Tournament, round_: Round) -> Question:
    n = {"n": round_.number}
    if round_.kind == Round.Kind.SWISS:
        consequences = [
            _("The results of round %(n)d are final and its standings no longer preliminary.") % n,
            _("The round cannot be opened again."),
        ]
    elif round_.matches.count() == 1:
        consequences = [_("The winner of the final is the champion; the tournament is finished.")]
    else:
        consequences = [
            _("The winners meet in the next play-off round, which is published at once.")
        ]
    return Question(
        title=_("Close round %(n)d?") % n,
        consequences=consequences,
        yes=_("Yes, close round %(n)d") % n,
        cancel_url=reverse("tournaments:round", args=[tournament.slug, round_.number]),
    )


@organiser_required
@require_POST
def round_close(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_tournament(slug)
    round_ = _round(tournament, number)
    refusal = round_services.close_refusal(round_)
    if refusal is not None:
        messages.error(request, refusal)
    elif not _confirmed(request):
        return _ask(request, tournament, _close_question(tournament, round_))
    else:
        _run(request, round_services.round_close, _("The round is closed."), round=round_)
    return _to_round(tournament, number)


def _playoff_question(tournament: Tournament) -> Question:
    size = {"n": tournament.playoff_size}
    return Question(
        title=_("Start the play-off?"),
        consequences=[
            _(
                "The top %(n)d of the standings are seeded into the bracket, and its first "
                "round is published at once."
            )
            % size,
            _("The Swiss stage ends: no more Swiss rounds, and the entries can no longer change."),
        ],
        yes=_("Yes, start the play-off"),
        cancel_url=reverse("tournaments:detail", args=[tournament.slug]),
    )


@organiser_required
@require_POST
def playoff_start(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    refusal = selectors.organiser_desk(tournament).playoff_refusal
    if refusal is not None:
        messages.error(request, refusal)
    elif not _confirmed(request):
        return _ask(request, tournament, _playoff_question(tournament))
    elif _run(
        request, playoff_services.playoff_start, _("The play-off has begun."), tournament=tournament
    ):
        return redirect("tournaments:playoff", slug=tournament.slug)
    return redirect("tournaments:detail", slug=tournament.slug)


def _finish_question(tournament: Tournament, desk: selectors.OrganiserDesk) -> Question:
    rows = bridge.standings(tournament)
    winner = {"player": rows[0].entry.player if rows else "–"}
    cancel = reverse("tournaments:detail", args=[tournament.slug])
    if desk.finish_refusal is None:
        return Question(
            title=_("Finish the tournament?"),
            consequences=[
                _("The standings are final: %(player)s wins the tournament.") % winner,
                _("No more rounds can be paired."),
            ],
            yes=_("Yes, finish the tournament"),
            cancel_url=cancel,
        )
    played = {"n": desk.closed_rounds, "m": desk.swiss_rounds}
    left = desk.swiss_rounds - desk.closed_rounds
    consequences = [
        ngettext(
            "%(count)d Swiss round is left unplayed.",
            "%(count)d Swiss rounds are left unplayed.",
            left,
        )
        % {"count": left},
        _("The standings after round %(n)d are final: %(player)s wins the tournament.")
        % (played | winner),
    ]
    if desk.current is not None and desk.current.status == Round.Status.PROPOSED:
        consequences.append(
            _("The proposed round %(n)d is discarded; its pairings were never published.")
            % {"n": desk.current.number}
        )
    return Question(
        title=_("End the tournament after round %(n)d of %(m)d?") % played,
        consequences=consequences,
        yes=_("Yes, end the tournament after round %(n)d") % played,
        cancel_url=cancel,
        fields={"early": "1"},
    )


@organiser_required
@require_POST
def tournament_finish(request: HttpRequest, slug: str) -> HttpResponse:
    """Finish after the Swiss rounds, or end early: each asks its own question first."""
    tournament = get_tournament(slug)
    desk = selectors.organiser_desk(tournament)
    if desk.end_early_refusal is not None:
        messages.error(request, desk.end_early_refusal)
    elif not _confirmed(request):
        return _ask(request, tournament, _finish_question(tournament, desk))
    else:
        _run(
            request,
            playoff_services.tournament_finish,
            _("The tournament is finished."),
            tournament=tournament,
            early=request.POST.get("early") == "1",
        )
    return redirect("tournaments:detail", slug=tournament.slug)


def proposal_context(round_: Round) -> dict[str, Any]:
    """What the organisers see of a proposal: the swap form and the explanation in words."""
    seated = Entry.objects.filter(seats__round=round_).select_related("player")
    names = {e.pk: str(e.player) for e in round_.tournament.entries.select_related("player")}
    return {
        "swap_form": SwapForm(round_entries=seated),
        "explanation": explanation_lines(round_.explanation, names),
        "repair_url": reverse(
            "tournaments:round_repair", args=[round_.tournament.slug, round_.number]
        ),
    }
