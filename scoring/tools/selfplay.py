"""Computer against computer: many games (or matches) and how often each level wins.

Terms: a *run* is ``games`` games (or best-of-N matches) between two levels,
numbered from 0. Game ``i`` takes its own seed, derived from the run's seed
and ``i``, and the first dealer alternates: the player listed first deals
first in even games, the other in odd ones. Games ``2k`` and ``2k + 1``
share their seed, so each player gets the other's cards in the other game
(every deal of a seed gives the same six to the pone and to the dealer):
the luck of the deal falls on both sides equally, as in duplicate bridge.
The summary gives each level's win rate with a 95% Wilson score interval
over the games (the pairs' results are negatively correlated, which makes
that interval conservative) and, tighter, over the pairs.

``python -m scoring selfplay --games N --seed S --levels A,B [--match 3]
[--jobs J] [--jsonl FILE]`` writes one game (or match) record a line, in
game order, and prints the summary. The records and the summary are the same
for a seed whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, TextIO

from scoring.players.strategy import LEVELS, ComputerPlayer, finish_match, play_computers
from scoring.rules.game import Game
from scoring.rules.match import BEST_OF, Match, spread

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One finished game or match of a run, player 0 being the first level listed."""

    index: int
    winner: int
    record: dict[str, Any]
    games: int
    spread: int
    """Player 0's spread (121 minus the loser's score, plus for a win, minus for a loss)."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game (or match) ``index`` of a run: shared by the pair ``2k``, ``2k + 1``."""
    return random.Random(f"cribbage:selfplay:{seed}:{index // 2}").getrandbits(48)


def players_for(levels: tuple[str, str], seed: int) -> tuple[ComputerPlayer, ComputerPlayer]:
    """The two computer players, each with its own seed."""
    return ComputerPlayer(levels[0], 2 * seed), ComputerPlayer(levels[1], 2 * seed + 1)


def names_for(levels: tuple[str, str]) -> tuple[str, str]:
    """Player names for the records: the levels, told apart when they are the same."""
    if levels[0] == levels[1]:
        return f"{levels[0]} A", f"{levels[1]} B"
    return levels


def finish(game: Game, players: Sequence[ComputerPlayer]) -> Game:
    """Let the computer players decide until ``game`` is over."""
    play_computers(game, dict(enumerate(players)))
    return game


def play_game(levels: tuple[str, str], seed: int, first_dealer: int) -> Game:
    """One whole game between two levels, player 0 playing ``levels[0]``."""
    game = Game.new(seed=seed, players=names_for(levels), first_dealer=first_dealer)
    return finish(game, players_for(levels, seed))


def play_match(levels: tuple[str, str], seed: int, first_dealer: int, best_of: int) -> Match:
    """One whole best-of-``best_of`` match between two levels."""
    match = Match.new(
        seed=seed, best_of=best_of, players=names_for(levels), first_dealer=first_dealer
    )
    return finish_match(match, dict(enumerate(players_for(levels, seed))))


def run_one(task: tuple[tuple[str, str], int, int, int]) -> Outcome:
    """Game (or match, when ``best_of`` > 0) number ``index`` of the run with ``seed``."""
    levels, seed, index, best_of = task
    first_dealer, this_seed = index % 2, game_seed(seed, index)
    if best_of:
        match = play_match(levels, this_seed, first_dealer, best_of)
        result = match.result
        assert result.winner is not None
        return Outcome(index, result.winner, match.record(), len(result.games), result.spread[0])
    game = play_game(levels, this_seed, first_dealer)
    assert game.winner is not None
    margin = spread(game.scores[1 - game.winner])
    return Outcome(index, game.winner, game.record(), 1, margin if game.winner == 0 else -margin)


def run(
    levels: tuple[str, str], *, games: int, seed: int, best_of: int = 0, jobs: int = 1
) -> Iterator[Outcome]:
    """The outcomes of a run, in game order, whatever the number of ``jobs``."""
    tasks = [(levels, seed, index, best_of) for index in range(games)]
    if jobs <= 1:
        yield from map(run_one, tasks)
        return
    with get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(run_one, tasks, chunksize=4)


