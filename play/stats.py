"""Practice statistics: a player's finished games counted from their records.

Terms: for each finished game of two (every game of a match counts) the player's
*pegging* is the points of their cards laid, go's and last cards; their *hand*
and *crib* points are their shows; the *race* is both scores after each deal,
from 0-0, drawn as an inline SVG line chart with the skunk line (91) and the
finish (121). A *skunk* is a win with the loser on 90 or fewer. A member's
*online* results are their finished games and matches against other members
(``play.online``): won or lost, and the games won in each.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from play.models import OnlineGame, PracticeGame
from play.services import COMPUTER, HUMAN
from scoring.rules.events import SKUNK_LINE, WINNING_SCORE, EventType, Skunk
from scoring.rules.seats import seating

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 240, 120, 6


@dataclass(frozen=True)
class GameStats:
    """One finished game of a practice, from the player's seat."""

    practice_id: int
    number: int
    best_of: int
    level: str
    played: datetime.datetime
    won: bool
    scores: tuple[int, int]
    skunk: Skunk
    deals: int
    pegging: int
    hands: list[int]
    cribs: list[int]
    race: list[tuple[int, int]]

    def _polyline(self, seat: int) -> str:
        steps = max(1, len(self.race) - 1)
        return " ".join(
            f"{_chart_x(index, steps)},{_chart_y(scores[seat])}"
            for index, scores in enumerate(self.race)
        )

    @property
    def you_line(self) -> str:
        return self._polyline(HUMAN)

    @property
    def computer_line(self) -> str:
        return self._polyline(COMPUTER)

    @property
    def chart_size(self) -> tuple[int, int]:
        return CHART_WIDTH, CHART_HEIGHT

    @property
    def skunk_y(self) -> float:
        return _chart_y(SKUNK_LINE + 1)  # the line a loser must pass (91)

    @property
    def finish_y(self) -> float:
        return _chart_y(WINNING_SCORE)

    @property
    def race_table(self) -> list[tuple[int, int, int]]:
        return [(deal, you, computer) for deal, (you, computer) in enumerate(self.race)]


def _chart_x(index: int, steps: int) -> float:
    return round(CHART_PAD + index * (CHART_WIDTH - 2 * CHART_PAD) / steps, 1)


def _chart_y(score: int) -> float:
    drawn = score * (CHART_HEIGHT - 2 * CHART_PAD) / WINNING_SCORE
    return round(CHART_HEIGHT - CHART_PAD - drawn, 1)


def _mean(values: list[int], count: int) -> float | None:
    return round(sum(values) / count, 2) if count else None


@dataclass(frozen=True)
class PracticeStats:
    """Totals over finished games: newest first."""

    games: list[GameStats]

    @property
    def played(self) -> int:
        return len(self.games)

    @property
    def won(self) -> int:
        return sum(game.won for game in self.games)

    @property
    def skunks(self) -> int:
        """Games the player won with the computer skunked (or double skunked)."""
        return sum(game.won and game.skunk is not Skunk.NONE for game in self.games)

    @property
    def skunked(self) -> int:
        return sum(not game.won and game.skunk is not Skunk.NONE for game in self.games)

    @property
    def deals(self) -> int:
        return sum(game.deals for game in self.games)

    @property
    def pegging_per_deal(self) -> float | None:
        return _mean([game.pegging for game in self.games], self.deals)

    @property
    def hand_per_deal(self) -> float | None:
        hands = [points for game in self.games for points in game.hands]
        return _mean(hands, len(hands))

    @property
    def crib_per_deal(self) -> float | None:
        """Per crib of the player's shown (every other deal, when the player deals)."""
        cribs = [points for game in self.games for points in game.cribs]
        return _mean(cribs, len(cribs))

    @property
    def highest_hand(self) -> int | None:
        return max((points for game in self.games for points in game.hands), default=None)

    @property
    def recent(self) -> list[GameStats]:
        return self.games[:12]


def game_stats(practice: PracticeGame, number: int, record: dict[str, Any]) -> GameStats:
    """The player's numbers in one game record: pegging, hands, cribs and the race by deal."""
    pegging = 0
    hands: list[int] = []
    cribs: list[int] = []
    race = [(0, 0)]
    race_end = race[0]
    for deal in record["deals"]:
        for event in deal["events"]:
            if "scores" in event:
                race_end = (event["scores"][0], event["scores"][1])
            if event.get("player") != HUMAN:
                continue
            if event["type"] in (EventType.PLAY, EventType.GO, EventType.LAST):
                pegging += event.get("points") or 0
            elif event["type"] == EventType.SHOW:
                (cribs if event["what"] == "crib" else hands).append(event.get("points") or 0)
        race.append(race_end)
    scores = (record["final_scores"][0], record["final_scores"][1])
    return GameStats(
        practice_id=practice.pk,
        number=number,
        best_of=practice.best_of,
        level=practice.get_level_display(),
        played=practice.updated,
        won=record["winner"] == HUMAN,
        scores=scores,
        skunk=Skunk(record["skunk"] or Skunk.NONE),
        deals=len(record["deals"]),
        pegging=pegging,
        hands=hands,
        cribs=cribs,
        race=race,
    )


def practice_stats(*, games: QuerySet[PracticeGame]) -> PracticeStats:
    """Statistics over the finished games of two among ``games`` (a game of three or four
    is no race against the computer: its reviews count in the accuracy, not here)."""
    stats = []
    for practice in games.filter(finished=True, seats=2).order_by("-updated", "-pk"):
        records = practice.record["games"] if practice.record else []
        for number in range(len(records), 0, -1):
            stats.append(game_stats(practice, number, records[number - 1]))
    return PracticeStats(stats)


@dataclass(frozen=True)
class OnlineResult:
    """A finished game or match against a member, from the reader's seat."""

    game_id: int
    opponent: str
    best_of: int
    won: bool
    wins: tuple[int, int]
    """Games won in it: the reader's, then the opponent's."""
    ended: str
    played: datetime.datetime


@dataclass(frozen=True)
class OnlineStats:
    """A member's results against other members, newest first; and how many tables of
    three or four they finished and how many their side won."""

    results: list[OnlineResult]
    tables: int = 0
    tables_won: int = 0

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def won(self) -> int:
        return sum(result.won for result in self.results)

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def games_won(self) -> int:
        return sum(result.wins[0] for result in self.results)

    @property
    def games_lost(self) -> int:
        return sum(result.wins[1] for result in self.results)


def online_stats(*, user_id: int, games: QuerySet[OnlineGame]) -> OnlineStats:
    """The results of the finished ``games`` (a member's own) from ``user_id``'s seat (at a
    table, whether their side won, even if they left it)."""
    results = []
    tables = tables_won = 0
    for game in games.filter(finished=True).order_by("-last_move", "-pk"):
        if game.is_table:
            sat_at = game.sat_at(user_id)
            if sat_at is not None:
                tables += 1
                tables_won += game.winner == seating(game.seats).side_of[sat_at]
            continue
        seat = game.seat_of(user_id)
        if seat is None or game.record is None:
            continue
        wins = game.record.get("wins", [0, 0])
        names = game.record.get("players", ["", ""])
        results.append(
            OnlineResult(
                game_id=game.pk,
                opponent=str(names[1 - seat]),
                best_of=game.best_of,
                won=game.winner == seat,
                wins=(int(wins[seat]), int(wins[1 - seat])),
                ended=game.ended,
                played=game.last_move,
            )
        )
    return OnlineStats(results, tables, tables_won)
