"""Matches: best-of-N games, and the arithmetic a championship checks results with.

Terms: a *match* is won by the first player to win a majority of ``best_of``
games (1, 3, 5 or 7). The first game's dealer comes from the cut; after that
the loser of the previous game deals first ("loser deals next"). A game is
reported as winner and *loser score* (0-120; the winner has 121). The winner
earns *game points* (by default 2 for a win, 3 for a skunk, 4 for a double
skunk; docs/rules.md §4.1) and the game's *spread*, 121 minus the loser's score, counts
plus to the winner and minus to the loser.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from scoring.rules.events import WINNING_SCORE, Phase, Skunk, skunk_of
from scoring.rules.game import Game

__all__ = [
    "ACC",
    "ONE_PER_GAME",
    "STANDARD",
    "GamePoints",
    "GameResult",
    "Match",
    "MatchReportError",
    "MatchResult",
    "ReportFault",
    "Skunk",
    "check_match",
    "game_points",
    "skunk_of",
    "spread",
]

BEST_OF = (1, 3, 5, 7)


@dataclass(frozen=True)
class GamePoints:
    """Game points to the winner of a game: a plain win, a skunk, a double skunk."""

    win: int = 2
    skunk: int = 3
    double_skunk: int = 4

    PRESETS: ClassVar[dict[str, GamePoints]]

    def for_skunk(self, skunk: Skunk) -> int:
        """Points for a game won with ``skunk``."""
        return {Skunk.NONE: self.win, Skunk.SKUNK: self.skunk, Skunk.DOUBLE: self.double_skunk}[
            skunk
        ]


STANDARD = GamePoints(2, 3, 4)
ACC = GamePoints(2, 3, 3)
ONE_PER_GAME = GamePoints(1, 1, 1)
GamePoints.PRESETS = {"standard": STANDARD, "acc": ACC, "one": ONE_PER_GAME}


class ReportFault(StrEnum):
    """Why a reported match cannot be true (``MatchReportError.reason``)."""

    BEST_OF = "best_of"
    """A match is best of 1, 3, 5 or 7 (``value``: what was given)."""
    FIRST_DEALER = "first_dealer"
    """The first dealer is player 0 or 1 (``value``)."""
    NOT_NEEDED = "not_needed"
    """Game ``game`` was played after the match was decided."""
    WINNER = "winner"
    """Game ``game``'s winner is not player 0 or 1 (``value``)."""
    LOSER_SCORE_NOT_A_NUMBER = "loser_score_not_a_number"
    """Game ``game``'s loser score is not a whole number (``value``)."""
    LOSER_SCORE_OUT_OF_RANGE = "loser_score_out_of_range"
    """Game ``game``'s loser score is not 0 to 120 (``value``)."""


_REPORT_FAULTS = {
    ReportFault.BEST_OF: "a match is best of 1, 3, 5 or 7 games, not {value!r}",
    ReportFault.FIRST_DEALER: "the first dealer is player 0 or 1, not {value!r}",
    ReportFault.NOT_NEEDED: "game {game} was played after the match was decided",
    ReportFault.WINNER: "game {game}: the winner is player 0 or 1, not {value!r}",
    ReportFault.LOSER_SCORE_NOT_A_NUMBER: "game {game}: the loser's score must be a whole number",
    ReportFault.LOSER_SCORE_OUT_OF_RANGE: (
        "game {game}: the loser's score is 0 to 120, not {value}"
    ),
}


class MatchReportError(ValueError):
    """A reported match result that cannot be true: ``reason``, with its ``game`` and ``value``.

    ``game`` (from 1) names the game at fault, None for the match's own fields;
    ``value`` is what was reported there. The message is the engine's English;
    a site words the reason in its own language.
    """

    def __init__(self, reason: ReportFault, *, game: int | None = None, value: object = None):
        self.reason = reason
        self.game = game
        self.value = value
        super().__init__(_REPORT_FAULTS[reason].format(game=game, value=value))


def game_points(loser_score: int, scheme: GamePoints = STANDARD) -> int:
    """Game points the winner earns against a loser on ``loser_score``."""
    return scheme.for_skunk(skunk_of(loser_score))