# ------------------------------------------------------------------ statistics
def wilson(wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / trials``."""
    if trials == 0:
        return 0.0, 1.0
    p = wins / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_interval(points: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal 95% interval of the per-pair win shares (0, 0.5 or 1 each)."""
    n = len(points)
    mean = sum(points) / n
    if n < 2:
        return mean, 0.0, 1.0
    variance = sum((x - mean) ** 2 for x in points) / (n - 1)
    half = z * math.sqrt(variance / n)
    return mean, mean - half, mean + half


@dataclass
class Tally:
    """The running totals of a run, from player 0's side."""

    levels: tuple[str, str]
    units: int = 0
    wins: int = 0
    games: int = 0
    spread: int = 0

    def __post_init__(self) -> None:
        self.pair_shares: list[float] = []
        self._pending: int | None = None

    def add(self, outcome: Outcome) -> None:
        self.units += 1
        won = int(outcome.winner == 0)
        self.wins += won
        self.games += outcome.games
        self.spread += outcome.spread
        if outcome.index % 2 == 0:
            self._pending = won
        elif self._pending is not None:
            self.pair_shares.append((self._pending + won) / 2)
            self._pending = None

    def summary(self, *, unit: str, seconds: float) -> str:
        first, second = names_for(self.levels)
        lines = [f"{first} v {second}: {self.units} {unit} ({self.games} games), {seconds:.0f} s"]
        for player, name in enumerate((first, second)):
            won = self.wins if player == 0 else self.units - self.wins
            low, high = wilson(won, self.units)
            lines.append(
                f"  {name:<12} won {won:>6} ({won / self.units:6.1%}),"
                f" 95% Wilson CI {low:.1%} to {high:.1%}"
            )
        if self.pair_shares:
            mean, low, high = paired_interval(self.pair_shares)
            lines.append(
                f"  {second} over {len(self.pair_shares)} seed pairs: {1 - mean:.1%},"
                f" 95% CI {1 - high:.1%} to {1 - low:.1%}"
            )
        lines.append(f"  {second}'s mean spread: {-self.spread / self.units:+.1f}")
        return "\n".join(lines)


# ---------------------------------------------------------------------- command
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring selfplay", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, required=True, help="games (or matches) to play")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed")
    parser.add_argument("--levels", default="standard,expert", help="two levels, player 0's first")
    parser.add_argument("--match", type=int, default=0, metavar="N", help="play best-of-N matches")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--jsonl", default=None, metavar="FILE", help="write the records here")
    return parser


def parse_levels(text: str) -> tuple[str, str]:
    names = [name.strip() for name in text.split(",")]
    if len(names) != 2:
        raise ValueError(f"--levels takes two levels separated by a comma, not {text!r}")
    for name in names:
        if name not in LEVELS:
            raise ValueError(f"{name!r} is not a level: choose from {', '.join(LEVELS)}")
    return names[0], names[1]


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None) -> int:
    """Run ``python -m scoring selfplay``; returns the exit status (2 for bad input)."""
    out = stdout or sys.stdout
    args = build_parser().parse_args(argv)
    try:
        levels = parse_levels(args.levels)
        if args.games < 1:
            raise ValueError(f"--games must be at least 1, not {args.games}")
        if args.match and args.match not in BEST_OF:
            raise ValueError(f"--match is 1, 3, 5 or 7, not {args.match}")
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    tally = Tally(levels)
    sink = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else None  # noqa: SIM115
    try:
        outcomes = run(levels, games=args.games, seed=args.seed, best_of=args.match, jobs=args.jobs)
        for outcome in outcomes:
            tally.add(outcome)
            if sink:
                sink.write(json.dumps(outcome.record, separators=(",", ":")) + "\n")
    finally:
        if sink:
            sink.close()
    unit = f"best-of-{args.match} matches" if args.match else "games"
    print(tally.summary(unit=unit, seconds=time.perf_counter() - started), file=out)
    return 0
