"""The bridge between the tournament models and the plain-Python algorithms.

It reads a tournament's entries, seats and games in a fixed number of queries
(however large the field) and turns them into the inputs of
``competition.standings``, ``competition.pairing`` and ``competition.playoff``
(with the club's ratings, asked of ``ports.rating_list()``, for a round 1 seeded
by rating);
the services save what those return. Terms: an *entrant* is an ``Entry`` seen by
the algorithms, by its primary key; a round is *counted* in the standings once it
is published.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import cast

from django.db.models import Prefetch, Q

from competition.pairing import Entrant
from competition.playoff import PlayoffPairing
from competition.standings import ByeValue, GameScore, PlayedMatch, Standing, compute_standings
from scoring.rules.match import GamePoints
from tournaments.models import Entry, ForbiddenPair, Game, Match, Round, Seat, Seeding, Tournament
from tournaments.ports import rating_list


def scheme_of(tournament: Tournament) -> GamePoints:
    """The tournament's game points for a win, a skunk and a double skunk."""
    return GamePoints(
        tournament.points_win, tournament.points_skunk, tournament.points_double_skunk
    )


# What the pages, documents and services read of a standings line's entry and its player.
# The rest (timestamps, e-mail, the private key) is not loaded: fewer values to convert for
# each of the 2 x 256 model instances of a championship.
ROW_FIELDS = (
    "tournament",
    "player",
    "checked_in",
    "withdrawn",
    "first_round",
    "player__name",
    "player__club",
    "player__user",
)


@dataclass(frozen=True)
class StandingRow:
    """A standings line with the entry it belongs to (its ``ROW_FIELDS`` loaded)."""

    standing: Standing
    entry: Entry

    def __getattr__(self, name: str) -> object:
        return getattr(self.standing, name)


def _counted(tournament: Tournament, kind: str, through_round: int | None, path: str) -> Q:
    """The published rounds of ``kind`` up to ``through_round``, reached by the lookup ``path``."""
    rounds = Q(**{f"{path}__tournament": tournament, f"{path}__kind": kind})
    rounds &= ~Q(**{f"{path}__status": Round.Status.PROPOSED})
    if through_round is not None:
        rounds &= Q(**{f"{path}__number__lte": through_round})
    return rounds


def played_matches(
    tournament: Tournament, *, through_round: int | None = None, kind: str = Round.Kind.SWISS
) -> list[PlayedMatch]:
    """The final matches of published rounds (up to ``through_round``), in two queries.

    A result awaiting its confirmation, or disputed, does not count yet: the standings
    change only with final results (docs/operating.md, "Versions a page keys on")."""
    seats = (
        Seat.objects.filter(
            _counted(tournament, kind, through_round, "round"), match__status=Match.Status.FINAL
        )
        .order_by("match_id", "seat")
        .values_list("match_id", "entry_id", "round__number", "match__winner")
    )
    games: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for match_id, winner, loser_score in (
        Game.objects.filter(
            _counted(tournament, kind, through_round, "match__round"),
            match__status=Match.Status.FINAL,
        )
        .order_by("match_id", "number")
        .values_list("match_id", "winner", "loser_score")
    ):
        games[match_id].append((winner, loser_score))
    # By match, then seat: a match's players in seat order, its round and winner on each.
    seated: dict[int, tuple[list[int], int, int]] = {}
    for match_id, entry, number, match_winner in seats:
        if match_id in seated:
            seated[match_id][0].append(entry)
        else:
            # A final match: the query keeps only those, and a final one has a winner.
            seated[match_id] = ([entry], number, cast(int, match_winner))
    matches = []
    for match_id, (entries, number, winner) in seated.items():
        players = tuple(entries)
        scores = games.get(match_id, ()) if len(players) == 2 else ()
        matches.append(
            PlayedMatch(
                number,
                players,
                players[winner] if winner < len(players) else None,
                tuple([GameScore(players[seat], score) for seat, score in scores]),
            )
        )
    return matches


def _entries(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.select_related("player").order_by().only(*ROW_FIELDS))


