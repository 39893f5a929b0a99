"""Match results: players report and confirm or dispute; organisers settle.

A player reports their whole match (the cut's first dealer, then each game's
winner and the loser's score). The engine (``scoring.match.check_match``)
checks it and derives dealers, skunks, game points and spread. The opponent
confirms (the match is final) or disputes (the organisers decide). A second
report by the opponent that agrees counts as a confirmation; one that differs
is a dispute. Every change is written to the result log.

The match row is locked first, so two players submitting at the same moment
are served one after the other and the second sees the first's report.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils.translation import gettext as _

from scoring.match import GamePoints, MatchReportError, MatchResult, check_match
from tournaments.errors import TournamentError
from tournaments.models import Game, Match, ResultChange, Round, Seat, Tournament

User = AbstractBaseUser | AnonymousUser


def scheme_of(tournament: Tournament) -> GamePoints:
    return GamePoints(
        tournament.points_win, tournament.points_skunk, tournament.points_double_skunk
    )


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
    if first_dealer not in (0, 1):
        raise TournamentError(_("Say who dealt first in game 1."))
    try:
        result = check_match(
            best_of=match.best_of,
            first_dealer=first_dealer,
            games=games,
            scheme=scheme_of(match.round.tournament),
        )
    except MatchReportError as error:
        raise TournamentError(_report_error_message(error, games, match.best_of)) from error
    if complete and not result.decided:
        raise TournamentError(
            _("The match is not decided yet: a player needs %(n)d game wins.")
            % {"n": result.games_needed}
        )
    return result


def _report_error_message(
    error: MatchReportError, games: Sequence[tuple[int, int]], best_of: int
) -> str:
    needed = best_of // 2 + 1
    wins = [0, 0]
    for number, (winner, loser_score) in enumerate(games, start=1):
        if max(wins) >= needed:
            return _("Game %(n)d was not needed: the match was already decided.") % {"n": number}
        if not 0 <= loser_score <= 120:
            return _("Game %(n)d: the loser's score must be between 0 and 120.") % {"n": number}
        if winner in (0, 1):
            wins[winner] += 1
    return str(error)


def seat_of(match: Match, user: User) -> int | None:
    """The seat (0 or 1) of ``user``'s player in ``match``, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    seat = match.seats.filter(entry__player__user=user).values_list("seat", flat=True).first()
    return seat


def _locked(match: Match) -> Match:
    return Match.objects.select_for_update().select_related("round__tournament").get(pk=match.pk)


def _save_games(match: Match, result: MatchResult, first_dealer: int) -> None:
    match.games.all().delete()
    Game.objects.bulk_create(
        Game(
            match=match,
            number=game.number,
            dealer=game.dealer,
            winner=game.winner,
            loser_score=game.loser_score,
        )
        for game in result.games
    )
    match.first_dealer = first_dealer
    match.winner = result.winner


def _log(
    match: Match, user: User | None, action: str, before: dict[str, Any], note: str = ""
) -> None:
    ResultChange.objects.create(
        match=match,
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        before=before,
        after=match_snapshot(match),
        note=note,
    )


def _check_open_for_players(match: Match) -> None:
    if match.is_bye:
        raise TournamentError(_("A bye has no result to report."))
    if match.round.status != Round.Status.PLAYING:
        raise TournamentError(_("This round is not being played, so results cannot be reported."))
    if match.status == Match.Status.FINAL:
        raise TournamentError(_("This match is already final. Ask an organiser to correct it."))
    if match.status == Match.Status.DISPUTED:
        raise TournamentError(_("This match is disputed; the organisers will settle it."))


def _same_result(match: Match, first_dealer: int, result: MatchResult) -> bool:
    stored = [(g.winner, g.loser_score) for g in match.games.order_by("number")]
    return match.first_dealer == first_dealer and stored == [
        (g.winner, g.loser_score) for g in result.games
    ]


