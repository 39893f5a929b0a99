"""The one writer of matches, their seats and their games.

Every match is made here, whether a Swiss round is paired (``services.rounds``), a
play-off round is drawn (``services.playoff``) or a tournament is imported
(``tournaments.exchange``); every game is written here, whether a player reports, an
organiser settles (``services.results``) or a file is imported. So a match is always
written the same way: its *seats* in order (seat 0 is the first entry given: the
higher player of a Swiss pair, the better seed in the play-off), a *bye* as a final
match won by its only seat, at no table; and its games as the engine derived them
(``scoring.rules.match.check_match``: each game's dealer, "loser deals next", and the winner
of the match).

These functions check nothing and log nothing: the services that call them validate,
lock, log and move the results version, inside their own transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.rules.match import MatchResult
from tournaments.models import Game, Match, Round, Seat


def match_create(
    *,
    round: Round,  # noqa: A002
    entries: Sequence[int],
    best_of: int,
    table: int | None = None,
    bracket_slot: int | None = None,
) -> Match:
    """A match of ``round`` between ``entries`` (ids, seat 0 first).

    One entry is a bye: won by its seat and final at once, at no ``table``.
    """
    match = Match(round=round, table=table, best_of=best_of, bracket_slot=bracket_slot)
    if len(entries) == 1:
        match.is_bye, match.table, match.status, match.winner = True, None, Match.Status.FINAL, 0
    match.save()
    Seat.objects.bulk_create(
        Seat(match=match, round=round, entry_id=entry, seat=seat)
        for seat, entry in enumerate(entries)
    )
    return match


def seats_exchange(*, first: Seat, second: Seat) -> None:
    """Two players of one round change places: each takes the other's match and seat."""
    moved = [
        Seat(
            match_id=there.match_id,
            round_id=there.round_id,
            entry_id=player.entry_id,
            seat=there.seat,
        )
        for player, there in ((first, second), (second, first))
    ]
    # Delete, then insert: the unique (round, entry) and (match, seat) rules hold throughout.
    Seat.objects.filter(pk__in=[first.pk, second.pk]).delete()
    Seat.objects.bulk_create(moved)


def game_rows(*, match: Match, result: MatchResult) -> list[Game]:
    """The match's games as ``result`` (the engine's verdict) has them, not yet saved."""
    return [
        Game(
            match=match,
            number=game.number,
            dealer=game.dealer,
            winner=game.winner,
            loser_score=game.loser_score,
        )
        for game in result.games
    ]


def games_save(*, match: Match, first_dealer: int, result: MatchResult) -> None:
    """Replace the match's games with ``result``'s: the engine's verdict on games whose
    first was dealt by ``first_dealer``. The match keeps that first dealer and the winner."""
    match.games.all().delete()
    Game.objects.bulk_create(game_rows(match=match, result=result))
    match.first_dealer = first_dealer
    match.winner = result.winner
    match.save(update_fields=["first_dealer", "winner", "updated_at"])


def game_records_save(*, games: Sequence[tuple[Game, dict[str, Any]]]) -> None:
    """Keep the engine's record of each game played on the site with the game."""
    for game, record in games:
        game.record = record
    Game.objects.bulk_update([game for game, _record in games], ["record"])
