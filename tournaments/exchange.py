"""A whole tournament as JSON, written out and read back (docs/tournament-json.md).

``export_tournament`` gives plain data: the tournament's settings, its players
(by their register id), every published round with its matches, games and byes,
and the standings. ``import_tournament`` reads that data back in one
transaction: players are found in the register by name and club (or added), the
results are stored as final and logged as imported, and the import is refused,
saving nothing, when the data is not a possible tournament (the engine checks
every match).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from club.models import Player
from club.services import player_create
from tournaments import bridge, selectors
from tournaments.errors import TournamentError
from tournaments.models import (
    Entry,
    ForbiddenPair,
    Game,
    Match,
    ResultChange,
    Round,
    Seat,
    Tournament,
)
from tournaments.services.results import check_report, match_snapshot

FORMAT = "cribbage-club/tournament"
VERSION = 1


def export_tournament(tournament: Tournament, *, records: bool = False) -> dict[str, Any]:
    """The tournament as plain data; ``records`` adds each game's engine record where kept."""
    entries = list(tournament.entries.select_related("player").order_by("pk"))
    player_of = {entry.pk: entry.player_id for entry in entries}
    return {
        "format": FORMAT,
        "version": VERSION,
        "tournament": _settings(tournament, player_of),
        "players": [
            {
                "id": entry.player_id,
                "name": entry.player.name,
                "club": entry.player.club,
                "checked_in": entry.checked_in,
                "withdrawn": entry.withdrawn,
                "first_round": entry.first_round,
            }
            for entry in entries
        ],
        "forbidden_pairs": [
            [player_of[pair.first_id], player_of[pair.second_id]]
            for pair in tournament.forbidden_pairs.order_by("pk")
        ],
        "rounds": [_round(r, player_of, records) for r in selectors.published_rounds(tournament)],
        "standings": [
            {
                "rank": row.standing.rank,
                "shared": row.standing.shared,
                "player": row.entry.player_id,
                "match_wins": row.standing.match_wins,
                "match_losses": row.standing.match_losses,
                "game_points": row.standing.game_points,
                "spread": row.standing.spread,
                "buchholz": row.standing.buchholz,
            }
            for row in bridge.standings(tournament)
        ],
    }


def _settings(tournament: Tournament, player_of: dict[int, int]) -> dict[str, Any]:
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "year": tournament.year,
        "venue": tournament.venue,
        "starts_on": tournament.starts_on.isoformat(),
        "ends_on": tournament.ends_on.isoformat(),
        "is_championship": tournament.is_championship,
        "swiss_rounds": tournament.swiss_rounds,
        "best_of": tournament.best_of,
        "playoff_size": tournament.playoff_size,
        "playoff_best_of": tournament.playoff_best_of,
        "game_points": {
            "win": tournament.points_win,
            "skunk": tournament.points_skunk,
            "double_skunk": tournament.points_double_skunk,
        },
        "tiebreaks": list(tournament.tiebreaks),
        "bye_game_points": tournament.bye_game_points,
        "seed": tournament.seed,
        "status": tournament.status,
        "champion": player_of.get(tournament.champion_id) if tournament.champion_id else None,
    }


def _round(round_: Round, player_of: dict[int, int], records: bool) -> dict[str, Any]:
    matches, byes = [], []
    for match in selectors.round_matches(round_):
        players = [player_of[seat.entry_id] for seat in match.seats.all()]
        if match.is_bye:
            byes.append(players[0])
            continue
        item: dict[str, Any] = {
            "table": match.table,
            "players": players,
            "best_of": match.best_of,
            "status": match.status,
            "first_dealer": players[match.first_dealer] if match.first_dealer is not None else None,
            "winner": players[match.winner] if match.winner is not None else None,
            "games": [
                {
                    "number": game.number,
                    "dealer": players[game.dealer],
                    "winner": players[game.winner],
                    "loser_score": game.loser_score,
                    **({"record": game.record} if records and game.record else {}),
                }
                for game in match.games.all()
            ],
        }
        if match.bracket_slot is not None:
            item["bracket_slot"] = match.bracket_slot
        matches.append(item)
    return {
        "number": round_.number,
        "kind": round_.kind,
        "status": round_.status,
        "seed": round_.seed,
        "byes": byes,
        "matches": matches,
        "explanation": round_.explanation,
    }


def _find_player(data: dict[str, Any]) -> Player:
    same = list(Player.objects.filter(name=data["name"], club=data.get("club", ""))[:2])
    if len(same) == 1:
        return same[0]
    by_id = Player.objects.filter(pk=data.get("id"), name=data["name"]).first()
    return by_id or player_create(name=data["name"], club=data.get("club", ""))


@transaction.atomic
def import_tournament(data: dict[str, Any], *, slug: str = "") -> Tournament:
    """Create the tournament the data describes; any inconsistency saves nothing."""
    try:
        return _import(data, slug)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        if isinstance(error, TournamentError):
            raise
        raise TournamentError(
            _("The file is not a tournament export: %(error)r") % {"error": error}
        ) from error


