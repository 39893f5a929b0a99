"""Organisers' pages: create and edit a tournament, pair, publish and close rounds, the
play-off and the finish. Entries are in ``tournaments.views.entries``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from club.roles import organiser_required
from core.errors import DomainError, run_service
from tournaments import selectors
from tournaments.forms import ProposalForm, SwapForm, TournamentForm
from tournaments.models import Round, Tournament
from tournaments.services import playoff as playoff_services
from tournaments.services import rounds as round_services
from tournaments.services import tournaments as services
from tournaments.views.common import (
    Question,
    ask,
    confirmed,
    get_round,
    get_tournament,
)


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(**form.service_fields())
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The tournament is created. Now register the players."))
            return redirect("tournaments:entries", slug=tournament.slug)
    return render(request, "tournaments/tournament_form.html", {"form": form})


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    # The form's own copy: a form that is refused must not rename the page's tournament.
    form = TournamentForm(request.POST or None, instance=get_tournament(slug))
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament=tournament, **form.service_fields())
        except DomainError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The tournament is saved."))
            return redirect("tournaments:detail", slug=tournament.slug)
    return render(
        request, "tournaments/tournament_form.html", {"form": form, "tournament": tournament}
    )


def _to_round(tournament: Tournament, number: int) -> HttpResponse:
    return redirect("tournaments:round", slug=tournament.slug, number=number)


@organiser_required
@require_POST
def round_pair(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    try:
        round_ = round_services.round_propose(tournament=tournament)
    except DomainError as error:
        messages.error(request, error.message)
        return redirect("tournaments:detail", slug=tournament.slug)
    messages.success(
        request,
        _("Round %(n)d is paired. Check the proposal, then publish it.") % {"n": round_.number},
    )
    return _to_round(tournament, round_.number)


def _posted_proposal(request: HttpRequest, tournament: Tournament, number: int) -> Round | None:
    """The proposal a form names: the very one shown, when the page sent its id.

    None when it is gone: published, paired again (a new round of that number) or discarded.
    """
    form = ProposalForm(request.POST)
    if not form.is_valid():
        return None
    return selectors.proposal(tournament, number, pk=form.cleaned_data["round"])


def _back_to_round(tournament: Tournament, number: int) -> HttpResponse:
    """The round's page, or the tournament's when the round is no more (a discarded proposal)."""
    if selectors.round_exists(tournament, number):
        return _to_round(tournament, number)
    return redirect("tournaments:detail", slug=tournament.slug)


def _on_proposal(
    request: HttpRequest, slug: str, number: int, act: Callable[[Round], object]
) -> HttpResponse:
    """``act`` on the proposal the form names, or say it is gone; then back to the round."""
    tournament = get_tournament(slug)
    round_ = _posted_proposal(request, tournament, number)
    if round_ is None:
        messages.error(request, round_services.proposal_gone_message())
    else:
        act(round_)
    return _back_to_round(tournament, number)


def _run_on_proposal(
    request: HttpRequest, slug: str, number: int, service: Callable[..., object], success: str
) -> HttpResponse:
    """A service on the proposal the form names (``round=``), its message or its refusal."""
    return _on_proposal(
        request, slug, number, lambda round_: run_service(request, service, success, round=round_)
    )


@organiser_required
@require_POST
def round_repair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    success = _("The round is paired again with a new draw.")
    return _run_on_proposal(request, slug, number, round_services.round_repair, success)


@organiser_required
@require_POST
def round_swap(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    def swap(round_: Round) -> None:
        form = SwapForm(request.POST, round_entries=selectors.round_entries(round_))
        if form.is_valid():
            success = _("The two players have swapped places.")
            run_service(
                request, round_services.round_swap, success, round=round_, **form.cleaned_data
            )
        else:
            messages.error(request, _("Choose two players of this round."))

    return _on_proposal(request, slug, number, swap)


@organiser_required
@require_POST
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    success = _("The round is published; players can see their tables.")
    return _run_on_proposal(request, slug, number, round_services.round_publish, success)


def _close_question(tournament: Tournament, round_: Round) -> Question:
    n = {"n": round_.number}
    if round_.kind == Round.Kind.SWISS:
        consequences = [
            _("The results of round %(n)d are final and its standings no longer preliminary.") % n,
            _("The round cannot be opened again."),
        ]
    elif selectors.is_playoff_final(round_):
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
    round_ = get_round(tournament, number, request)
    refusal = round_services.close_refusal(round_)
    if refusal is not None:
        messages.error(request, refusal)
    elif not confirmed(request):
        return ask(request, tournament, _close_question(tournament, round_))
    else:
        run_service(request, round_services.round_close, _("The round is closed."), round=round_)
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
    elif not confirmed(request):
        return ask(request, tournament, _playoff_question(tournament))
    elif run_service(
        request, playoff_services.playoff_start, _("The play-off has begun."), tournament=tournament
    ):
        return redirect("tournaments:playoff", slug=tournament.slug)
    return redirect("tournaments:detail", slug=tournament.slug)


def _finish_question(tournament: Tournament, desk: selectors.OrganiserDesk) -> Question:
    rows = selectors.standings(tournament)
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
    elif not confirmed(request):
        return ask(request, tournament, _finish_question(tournament, desk))
    else:
        run_service(
            request,
            playoff_services.tournament_finish,
            _("The tournament is finished."),
            tournament=tournament,
            early=request.POST.get("early") == "1",
        )
    return redirect("tournaments:detail", slug=tournament.slug)
