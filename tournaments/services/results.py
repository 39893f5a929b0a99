"""Match results: players save and report, the opponent confirms or disputes; organisers settle.

A player saves their match game by game (the cut's first dealer, then each
game's winner and the loser's score); the engine (``scoring.rules.match.check_match``)
checks it and derives dealers, skunks, game points and spread. An undecided
match is *in play*; a decided one is *reported* and the opponent confirms it
(the match is final) or disputes it with a reason (the organisers decide). A
confirmation names the *report version* it saw, so a report changed after the
page was drawn is not confirmed by mistake. A second report by the opponent that
agrees counts as a confirmation; one that differs is a dispute. Every change is
written to the result log with the person who made it.

The match row is locked first, so two players submitting at the same moment
are served one after the other and the second sees the first's report.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.rules.match import MatchReportError, MatchResult, ReportFault, check_match
from tournaments import bridge
from tournaments.access import Actor
from tournaments.errors import TournamentError
from tournaments.models import Match, ResultChange, Round
from tournaments.ports import final_results_changed
from tournaments.services.changes import tournament_changed
from tournaments.services.matches import game_records_save, games_save
from tournaments.signals import match_changed, result_entered


def match_snapshot(match: Match) -> dict[str, Any]:
    """What the result log keeps of a match: status, first dealer, winner and games."""
    return {
        "status": match.status,
        "first_dealer": match.first_dealer,
        "winner": match.winner,
        "reported_seat": match.reported_seat,
        "games": [[g.winner, g.loser_score] for g in match.games.order_by("number")],
    }


def check_report(
    match: Match, first_dealer: int, games: Sequence[tuple[int, int]], *, complete: bool = True
) -> MatchResult:
    """The engine's verdict on a report, with the site's translated messages."""
    try:
        result = check_match(
            best_of=match.best_of,
            first_dealer=first_dealer,
            games=games,
            scheme=bridge.scheme_of(match.round.tournament),
        )
    except MatchReportError as error:
        raise TournamentError(report_fault_message(error)) from error
    if complete and not result.decided:
        raise TournamentError(
            _("The match is not decided yet: a player needs %(n)d game wins.")
            % {"n": result.games_needed}
        )
    return result


_REPORT_FAULTS = {
    ReportFault.BEST_OF: gettext_lazy("A match is best of 1, 3, 5 or 7 games."),
    ReportFault.FIRST_DEALER: gettext_lazy("Say who dealt first in game 1."),
    ReportFault.NOT_NEEDED: gettext_lazy(
        "Game %(n)d was not needed: the match was already decided."
    ),
    ReportFault.WINNER: gettext_lazy("Game %(n)d: say who won it."),
    ReportFault.LOSER_SCORE_NOT_A_NUMBER: gettext_lazy(
        "Game %(n)d: the loser's score must be between 0 and 120."
    ),
    ReportFault.LOSER_SCORE_OUT_OF_RANGE: gettext_lazy(
        "Game %(n)d: the loser's score must be between 0 and 120."
    ),
}
"""The engine's reasons for refusing a report, as the site says them (one table)."""


def report_fault_message(error: MatchReportError) -> str:
    """Why the engine refused a report, in the reader's language."""
    message = str(_REPORT_FAULTS[error.reason])
    return message if error.game is None else message % {"n": error.game}


def locked_match(match: Match) -> Match:
    return (
        Match.objects.select_for_update()
        .select_related("round__tournament")
        .prefetch_related("seats__entry__player")
        .get(pk=match.pk)
    )


def log_change(
    match: Match, by: Actor, action: ResultChange.Action, before: dict[str, Any], note: str = ""
) -> None:
    ResultChange.objects.create(
        match=match,
        user=by.account,
        player=by.player,
        action=action,
        before=before,
        after=match_snapshot(match),
        note=note,
    )


def _changes_a_final(match: Match) -> bool:
    """Whether saving ``match`` changes a final result: it is final now, or was when loaded
    (the standings count final results only, so only these move their version). Asked
    before the save."""
    loaded = Match.objects.filter(pk=match.pk).values_list("status", flat=True).first()
    return Match.Status.FINAL in (match.status, loaded)


