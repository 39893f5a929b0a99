"""What the pages show of a match and of a proposed round: the context more than one view draws.

A match is drawn by its own page, by the player's private page and again by every
form about it that is sent back (``views.results``); its own page shows, besides, what
apps above the tournaments show of it (``match_page_context``). What the reader may do there,
report, confirm, dispute or settle, is decided by the results services' predicates
(``services.results.refusal_to_report`` and the others), the same ones that refuse
the action when it is sent. A proposal is drawn on its round's page for organisers:
the swap form and the pairing's reasons in words. A round 1 seeded by rating shows
its seeding order, with the ratings it used, to everyone who may see the round.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, QueryDict
from django.urls import reverse

from club.roles import is_organiser
from core.sections import sections
from scoring.rules.match import MatchResult
from tournaments import selectors
from tournaments.access import Actor, actor_for
from tournaments.explain import explanation_lines, seeding_lines, seeding_summary
from tournaments.forms import ConfirmForm, DisputeForm, MatchReportForm, ProposalForm, SwapForm
from tournaments.models import Match, Round, Tournament
from tournaments.services import results


def names_of(match: Match) -> tuple[str, str]:
    """The players' names by seat ("" for a bye's empty seat), told apart as the round's
    pairings tell them (two Johan Andersson: by club, then member number)."""
    seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
    shown = selectors.round_player_names(match.round)
    names = [shown.get(seat.entry.player_id, seat.entry.player.name) for seat in seats]
    return (names + ["", ""])[0], (names + ["", ""])[1]


def report_form(match: Match, data: QueryDict | None = None) -> MatchReportForm:
    """The form to report or settle ``match``, filled in with what is saved of it."""
    initial: dict[str, Any] = {}
    if match.first_dealer is not None:
        initial["first_dealer"] = str(match.first_dealer)
    for game in match.games.all():
        initial[f"game_{game.number}_winner"] = str(game.winner)
        initial[f"game_{game.number}_loser_score"] = game.loser_score
    return MatchReportForm(data, names=names_of(match), best_of=match.best_of, initial=initial)


def match_context(
    request: HttpRequest,
    tournament: Tournament,
    match: Match,
    *,
    actor: Actor | None = None,
    form: MatchReportForm | None = None,
    preview: MatchResult | None = None,
    dispute_form: DisputeForm | None = None,
) -> dict[str, Any]:
    """The match panel's context (``match`` as ``selectors.match_for_page`` loads it).

    ``actor``: who reads, when the view knows already (else the request's account and
    private link); the forms: as sent back, with their errors.
    """
    actor = actor or actor_for(request, tournament)
    seat = actor.seat_in(match)
    organiser = is_organiser(request.user)
    return {
        "tournament": tournament,
        "match": match,
        "round": match.round,
        "seats": sorted(match.seats.all(), key=lambda s: s.seat),
        "names": names_of(match),
        "result": selectors.match_result(match),
        "records": [game.number for game in match.games.all() if game.record],
        "my_seat": seat,
        "private_entry": actor.entry if seat is not None else None,
        "is_organiser": organiser,
        # The opponent of a reporter answers by confirming or disputing, not by a new report.
        "can_report": results.refusal_to_report(match, seat) is None
        and not results.awaits_answer(match, seat),
        "can_confirm": results.refusal_to_answer(match, seat) is None,
        "can_settle": organiser and results.refusal_to_settle(match) is None,
        # A reader not known as one of its players (the score sheet's code leads here):
        # the way to report is to log in or to open one's own private link.
        "ask_who": seat is None and not organiser and results.refusal_to_report_any(match) is None,
        "form": form or report_form(match),
        "dispute_form": dispute_form or DisputeForm(),
        "confirm_form": ConfirmForm(initial={"version": match.report_version}),
        "preview": preview,
        "log": selectors.match_log(match) if organiser or seat is not None else None,
        "later_rounds": selectors.rounds_paired_after(match.round) if organiser else [],
    }


def match_page_context(
    request: HttpRequest, tournament: Tournament, match: Match, **given: Any
) -> dict[str, Any]:
    """The context of the match's own page: ``match_context`` (``given``: its keywords) and
    what apps above show there (``core.sections``: its game on the site)."""
    context = match_context(request, tournament, match, **given)
    context["sections"] = sections("tournament_match", request, match=match)
    return context


def seeding_context(round_: Round) -> dict[str, Any]:
    """A round 1 seeded by rating: how it was paired, and the seeding order (else nothing)."""
    summary = seeding_summary(round_.explanation)
    if not summary:
        return {}
    names = selectors.entry_names(round_.tournament)
    return {"seeding_summary": summary, "seeding": seeding_lines(round_.explanation, names)}


def proposal_context(round_: Round) -> dict[str, Any]:
    """What the organisers see of a proposal: the swap form and the explanation in words."""
    tournament = round_.tournament
    return {
        "swap_form": SwapForm(round_entries=selectors.round_entries(round_)),
        "explanation": explanation_lines(round_.explanation, selectors.entry_names(tournament)),
        "repair_url": reverse("tournaments:round_repair", args=[tournament.slug, round_.number]),
        "proposal_form": ProposalForm(initial={"round": round_.pk}, auto_id=False),
    }
