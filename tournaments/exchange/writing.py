"""The writing pass of an import: a checked export saved in one transaction.

``import_tournament`` checks the whole export first (``check_export``) and only
then writes it: the tournament, an entry per player (found in the register by
exact name and club, or by id and name, or added), the forbidden pairs, and
each round with its matches, seats, the engine's games and the byes, written by
the services that write them on the site (``services.matches``). Imported
results keep their status and each match with games gets one "imported" line
in its result log; game records are attached by the service the site uses.

An imported tournament is unrated (``Tournament.rated``): a copy of an exported
tournament must not count its matches a second time. Imported ``rated``, its final
results are rated like those saved on the site, unless one of its matches is already on
the list (``tournaments.copies``): then the import is refused.
Any problem, even one only the database finds, saves nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction

from club.models import Player
from club.selectors import members
from club.services import player_create
from tournaments import copies
from tournaments.errors import TournamentError
from tournaments.exchange.checking import ImportPlan, PlayerPlan, check_export
from tournaments.exchange.fields import InvalidExport, at
from tournaments.exchange.matches import MatchPlan, RoundPlan
from tournaments.models import Entry, ForbiddenPair, ResultChange, Round, Tournament
from tournaments.ports import final_results_changed
from tournaments.services.matches import games_save, match_create
from tournaments.services.results import game_records_attach, match_snapshot


@transaction.atomic
def import_tournament(data: dict[str, Any], *, slug: str = "", rated: bool = False) -> Tournament:
    """Create the tournament the export ``data`` describes (under ``slug`` when given),
    unrated unless ``rated``.

    Raises ``InvalidExport`` naming the value at fault, or ``TournamentError`` (also for a
    rated import of matches already on the list); either way nothing is saved.
    """
    plan = check_export(data, slug=slug)
    try:
        with transaction.atomic():
            return _write(plan, rated=rated)
    except IntegrityError as error:  # another import took the address meanwhile, say
        raise TournamentError(f"The import could not be saved: {error}") from error


def _write(plan: ImportPlan, *, rated: bool) -> Tournament:
    if rated:
        copies.lock_rated_switches()  # before its matches are compared with the list's
    tournament = plan.tournament
    tournament.rated = rated
    tournament.save()
    entry_of = _write_entries(tournament, plan.players)
    for first, second in plan.forbidden_pairs:
        low, high = sorted((entry_of[first], entry_of[second]), key=lambda entry: entry.pk)
        ForbiddenPair.objects.create(tournament=tournament, first=low, second=high)
    for round_plan in plan.rounds:
        _write_round(round_plan, entry_of)
    if plan.champion is not None:
        tournament.champion = entry_of[plan.champion]
        tournament.save(update_fields=["champion"])
    if rated:
        _refuse_matches_on_the_list(tournament)
        # Its final results are rated, and every period after them again.
        final_results_changed(round=None)
    return tournament


def _refuse_matches_on_the_list(tournament: Tournament) -> None:
    refusal = copies.copy_refusal(tournament)
    if refusal:
        raise TournamentError(f"{refusal} Import it without --rated, or correct the file.")


def _find_player(plan: PlayerPlan) -> Player:
    # A member of the register, never a rehearsal's made-up player: an import is no rehearsal.
    same = list(members().filter(name=plan.name, club=plan.club)[:2])
    if len(same) == 1:
        return same[0]
    by_id = members().filter(pk=plan.id, name=plan.name).first()
    return by_id or player_create(name=plan.name, club=plan.club)


def _write_entries(tournament: Tournament, players: tuple[PlayerPlan, ...]) -> dict[int, Entry]:
    entry_of: dict[int, Entry] = {}
    taken: dict[int, str] = {}
    for plan in players:
        player = _find_player(plan)
        if player.pk in taken:
            raise InvalidExport(
                plan.path, f"is the same player of the register as {taken[player.pk]} ({player})"
            )
        taken[player.pk] = plan.path
        entry_of[plan.id] = Entry.objects.create(
            tournament=tournament,
            player=player,
            checked_in=plan.checked_in,
            withdrawn=plan.withdrawn,
            first_round=plan.first_round,
            playoff_seed=plan.playoff_seed,
        )
    return entry_of


def _write_round(plan: RoundPlan, entry_of: Mapping[int, Entry]) -> None:
    round_ = plan.round
    round_.save()
    for match_plan in plan.matches:
        _write_match(match_plan, entry_of)
    tournament = round_.tournament
    best_of = (
        tournament.playoff_best_of if round_.kind == Round.Kind.PLAYOFF else tournament.best_of
    )
    for bye in plan.byes:
        match_create(
            round=round_,
            entries=[entry_of[bye.player].pk],
            best_of=best_of,
            bracket_slot=bye.bracket_slot,
        )


def _write_match(plan: MatchPlan, entry_of: Mapping[int, Entry]) -> None:
    given = plan.match
    match = match_create(
        round=given.round,
        entries=[entry_of[player].pk for player in plan.players],
        best_of=given.best_of,
        table=given.table,
        bracket_slot=given.bracket_slot,
    )
    if not plan.result.games:
        return
    assert given.first_dealer is not None  # checked: a match with games has one
    games_save(match=match, first_dealer=given.first_dealer, result=plan.result)
    match.status = given.status
    match.save(update_fields=["status"])
    ResultChange.objects.create(
        match=match, action=ResultChange.Action.IMPORTED, before=None, after=match_snapshot(match)
    )
    records = [record for record in plan.records if record is not None]
    if records:
        try:
            game_records_attach(match=match, records=records)
        except TournamentError as error:
            raise InvalidExport(at(plan.path, "games"), str(error)) from error