def save_changed(match: Match) -> None:
    """Save a changed result: a new report version, so older confirm forms are refused.

    The change is announced once saved (``signals.match_changed``): a proposal to play
    the match on the site ends with it. A final result (new or corrected) is also told to
    the rating list (``ports.final_results_changed``), which a worker rates again a moment
    later from the match's round onward.
    """
    final = _changes_a_final(match)
    match.report_version += 1
    match.version += 1
    match.save()
    tournament_changed(match.round.tournament_id, round_id=match.round_id, final=final)
    match_changed.announce(match=match.pk)
    if match.status == Match.Status.FINAL:
        final_results_changed(round=match.round_id)


# The permission predicates: each says why an actor in ``seat`` may not do something
# to ``match`` (None: they may). The services raise the reason; the pages show a form
# only where it is None (``tournaments.presenters.match_context``).


def refusal_to_report(match: Match, seat: int | None) -> str | None:
    if seat is None:
        return _("You can only report your own match.")
    return refusal_to_report_any(match)


def refusal_to_report_any(match: Match) -> str | None:
    """Why neither player of ``match`` may report it now (None: its players may)."""
    if match.is_bye:
        return _("A bye has no result to report.")
    if match.round.status != Round.Status.PLAYING:
        return _("This round is not being played, so results cannot be reported.")
    if match.status == Match.Status.FINAL:
        return _("This match is already final. Ask an organiser to correct it.")
    if match.status == Match.Status.DISPUTED:
        return _("This match is disputed; the organisers will settle it.")
    if match.status == Match.Status.ONLINE:
        return _("This match is being played on the site: its result records itself.")
    return None


def refusal_to_answer(match: Match, seat: int | None) -> str | None:
    """Why ``seat`` may not confirm or dispute the report of ``match``."""
    refusal = refusal_to_report(match, seat)
    if refusal is not None:
        return refusal
    if match.status != Match.Status.REPORTED:
        return _("There is no report to confirm yet.")
    if match.reported_seat == seat:
        return _("Your opponent confirms your report, not you.")
    return None


def awaits_answer(match: Match, seat: int | None) -> bool:
    """The match is reported by the opponent of ``seat``: theirs to confirm or dispute.

    A report they send is an answer then (the same result confirms, another disputes),
    so their page offers the answer instead of the report form.
    """
    return match.status == Match.Status.REPORTED and match.reported_seat != seat


def refusal_to_settle(match: Match) -> str | None:
    if match.is_bye:
        return _("A bye has no result to enter.")
    if match.round.status == Round.Status.PROPOSED:
        return _("Publish the round before entering results.")
    return None


def refuse(reason: str | None) -> None:
    if reason is not None:
        raise TournamentError(reason)


def _same_result(match: Match, first_dealer: int, result: MatchResult) -> bool:
    stored = [(g.winner, g.loser_score) for g in match.games.order_by("number")]
    return match.first_dealer == first_dealer and stored == [
        (g.winner, g.loser_score) for g in result.games
    ]


@transaction.atomic
def match_report_result(
    *, match: Match, by: Actor, first_dealer: int, games: Sequence[tuple[int, int]]
) -> Match:
    """A player saves their match, game by game; the opponent confirms the decided match.

    Undecided, the match is *in play* and either player may save the next game or
    correct one. Decided, it is *reported* and waits for the opponent. The opponent
    sending the same decided result confirms it; a different one disputes it.
    """
    match = locked_match(match)
    seat = by.seat_in(match)
    refuse(refusal_to_report(match, seat))
    if not games:
        raise TournamentError(_("Enter at least the first game."))
    result = check_report(match, first_dealer, games, complete=False)
    before = match_snapshot(match)
    if awaits_answer(match, seat):
        return _answer_with_a_report(match, by, first_dealer, result, before)
    if _same_result(match, first_dealer, result):
        return match  # nothing new: no version, no log line
    games_save(match=match, first_dealer=first_dealer, result=result)
    match.reported_by = by.account
    if result.decided:
        match.status = Match.Status.REPORTED
        match.reported_seat = seat
        action = ResultChange.Action.REPORTED
    else:
        match.status = Match.Status.IN_PLAY
        match.reported_seat = None
        action = ResultChange.Action.SAVED
    save_changed(match)
    log_change(match, by, action, before)
    return match