def spread(loser_score: int) -> int:
    """The winner's margin, 121 minus the loser's score."""
    return WINNING_SCORE - loser_score


@dataclass(frozen=True)
class GameResult:
    """One game of a checked match; ``number`` counts from 1."""

    number: int
    dealer: int
    winner: int
    loser_score: int
    skunk: Skunk
    game_points: int

    @property
    def spread(self) -> int:
        return spread(self.loser_score)


@dataclass(frozen=True)
class MatchResult:
    """A checked match: its games and each player's wins, game points and spread."""

    best_of: int
    games: tuple[GameResult, ...]
    wins: tuple[int, int]
    game_points: tuple[int, int]
    spread: tuple[int, int]
    winner: int | None
    games_needed: int

    @property
    def decided(self) -> bool:
        return self.winner is not None


def check_match(
    *,
    best_of: int,
    first_dealer: int,
    games: Sequence[tuple[int, int]],
    scheme: GamePoints = STANDARD,
) -> MatchResult:
    """Check a reported match, game by game as (winner 0|1, loser score), and total it.

    Raises ``MatchReportError`` naming the game at fault.
    """
    if best_of not in BEST_OF:
        raise MatchReportError(ReportFault.BEST_OF, value=best_of)
    if first_dealer not in (0, 1):
        raise MatchReportError(ReportFault.FIRST_DEALER, value=first_dealer)
    needed = best_of // 2 + 1
    wins, points, spreads = [0, 0], [0, 0], [0, 0]
    results: list[GameResult] = []
    dealer = first_dealer
    for number, (winner, loser_score) in enumerate(games, start=1):
        _check_game(number, winner, loser_score, wins, needed)
        skunk = skunk_of(loser_score)
        result = GameResult(number, dealer, winner, loser_score, skunk, scheme.for_skunk(skunk))
        results.append(result)
        wins[winner] += 1
        points[winner] += result.game_points
        spreads[winner] += result.spread
        spreads[1 - winner] -= result.spread
        dealer = 1 - winner  # loser deals next
    decided = [p for p in (0, 1) if wins[p] >= needed]
    return MatchResult(
        best_of=best_of,
        games=tuple(results),
        wins=(wins[0], wins[1]),
        game_points=(points[0], points[1]),
        spread=(spreads[0], spreads[1]),
        winner=decided[0] if decided else None,
        games_needed=needed,
    )


def _check_game(
    number: int, winner: object, loser_score: object, wins: list[int], needed: int
) -> None:
    if max(wins) >= needed:
        raise MatchReportError(ReportFault.NOT_NEEDED, game=number)
    if winner not in (0, 1) or isinstance(winner, bool):
        raise MatchReportError(ReportFault.WINNER, game=number, value=winner)
    if not isinstance(loser_score, int) or isinstance(loser_score, bool):
        raise MatchReportError(ReportFault.LOSER_SCORE_NOT_A_NUMBER, game=number, value=loser_score)
    if not 0 <= loser_score < WINNING_SCORE:
        raise MatchReportError(ReportFault.LOSER_SCORE_OUT_OF_RANGE, game=number, value=loser_score)