@transaction.atomic
def match_report_result(
    *, match: Match, reporter: User, first_dealer: int, games: Sequence[tuple[int, int]]
) -> Match:
    """A player reports their own match; the opponent then confirms or disputes."""
    match = _locked(match)
    seat = seat_of(match, reporter)
    if seat is None:
        raise TournamentError(_("You can only report your own match."))
    _check_open_for_players(match)
    result = check_report(match, first_dealer, games)
    before = match_snapshot(match)
    if match.status == Match.Status.REPORTED and match.reported_seat != seat:
        if _same_result(match, first_dealer, result):
            match.status = Match.Status.FINAL
            match.save()
            _log(match, reporter, "confirmed", before)
        else:
            match.status = Match.Status.DISPUTED
            match.dispute_note = _("The two players reported different results.")
            match.save()
            _log(match, reporter, "disputed", before, note=str(games))
        return match
    _save_games(match, result, first_dealer)
    match.status = Match.Status.REPORTED
    match.reported_seat = seat
    match.reported_by = reporter if reporter.is_authenticated else None
    match.save()
    _log(match, reporter, "reported", before)
    return match


@transaction.atomic
def match_confirm(*, match: Match, player_user: User) -> Match:
    """The opponent agrees with the report: the match is final."""
    match = _locked(match)
    seat = seat_of(match, player_user)
    if seat is None:
        raise TournamentError(_("You can only confirm your own match."))
    _check_open_for_players(match)
    if match.status != Match.Status.REPORTED:
        raise TournamentError(_("There is no report to confirm yet."))
    if match.reported_seat == seat:
        raise TournamentError(_("Your opponent confirms your report, not you."))
    before = match_snapshot(match)
    match.status = Match.Status.FINAL
    match.save()
    _log(match, player_user, "confirmed", before)
    return match


@transaction.atomic
def match_dispute(*, match: Match, player_user: User, note: str = "") -> Match:
    """The opponent disagrees with the report: the organisers decide."""
    match = _locked(match)
    seat = seat_of(match, player_user)
    if seat is None:
        raise TournamentError(_("You can only dispute your own match."))
    _check_open_for_players(match)
    if match.status != Match.Status.REPORTED or match.reported_seat == seat:
        raise TournamentError(_("Only the opponent of the reporting player can dispute a report."))
    before = match_snapshot(match)
    match.status = Match.Status.DISPUTED
    match.dispute_note = note.strip()[:300]
    match.save()
    _log(match, player_user, "disputed", before, note=match.dispute_note)
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
    """An organiser enters or corrects a result; it is final at once."""
    match = _locked(match)
    if match.is_bye:
        raise TournamentError(_("A bye has no result to enter."))
    if match.round.status == Round.Status.PROPOSED:
        raise TournamentError(_("Publish the round before entering results."))
    result = check_report(match, first_dealer, games)
    before = match_snapshot(match)
    _save_games(match, result, first_dealer)
    match.status = Match.Status.FINAL
    match.dispute_note = ""
    match.save()
    _log(
        match,
        organiser,
        "settled" if before["games"] else "entered",
        before,
        note=note.strip()[:300],
    )
    return match


def seats_of(match: Match) -> list[Seat]:
    return sorted(match.seats.all(), key=lambda seat: seat.seat)


@transaction.atomic
def game_records_attach(*, match: Match, records: Sequence[dict[str, Any]]) -> None:
    """Keep the engine's record of each game played on the site with the reported game.

    A record must tell the same story as the result: same winner (seat) and loser's score.
    """
    match = _locked(match)
    games = {game.number: game for game in match.games.all()}
    if len(records) != len(games):
        raise TournamentError(_("There must be one record for each reported game."))
    for number, record in enumerate(records, start=1):
        game = games[number]
        winner = record.get("winner")
        scores = record.get("final_scores") or [None, None]
        if winner != game.winner or scores[1 - game.winner] != game.loser_score:
            raise TournamentError(
                _("The record of game %(n)d does not match its reported result.") % {"n": number}
            )
        game.record = record
        game.save(update_fields=["record"])
