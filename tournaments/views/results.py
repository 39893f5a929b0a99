"""Results: the match page, players reporting, confirming and disputing, organisers settling.

A report form can be checked before it is sent ("preview"): the engine derives
each game's dealer (loser deals next), skunks, game points and spread, and says
when the match is decided; nothing is saved until the player sends it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from club.roles import is_organiser, organiser_required
from scoring.match import MatchResult
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.forms import DisputeForm, MatchReportForm
from tournaments.models import Match, Round, Tournament
from tournaments.services import results as services
from tournaments.views.common import get_tournament


def _names(match: Match) -> tuple[str, str]:
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    names = [seat.entry.player.name for seat in seats]
    return (names + ["", ""])[0], (names + ["", ""])[1]


def _stored_result(match: Match) -> MatchResult | None:
    games = [(g.winner, g.loser_score) for g in match.games.all()]
    if match.first_dealer is None or not games:
        return None
    try:
        return services.check_report(match, match.first_dealer, games, complete=False)
    except TournamentError:
        return None


def _report_form(match: Match, data: Any = None) -> MatchReportForm:
    initial: dict[str, Any] = {}
    if match.first_dealer is not None:
        initial["first_dealer"] = str(match.first_dealer)
    for game in match.games.all():
        initial[f"game_{game.number}_winner"] = str(game.winner)
        initial[f"game_{game.number}_loser_score"] = game.loser_score
    return MatchReportForm(data, names=_names(match), best_of=match.best_of, initial=initial)


def match_context(
    request: HttpRequest,
    tournament: Tournament,
    match: Match,
    *,
    form: MatchReportForm | None = None,
    preview: MatchResult | None = None,
) -> dict[str, Any]:
    seat = services.seat_of(match, request.user)
    organiser = is_organiser(request.user)
    open_for_players = (
        not match.is_bye
        and match.round.status == Round.Status.PLAYING
        and match.status in (Match.Status.PENDING, Match.Status.REPORTED)
    )
    awaiting_me = (
        match.status == Match.Status.REPORTED and seat is not None and match.reported_seat != seat
    )
    return {
        "tournament": tournament,
        "match": match,
        "round": match.round,
        "seats": sorted(match.seats.all(), key=lambda s: s.seat),
        "names": _names(match),
        "result": _stored_result(match),
        "records": [game.number for game in match.games.all() if game.record],
        "my_seat": seat,
        "is_organiser": organiser,
        "can_report": open_for_players
        and seat is not None
        and not awaiting_me
        and match.status == Match.Status.PENDING,
        "can_confirm": open_for_players and awaiting_me,
        "can_settle": organiser
        and not match.is_bye
        and match.round.status != Round.Status.PROPOSED,
        "form": form or _report_form(match),
        "dispute_form": DisputeForm(),
        "preview": preview,
        "log": selectors.match_log(match) if organiser or seat is not None else None,
    }


def _match(tournament: Tournament, pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("round").prefetch_related("seats__entry__player", "games"),
        pk=pk,
        round__tournament=tournament,
    )


def _to_match(match: Match, tournament: Tournament) -> HttpResponse:
    return redirect("tournaments:match", slug=tournament.slug, pk=match.pk)


def _submitted(
    request: HttpRequest, tournament: Tournament, match: Match, save: Any, success: str
) -> HttpResponse:
    """Check (preview) or save a report; on any error show the form again, saving nothing."""
    form = _report_form(match, request.POST)
    preview = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            if "preview" in request.POST:
                preview = services.check_report(
                    match, data["first_dealer"], data["games"], complete=False
                )
            else:
                save(first_dealer=data["first_dealer"], games=data["games"])
                messages.success(request, success)
                return _to_match(match, tournament)
        except TournamentError as error:
            form.add_error(None, str(error))
    context = match_context(request, tournament, match, form=form, preview=preview)
    if not (context["can_report"] or context["can_settle"]):
        for error in form.non_field_errors():
            messages.error(request, error)  # the form is not on the page: say it at the top
    status = 200 if form.is_valid() else 400
    if request.htmx:
        return render(request, "tournaments/match_detail.html#report", context, status=200)
    return render(request, "tournaments/match_detail.html", context, status=status)


@login_required
@require_POST
def match_report(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(slug)
    match = _match(tournament, pk)

    def save(**data: Any) -> None:
        services.match_report_result(match=match, reporter=request.user, **data)

    return _submitted(
        request, tournament, match, save, _("Your report is saved. Your opponent confirms it.")
    )


@organiser_required
@require_POST
def match_settle(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(slug)
    match = _match(tournament, pk)

    def save(**data: Any) -> None:
        note = request.POST.get("note", "")
        services.match_settle(match=match, organiser=request.user, note=note, **data)

    return _submitted(request, tournament, match, save, _("The result is final."))


@login_required
@require_POST
def match_confirm(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(slug)
    match = _match(tournament, pk)
    try:
        services.match_confirm(match=match, player_user=request.user)
    except TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Thank you: the result is final."))
    return _to_match(match, tournament)


@login_required
@require_POST
def match_dispute(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(slug)
    match = _match(tournament, pk)
    form = DisputeForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    try:
        services.match_dispute(match=match, player_user=request.user, note=note)
    except TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.warning(request, _("The report is disputed; an organiser will settle it."))
    return _to_match(match, tournament)


@login_required
@require_GET
def my_table(request: HttpRequest, slug: str) -> HttpResponse:
    """The logged-in player's table and opponent in the current round, for a phone."""
    tournament = get_tournament(slug)
    mine = selectors.my_table(tournament, request.user)
    if mine is not None:
        return _to_match(mine.match, tournament)
    messages.info(request, _("You have no table in the current round."))
    return redirect("tournaments:detail", slug=tournament.slug)
