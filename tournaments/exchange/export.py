"""A whole tournament written out as plain data (docs/tournament-json.md).

``export_tournament`` gives the tournament's settings, its players (by their
register id, with their play-off seeds), every published round with its matches,
games and byes (in the play-off with their places in the bracket), and the
standings, ready for ``json.dumps``.
"""

from __future__ import annotations

from typing import Any

from tournaments import selectors
from tournaments.models import Entry, Round, Tournament

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
        "players": [_player(entry) for entry in entries],
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
            for row in selectors.standings(tournament)
        ],
    }


def _player(entry: Entry) -> dict[str, Any]:
    player = {
        "id": entry.player_id,
        "name": entry.player.name,
        "club": entry.player.club,
        "checked_in": entry.checked_in,
        "withdrawn": entry.withdrawn,
        "first_round": entry.first_round,
    }
    if entry.playoff_seed is not None:
        player["playoff_seed"] = entry.playoff_seed
    return player


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
    matches: list[dict[str, Any]] = []
    byes: list[int | dict[str, int]] = []
    for match in selectors.round_matches(round_):
        players = [player_of[seat.entry_id] for seat in match.seats.all()]
        if match.is_bye:  # in the play-off, with its place in the bracket
            slot = match.bracket_slot
            byes.append(
                players[0] if slot is None else {"player": players[0], "bracket_slot": slot}
            )
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