def standings(tournament: Tournament, *, through_round: int | None = None) -> list[StandingRow]:
    """The Swiss standings after ``through_round`` (default: every published round)."""
    entries = _entries(tournament)
    table = _table(tournament, [entry.pk for entry in entries], through_round)
    by_id = {entry.pk: entry for entry in entries}
    return [StandingRow(standing, by_id[standing.entrant]) for standing in table]


def standings_table(tournament: Tournament, *, through_round: int | None = None) -> list[Standing]:
    """The same standings by entrant id alone, for readers who need no names (records)."""
    return _table(
        tournament, tournament.entries.order_by().values_list("pk", flat=True), through_round
    )


def _table(
    tournament: Tournament, entrants: Iterable[int], through_round: int | None
) -> list[Standing]:
    return compute_standings(
        entrants,
        played_matches(tournament, through_round=through_round),
        points=scheme_of(tournament),
        tiebreaks=tournament.tiebreaks,
        bye=ByeValue(game_points=tournament.bye_game_points),
    )


def pairing_input(
    tournament: Tournament, number: int
) -> tuple[list[Entrant], list[frozenset[int]], dict[int, str]]:
    """Who may be paired in round ``number``, their records, the forbidden pairs and names."""
    rows = standings(tournament)
    entrants = []
    for row in rows:
        entry = row.entry
        entrants.append(
            Entrant(
                id=entry.pk,
                match_wins=row.standing.match_wins,
                rank=row.standing.rank,
                opponents=frozenset(row.standing.opponents),
                byes=row.standing.byes,
                active=entry.checked_in and not entry.withdrawn and entry.first_round <= number,
            )
        )
    forbidden = [
        frozenset(pair)
        for pair in ForbiddenPair.objects.filter(tournament=tournament).values_list(
            "first_id", "second_id"
        )
    ]
    names = {row.entry.pk: str(row.entry.player) for row in rows}
    return entrants, forbidden, names


def seeding_ratings(tournament: Tournament, number: int) -> dict[int, float] | None:
    """Entrant -> rating now, for a round 1 the tournament seeds by rating (the unrated left
    out); None for a random draw and for every later round."""
    if number != 1 or tournament.seeding != Seeding.BY_RATING:
        return None
    players = dict(tournament.entries.order_by().values_list("player_id", "pk"))
    now = rating_list().ratings_now(players)
    return {players[player]: rating for player, rating in now.items()}


def have_met(tournament: Tournament, first: int, second: int) -> bool:
    """Whether two entries have sat at one table in a published round."""
    tables = (
        Seat.objects.filter(entry_id=first, round__tournament=tournament, match__is_bye=False)
        .exclude(round__status=Round.Status.PROPOSED)
        .values("match_id")
    )
    return Seat.objects.filter(match_id__in=tables, entry_id=second).exists()


def pair_is_allowed(tournament: Tournament, first: int, second: int) -> bool:
    """Neither a rematch nor a pair the organisers forbade."""
    low, high = sorted((first, second))
    if ForbiddenPair.objects.filter(tournament=tournament, first_id=low, second_id=high).exists():
        return False
    return not have_met(tournament, first, second)


def playoff_seeds(tournament: Tournament) -> dict[int, int]:
    """Entrant -> play-off seed (1 = top), for the players in the play-off."""
    seeded = tournament.entries.filter(playoff_seed__isnull=False).order_by()
    return {entry: seed for entry, seed in seeded.values_list("pk", "playoff_seed") if seed}


def bracket_round(round_: Round) -> tuple[list[PlayoffPairing], dict[int, int]]:
    """A play-off round's pairings by slot, and the winner of each slot decided (in two queries).

    Seat 0 of a play-off match is its better seed, the ``high`` of its pairing.
    """
    pairings, winners = [], {}
    seats = Prefetch("seats", queryset=Seat.objects.order_by("seat"))
    for match in round_.matches.prefetch_related(seats).order_by("bracket_slot"):
        slot = match.bracket_slot
        assert slot is not None  # every match of a play-off round has its place in the bracket
        entries = [seat.entry_id for seat in match.seats.all()]
        pairings.append(PlayoffPairing(slot, entries[0], entries[1] if len(entries) > 1 else None))
        if match.winner is not None:
            winners[slot] = entries[match.winner]
    return pairings, winners
