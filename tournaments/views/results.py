"""Results: players reporting, confirming and disputing, organisers settling, on the match page.

Players act by their account or by their private link (``tournaments.access``);
what each may do is decided once, by the predicates of the results services, and the
page shows only what they allow (``tournaments.presenters.match_context``).

A report form can be checked before it is sent ("preview"): the engine derives
each game's dealer (loser deals next), skunks, game points and spread, and says
when the match is decided; nothing is saved until the player sends it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from club.roles import organiser_required
from core.errors import DomainError
from core.http import AuthenticatedHttpRequest, HtmxHttpRequest
from tournaments import selectors
from tournaments.access import Actor, actor_for
from tournaments.errors import TournamentError
from tournaments.forms import ConfirmForm, DisputeForm, SettleNoteForm, labelled_errors
from tournaments.models import Match, Round, Tournament
from tournaments.presenters import match_context, match_page_context, report_form
from tournaments.services import results as services
from tournaments.views.common import get_tournament


def _to_match(match: Match, tournament: Tournament) -> HttpResponse:
    return redirect("tournaments:match", slug=tournament.slug, pk=match.pk)


PlayerAction = Callable[[HtmxHttpRequest, Tournament, Match, Actor], HttpResponse]


def _player_only(view: PlayerAction) -> Callable[[HtmxHttpRequest, str, int], HttpResponse]:
    """A player's action on a match: by their account or their private link, else log in."""

    @require_POST
    @wraps(view)
    def wrapper(request: HtmxHttpRequest, slug: str, pk: int) -> HttpResponse:
        tournament = get_tournament(slug)
        match = selectors.match_for_page(tournament, pk)
        actor = actor_for(request, tournament)
        if not actor.is_known:
            page = resolve_url("tournaments:match", slug=tournament.slug, pk=match.pk)
            return redirect_to_login(page)
        return view(request, tournament, match, actor)

    return wrapper


def _submitted(
    request: HtmxHttpRequest,
    tournament: Tournament,
    match: Match,
    save: Callable[..., Match],
    saved_message: Callable[[Match], str],
    actor: Actor | None = None,
) -> HttpResponse:
    """Check (preview) or save a report; on any error show the form again, saving nothing."""
    form = report_form(match, request.POST)
    preview = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            if "preview" in request.POST:
                preview = services.check_report(
                    match, data["first_dealer"], data["games"], complete=False
                )
            else:
                saved = save(first_dealer=data["first_dealer"], games=data["games"])
                messages.success(request, saved_message(saved))
                return _to_match(match, tournament)
        except DomainError as error:
            form.add_error(None, error.message)
    # The form alone, for htmx, or the whole page with what other apps show of the match.
    build = match_context if request.htmx else match_page_context
    context = build(request, tournament, match, actor=actor, form=form, preview=preview)
    if not (context["can_report"] or context["can_settle"]):
        for problem in form.non_field_errors():
            # The form is not on the page: say it at the top (an ErrorList yields text).
            messages.error(request, str(problem))
    status = 200 if form.is_valid() else 400
    if request.htmx:
        return render(request, "tournaments/includes/match_panel.html#report", context, status=200)
    return render(request, "tournaments/match_detail.html", context, status=status)


def _report_saved(match: Match) -> str:
    if match.status == Match.Status.IN_PLAY:
        return _("Saved. Enter the next game when it ends; your opponent sees the games so far.")
    if match.status == Match.Status.FINAL:
        return _("You reported the same result as your opponent: the result is final.")
    if match.status == Match.Status.DISPUTED:
        return _("Your report differs from your opponent's; an organiser will settle it.")
    return _("Your report is saved. Your opponent confirms it.")


@_player_only
def match_report(
    request: HtmxHttpRequest, tournament: Tournament, match: Match, actor: Actor
) -> HttpResponse:
    def save(**data: Any) -> Match:
        return services.match_report_result(match=match, by=actor, **data)

    return _submitted(request, tournament, match, save, _report_saved, actor)


