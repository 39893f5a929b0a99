"""The crosstable and the play-off bracket as grids of cells, ready for a printed table.

Terms: the *crosstable* has a row per player in standings order and a column
per Swiss round; a cell names the opponent by rank in those standings and
short name, with the result (W, L, or nothing while undecided) and the games
won and lost. The *bracket* grid has a column per play-off round and a row
per first-round match; a match of a later round spans the rows of the matches
it follows (2, 4, 8 ...), so each one sits between the two it comes from.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from competition import playoff
from tournaments import selectors
from tournaments.bridge import StandingRow
from tournaments.models import Game, Match, Round, Seat, Tournament

SHORT_NAME_LENGTH = 12
# A seat in the crosstable's query: entry, seat (0 or 1), round number, the match's winner seat.
SeatRow = tuple[int, int, int, int | None]


@dataclass(frozen=True)
class CrossCell:
    """A player's match in one round; ``opponent_rank`` None is a bye."""

    opponent_rank: int | None
    opponent: str
    result: str
    games: str


@dataclass(frozen=True)
class CrossRow:
    row: StandingRow
    cells: tuple[CrossCell | None, ...]


def short_name(name: str) -> str:
    """The last word of a name, cut to fit a crosstable cell: "Alva Söderlund" -> "Söderlund"."""
    last = name.split()[-1] if name.split() else name
    return last if len(last) <= SHORT_NAME_LENGTH else last[: SHORT_NAME_LENGTH - 1] + "."


def _seats_by_match(tournament: Tournament, numbers: Sequence[int]) -> dict[int, list[SeatRow]]:
    seats = (
        Seat.objects.filter(
            round__tournament=tournament, round__kind=Round.Kind.SWISS, round__number__in=numbers
        )
        .order_by("match_id", "seat")
        .values_list(
            "match_id", "entry_id", "seat", "round__number", "match__winner", "match__status"
        )
    )
    by_match: dict[int, list[SeatRow]] = defaultdict(list)
    for match_id, entry, seat, number, winner, status in seats:
        # Final results only, as the standings count them (a report may yet be disputed).
        decided = winner if status == Match.Status.FINAL else None
        by_match[match_id].append((entry, seat, number, decided))
    return by_match


def _games_won(tournament: Tournament, numbers: Sequence[int]) -> Counter[tuple[int, int]]:
    """Games won per (match, seat)."""
    games = Game.objects.filter(
        match__round__tournament=tournament,
        match__round__kind=Round.Kind.SWISS,
        match__round__number__in=numbers,
    ).values_list("match_id", "winner")
    return Counter(games)


def crosstable(tournament: Tournament, numbers: Sequence[int]) -> list[CrossRow]:
    """The crosstable of Swiss rounds ``numbers`` (published ones), in a fixed number of queries."""
    if not numbers:
        return []
    rows = selectors.standings(tournament, through_round=max(numbers))
    by_entry = {row.entry.pk: row for row in rows}
    won = _games_won(tournament, numbers)
    cells: dict[tuple[int, int], CrossCell] = {}
    for match_id, seats in _seats_by_match(tournament, numbers).items():
        for entry, seat, number, winner in seats:
            cells[entry, number] = _cell(match_id, seat, winner, seats, by_entry, won)
    return [
        CrossRow(row, tuple(cells.get((row.entry.pk, number)) for number in numbers))
        for row in rows
    ]


def _cell(
    match_id: int,
    seat: int,
    winner: int | None,
    seats: list[SeatRow],
    by_entry: dict[int, StandingRow],
    won: Counter[tuple[int, int]],
) -> CrossCell:
    result = "" if winner is None else (_("W") if winner == seat else _("L"))
    others = [entry for entry, other, _number, _winner in seats if other != seat]
    if not others:
        return CrossCell(None, _("bye"), result, "")
    opponent = by_entry[others[0]]
    games = "" if winner is None else f"{won[match_id, seat]}-{won[match_id, 1 - seat]}"
    return CrossCell(opponent.standing.rank, short_name(opponent.entry.player.name), result, games)


@dataclass(frozen=True)
class BracketSeat:
    seed: int | None
    name: str
    games_won: int
    won: bool


@dataclass(frozen=True)
class BracketCell:
    """A match of the bracket grid, spanning ``rows`` rows; ``seats`` empty while unknown."""

    rows: int
    seats: tuple[BracketSeat, ...] = ()
    is_bye: bool = False
    status: str = ""
    scores: str = ""


@dataclass(frozen=True)
class Bracket:
    labels: list[str]
    rows: list[list[BracketCell]]
    champion: str | None


def _label(players: int) -> str:
    label = playoff.round_label(players)
    names = {
        "final": _("Final"),
        "semi_final": _("Semi-finals"),
        "quarter_final": _("Quarter-finals"),
    }
    return names.get(label, _("Last %(n)s") % {"n": players})


def _match_cell(match: Match, seats: list[Seat], rows: int) -> BracketCell:
    games = list(match.games.all())
    decided = match.status == Match.Status.FINAL
    return BracketCell(
        rows=rows,
        seats=tuple(
            BracketSeat(
                seed=seat.entry.playoff_seed,
                name=seat.entry.player.name,
                games_won=sum(1 for game in games if game.winner == seat.seat),
                won=decided and match.winner == seat.seat,
            )
            for seat in seats
        ),
        is_bye=match.is_bye,
        status="" if match.is_bye else match.get_status_display(),
        scores=", ".join(
            f"121-{game.loser_score}" if game.winner == 0 else f"{game.loser_score}-121"
            for game in sorted(games, key=lambda game: game.number)
        ),
    )


def bracket(tournament: Tournament) -> Bracket | None:
    """The bracket grid, or None before the play-off starts."""
    stages = selectors.bracket_rounds(tournament)
    if not stages:
        return None
    first = len(stages[0]["matches"])
    columns = max(1, (2 * first - 1).bit_length())
    grid: list[list[BracketCell]] = [[] for _ in range(first)]
    for column in range(columns):
        span = 1 << column
        stage = stages[column] if column < len(stages) else None
        by_slot = {item["match"].bracket_slot: item for item in stage["matches"]} if stage else {}
        for slot in range(first // span):
            item = by_slot.get(slot)
            cell = (
                _match_cell(item["match"], item["seats"], span) if item else BracketCell(rows=span)
            )
            grid[slot * span].append(cell)
    champion = tournament.champion.player.name if tournament.champion else None
    labels = [_label(2 * first >> column) for column in range(columns)]
    return Bracket(labels=labels, rows=grid, champion=champion)