def _import(data: dict[str, Any], slug: str) -> Tournament:
    settings = data["tournament"]
    slug = slug or settings["slug"]
    if Tournament.objects.filter(slug=slug).exists():
        raise TournamentError(
            _("A tournament with the address %(slug)s exists already.") % {"slug": slug}
        )
    points = settings["game_points"]
    tournament = Tournament(
        slug=slug,
        name=settings["name"],
        year=settings["year"],
        venue=settings.get("venue", ""),
        starts_on=datetime.date.fromisoformat(
            settings.get("starts_on", f"{settings['year']}-01-01")
        ),
        ends_on=datetime.date.fromisoformat(settings.get("ends_on", f"{settings['year']}-01-01")),
        is_championship=settings.get("is_championship", False),
        swiss_rounds=settings.get("swiss_rounds", max(1, len(data["rounds"]))),
        best_of=settings["best_of"],
        playoff_size=settings.get("playoff_size"),
        playoff_best_of=settings.get("playoff_best_of", 3),
        points_win=points["win"],
        points_skunk=points["skunk"],
        points_double_skunk=points["double_skunk"],
        tiebreaks=list(settings["tiebreaks"]),
        bye_game_points=settings.get("bye_game_points", 4),
        seed=settings.get("seed", 0),
        status=settings.get("status", Tournament.Status.SWISS),
    )
    tournament.full_clean(validate_constraints=False)
    if (
        tournament.is_championship
        and Tournament.objects.filter(year=tournament.year, is_championship=True).exists()
    ):
        raise TournamentError(_("%(year)d already has a championship.") % {"year": tournament.year})
    tournament.save()
    entry_of = _import_entries(tournament, data)
    for pair in data.get("forbidden_pairs", []):
        low, high = sorted((entry_of[pair[0]], entry_of[pair[1]]), key=lambda e: e.pk)
        ForbiddenPair.objects.create(tournament=tournament, first=low, second=high)
    for round_data in data["rounds"]:
        _import_round(tournament, round_data, entry_of)
    champion = settings.get("champion")
    if champion is not None:
        tournament.champion = entry_of[champion]
        tournament.save(update_fields=["champion"])
    return tournament


def _import_entries(tournament: Tournament, data: dict[str, Any]) -> dict[int, Entry]:
    entry_of = {}
    for player_data in data["players"]:
        entry_of[player_data["id"]] = Entry.objects.create(
            tournament=tournament,
            player=_find_player(player_data),
            checked_in=player_data.get("checked_in", True),
            withdrawn=player_data.get("withdrawn", False),
            first_round=player_data.get("first_round", 1),
        )
    return entry_of


def _import_round(tournament: Tournament, data: dict[str, Any], entry_of: dict[int, Entry]) -> None:
    round_ = Round.objects.create(
        tournament=tournament,
        number=data["number"],
        kind=data.get("kind", Round.Kind.SWISS),
        status=data.get("status", Round.Status.CLOSED),
        seed=data.get("seed", 0),
        explanation=data.get("explanation") or {},
    )
    for item in data["matches"]:
        _import_match(round_, item, entry_of)
    for player in data.get("byes", []):
        match = Match.objects.create(
            round=round_,
            is_bye=True,
            best_of=tournament.best_of,
            status=Match.Status.FINAL,
            winner=0,
        )
        Seat.objects.create(match=match, round=round_, entry=entry_of[player], seat=0)


def _import_match(round_: Round, item: dict[str, Any], entry_of: dict[int, Entry]) -> None:
    players = item["players"]
    if len(players) != 2 or players[0] == players[1]:
        raise TournamentError(
            _("Round %(n)d: a match needs two different players.") % {"n": round_.number}
        )
    seat_of = {player: seat for seat, player in enumerate(players)}
    match = Match.objects.create(
        round=round_,
        table=item["table"],
        best_of=item.get("best_of", round_.tournament.best_of),
        bracket_slot=item.get("bracket_slot"),
    )
    Seat.objects.bulk_create(
        Seat(match=match, round=round_, entry=entry_of[player], seat=seat)
        for player, seat in seat_of.items()
    )
    games = item.get("games", [])
    if not games:
        return
    first_dealer = (
        seat_of[item["first_dealer"]]
        if item.get("first_dealer") is not None
        else seat_of[games[0]["dealer"]]
    )
    reported = [(seat_of[g["winner"]], g["loser_score"]) for g in games]
    try:
        result = check_report(match, first_dealer, reported, complete=False)
    except TournamentError as error:
        raise TournamentError(
            _("Round %(n)d, table %(table)s: %(error)s")
            % {"n": round_.number, "table": match.table, "error": error}
        ) from error
    for given, derived in zip(games, result.games, strict=True):
        if "dealer" in given and seat_of.get(given["dealer"]) != derived.dealer:
            raise TournamentError(
                _(
                    "Round %(n)d, table %(table)s, game %(game)d: "
                    "the loser of the previous game deals next."
                )
                % {"n": round_.number, "table": match.table, "game": derived.number}
            )
    Game.objects.bulk_create(
        Game(
            match=match,
            number=g.number,
            dealer=g.dealer,
            winner=g.winner,
            loser_score=g.loser_score,
            record=games[i].get("record"),
        )
        for i, g in enumerate(result.games)
    )
    match.first_dealer = first_dealer
    match.winner = result.winner
    match.status = item.get(
        "status", Match.Status.FINAL if result.winner is not None else Match.Status.IN_PLAY
    )
    match.save()
    ResultChange.objects.create(
        match=match, action=ResultChange.Action.IMPORTED, before=None, after=match_snapshot(match)
    )