@organiser_required
@require_POST
def match_settle(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(slug)
    match = selectors.match_for_page(tournament, pk)

    def save(**data: Any) -> Match:
        note = _settle_note(request)
        settled = services.match_settle(match=match, organiser=request.user, note=note, **data)
        _warn_about_later_rounds(request, settled)
        return settled

    return _submitted(request, tournament, match, save, lambda _match: _("The result is final."))


def _settle_note(request: HttpRequest) -> str:
    """The organiser's note for the log; a bad one refuses the whole form, saving nothing."""
    form = SettleNoteForm(request.POST)
    if not form.is_valid():
        raise TournamentError(labelled_errors(form, "note"))
    note: str = form.cleaned_data["note"]
    return note


def _warn_about_later_rounds(request: HttpRequest, match: Match) -> None:
    """A corrected result of a closed round: later pairings were made on the old standings."""
    if match.round.status != Round.Status.CLOSED:
        return
    for later in selectors.rounds_paired_after(match.round):
        if later.status == Round.Status.PROPOSED:
            page = resolve_url("tournaments:round", slug=later.tournament.slug, number=later.number)
            text = _(
                "Round %(n)d was paired on the standings before this correction. It is only "
                "proposed: pair it again."
            ) % {"n": later.number}
            link = format_html(
                '{} <a href="{}">{}</a>', text, page, _("Go to round %(n)d") % {"n": later.number}
            )
            messages.warning(request, link)
        else:
            messages.warning(
                request,
                _(
                    "Round %(n)d was paired on the standings before this correction and is "
                    "already published; its pairings stand."
                )
                % {"n": later.number},
            )


@_player_only
def match_confirm(
    request: HtmxHttpRequest, tournament: Tournament, match: Match, actor: Actor
) -> HttpResponse:
    form = ConfirmForm(request.POST)
    version = form.cleaned_data["version"] if form.is_valid() else None
    try:
        services.match_confirm(match=match, by=actor, version=version)
    except DomainError as error:
        messages.error(request, error.message)
        return _refused(request, tournament, match, actor)
    messages.success(request, _("Thank you: the result is final."))
    return _to_match(match, tournament)


@_player_only
def match_dispute(
    request: HtmxHttpRequest, tournament: Tournament, match: Match, actor: Actor
) -> HttpResponse:
    form = DisputeForm(request.POST)
    if not form.is_valid():
        context = match_page_context(request, tournament, match, actor=actor, dispute_form=form)
        return render(request, "tournaments/match_detail.html", context, status=400)
    try:
        services.match_dispute(match=match, by=actor, note=form.cleaned_data["note"])
    except DomainError as error:
        messages.error(request, error.message)
        return _refused(request, tournament, match, actor)
    messages.warning(request, _("The report is disputed; an organiser will settle it."))
    return _to_match(match, tournament)


def _refused(
    request: HttpRequest, tournament: Tournament, match: Match, actor: Actor
) -> HttpResponse:
    """The match page again, as it is now, with the reason at the top; nothing changed.

    Not their match: 403. Their match, but the report changed or was answered: 409.
    """
    fresh = selectors.match_for_page(tournament, match.pk)
    context = match_page_context(request, tournament, fresh, actor=actor)
    status = 403 if context["my_seat"] is None else 409
    return render(request, "tournaments/match_detail.html", context, status=status)


@require_safe
def my_table(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's table and opponent in the current round, for a phone."""
    tournament = get_tournament(slug)
    actor = actor_for(request, tournament)
    if not actor.is_known:
        return redirect_to_login(request.get_full_path())
    mine = selectors.my_table(tournament, actor)
    if mine is not None:
        return _to_match(mine.match, tournament)
    messages.info(request, _("You have no table in the current round."))
    return redirect("tournaments:detail", slug=tournament.slug)