def _answer_with_a_report(
    match: Match, by: Actor, first_dealer: int, result: MatchResult, before: dict[str, Any]
) -> Match:
    """The opponent of the reporter reports too: the same result confirms, another disputes."""
    if not result.decided:
        raise TournamentError(
            _("Your opponent has reported the whole match: confirm it or dispute it.")
        )
    if _same_result(match, first_dealer, result):
        match.status = Match.Status.FINAL
        save_changed(match)
        log_change(match, by, ResultChange.Action.CONFIRMED, before)
        return match
    match.status = Match.Status.DISPUTED
    match.dispute_note = _("The two players reported different results.")
    save_changed(match)
    reported = ", ".join(f"{g.winner + 1}:{g.loser_score}" for g in result.games)
    log_change(match, by, ResultChange.Action.DISPUTED, before, note=reported)
    return match


@transaction.atomic
def match_confirm(*, match: Match, by: Actor, version: int | None) -> Match:
    """The opponent agrees with the report they saw (``version``): the match is final."""
    match = locked_match(match)
    refuse(refusal_to_answer(match, by.seat_in(match)))
    if version != match.report_version:
        raise TournamentError(_("The report has changed, check it again."))
    before = match_snapshot(match)
    match.status = Match.Status.FINAL
    save_changed(match)
    log_change(match, by, ResultChange.Action.CONFIRMED, before)
    return match


DISPUTE_NOTE_LENGTH = 500


@transaction.atomic
def match_dispute(*, match: Match, by: Actor, note: str) -> Match:
    """The opponent disagrees with the report and says why: the organisers decide."""
    match = locked_match(match)
    refuse(refusal_to_answer(match, by.seat_in(match)))
    note = note.strip()
    if not note:
        raise TournamentError(_("Say what is wrong with the report."))
    if len(note) > DISPUTE_NOTE_LENGTH:
        raise TournamentError(
            _("The reason can be at most %(n)d characters long.") % {"n": DISPUTE_NOTE_LENGTH}
        )
    before = match_snapshot(match)
    match.status = Match.Status.DISPUTED
    match.dispute_note = note
    save_changed(match)
    log_change(match, by, ResultChange.Action.DISPUTED, before, note=note)
    return match


@transaction.atomic
def match_settle(
    *,
    match: Match,
    organiser: User,
    first_dealer: int,
    games: Sequence[tuple[int, int]],
    note: str = "",
) -> Match:
    """An organiser enters or corrects a result; it is final at once.

    A game of the match being played on the site ends with it (``signals.result_entered``).
    """
    match = locked_match(match)
    refuse(refusal_to_settle(match))
    result = check_report(match, first_dealer, games)
    before = match_snapshot(match)
    games_save(match=match, first_dealer=first_dealer, result=result)
    match.status = Match.Status.FINAL
    match.dispute_note = ""
    save_changed(match)
    action = ResultChange.Action.SETTLED if before["games"] else ResultChange.Action.ENTERED
    log_change(
        match, Actor(user=organiser), action, before, note=note.strip()[:DISPUTE_NOTE_LENGTH]
    )
    result_entered.announce(match=match.pk)  # a game of it on the site ends with it
    return match


@transaction.atomic
def game_records_attach(*, match: Match, records: Sequence[dict[str, Any]]) -> None:
    """Keep the engine's record of each game played on the site with the reported game.

    A record must tell the same story as the result: same winner (seat) and loser's score.
    """
    match = locked_match(match)
    games = list(match.games.order_by("number"))
    if len(records) != len(games):
        raise TournamentError(_("There must be one record for each reported game."))
    for game, record in zip(games, records, strict=True):
        winner = record.get("winner")
        scores = record.get("final_scores") or [None, None]
        if winner != game.winner or scores[1 - game.winner] != game.loser_score:
            raise TournamentError(
                _("The record of game %(n)d does not match its reported result.")
                % {"n": game.number}
            )
    game_records_save(games=list(zip(games, records, strict=True)))
    tournament_changed(match.round.tournament_id, round_id=match.round_id, match_id=match.pk)