class Match:
    """A live best-of-N match of ``Game``s; call ``next_game`` when a game is over."""

    def __init__(
        self,
        *,
        seed: int,
        best_of: int,
        players: tuple[str, ...],
        self_count: frozenset[int],
        muggins: bool,
        callers: frozenset[int] = frozenset(),
        seats: int = 2,
        target: int = WINNING_SCORE,
    ) -> None:
        if best_of not in BEST_OF:
            raise ValueError(f"a match is best of 1, 3, 5 or 7 games, not {best_of!r}")
        if best_of != 1 and (seats != 2 or target != WINNING_SCORE):
            raise ValueError("a match of several games is played by two players to 121")
        self.seed = seed
        self.seats = seats
        self.target = target
        self.best_of = best_of
        self.players = players
        self.self_count = frozenset(self_count)
        self.muggins = muggins
        self.callers = frozenset(callers)
        self.games: list[Game] = []

    @classmethod
    def new(
        cls,
        *,
        seed: int,
        best_of: int = 3,
        players: tuple[str, ...] = ("Player", "Computer"),
        first_dealer: int | None = None,
        self_count: frozenset[int] = frozenset(),
        muggins: bool = False,
        callers: frozenset[int] = frozenset(),
        seats: int = 2,
        target: int = WINNING_SCORE,
    ) -> Match:
        """Start a match; the first game opens with the cut unless ``first_dealer`` is given.

        ``self_count``, ``muggins``, ``callers``, ``seats`` and ``target`` are each game's
        (``Game.new``). A game of three or four seats, or to 61 or 91, is a match of one
        game (``best_of`` 1): a best-of-N is played by two to 121.
        """
        match = cls(
            seed=seed, best_of=best_of, players=players, self_count=self_count, muggins=muggins,
            callers=callers, seats=seats, target=target,
        )  # fmt: skip
        match.games.append(match._new_game(1, first_dealer))
        return match

    def _new_game(self, number: int, first_dealer: int | None) -> Game:
        return Game.new(
            seed=self._game_seed(number),
            players=self.players,
            first_dealer=first_dealer,
            self_count=self.self_count,
            muggins=self.muggins,
            callers=self.callers,
            seats=self.seats,
            target=self.target,
        )

    @property
    def two_to_121(self) -> bool:
        """Whether the match is two players' to 121, the only one a championship knows and
        ``result`` checks."""
        return self.seats == 2 and self.target == WINNING_SCORE

    def _game_seed(self, number: int) -> int:
        """Each game's own seed, derived so that neighbouring match seeds share no games."""
        return random.Random(f"cribbage:{self.seed}:match-game:{number}").getrandbits(48)

    @property
    def game(self) -> Game:
        """The game being played (the last one once the match is decided)."""
        return self.games[-1]

    @property
    def result(self) -> MatchResult:
        """The games finished so far, checked and totalled; ``ValueError`` for a game of
        three or four, or to 61 or 91 (its one game's winner is ``winner``)."""
        if not self.two_to_121:
            raise ValueError("only a match of two players to 121 is checked and totalled")
        finished = [g for g in self.games if g.winner is not None]
        return check_match(
            best_of=self.best_of,
            first_dealer=self.games[0].first_dealer,
            games=[(g.winner, g.scores[1 - g.winner]) for g in finished if g.winner is not None],
        )

    @property
    def winner(self) -> int | None:
        """The side that won the match (a player, or with four seats a partnership)."""
        if not self.two_to_121:
            return self.game.winner
        return self.result.winner

    def next_game(self) -> Game:
        """Start the next game, the loser of the last one dealing first."""
        last = self.game
        if last.phase is not Phase.DONE or last.winner is None:
            raise ValueError("the current game is not over yet")
        if self.winner is not None:
            raise ValueError("the match is already decided")
        game = self._new_game(len(self.games) + 1, first_dealer=1 - last.winner)
        self.games.append(game)
        return game

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "best_of": self.best_of,
            "games": [game.to_json() for game in self.games],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Match:
        games = [Game.from_json(game) for game in data["games"]]
        first = games[0]
        match = cls(
            seed=data["seed"],
            best_of=data["best_of"],
            players=first.players,
            self_count=first.self_count,
            muggins=first.muggins,
            callers=first.callers,
            seats=first.seats,
            target=first.target,
        )
        match.games = games
        return match

    def record(self) -> dict[str, Any]:
        """The match record: its games' records, the winner and the totals (each side's
        wins only, for a game of three or four or to 61 or 91: game points and spread are
        reckoned to 121 between two)."""
        if not self.two_to_121:
            winner = self.winner
            return {
                "best_of": self.best_of,
                "players": list(self.game.players),
                "games": [game.record() for game in self.games],
                "winner": winner,
                "wins": [int(side == winner) for side in range(self.game.seating.sides)],
            }
        result = self.result
        return {
            "best_of": self.best_of,
            "players": list(self.game.players),
            "games": [game.record() for game in self.games],
            "winner": result.winner,
            "wins": list(result.wins),
            "game_points": list(result.game_points),
            "spread": list(result.spread),
        }
