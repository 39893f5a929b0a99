"""How fast the engine is: the figures docs/benchmarks.md records, measured here.

Each benchmark times one thing many times in this one process (so on one
core) and reports the median, with the target it must stay under:

- ``distribution``: the full hand and crib distributions (``scoring.tools.distribution``),
  each column on its own, against counting all 12,994,800 combinations one by
  one, with a naive scorer (every fifteen, pair and run found by trying every
  combination of cards) and with the engine's own ``hand_total``, both timed
  on a random sample and scaled up;
- ``score_hand``: one call, on random hands;
- ``discard``: a standard and an expert computer's discard decision;
- ``play``: an expert computer's decision in the play, over every position of
  some expert-against-standard games;
- ``game``: a whole game between two standard computers;
- ``table``: at a table of four (partnerships), an expert computer's lay-away of one card
  of five and its card in the play, over every position of some games against three
  standard computers (docs/rules.md §7).

``python -m scoring bench [--quick]`` prints the table (``--quick`` takes
small samples: a check that it runs, not a measurement).
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TextIO

from scoring.players.strategy import ComputerPlayer
from scoring.rules.cards import DECK, JACK, Card
from scoring.rules.events import Phase
from scoring.rules.game import Game
from scoring.rules.hand import hand_total, score_hand
from scoring.tools.distribution import COMBINATIONS, crib_distribution, hand_distribution
from scoring.tools.selfplay import finish, players_for


@dataclass(frozen=True, slots=True)
class Figure:
    """One line of the table: a median time in seconds and the target it must beat."""

    name: str
    median: float
    target: float | None
    samples: int
    note: str = ""

    def row(self) -> str:
        target = "" if self.target is None else "< " + _duration(self.target)
        verdict = "" if self.target is None else ("ok" if self.median < self.target else "SLOW")
        return (
            f"| {self.name} | {_duration(self.median)} | {target} | {verdict} "
            f"| {self.samples} | {self.note} |"
        )


def _duration(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.2f} µs"


def median_time(action: Callable[[], object], repeat: int) -> float:
    """The median wall time of ``repeat`` calls of ``action``."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


# ------------------------------------------------------------------ distribution
def naive_score(hand: Sequence[Card], starter: Card, *, crib: bool) -> int:
    """The show counted the plain way, as a first Python program would."""
    cards = [*hand, starter]
    points = 0
    for size in range(2, 6):
        for combo in combinations(cards, size):
            if sum(card.value for card in combo) == 15:
                points += 2
    for first, second in combinations(cards, 2):
        if first.rank == second.rank:
            points += 2
    for size in (5, 4, 3):
        runs = 0
        for combo in combinations(cards, size):
            ranks = sorted(card.rank for card in combo)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(size - 1)):
                runs += 1
        if runs:
            points += runs * size
            break
    if all(card.suit == hand[0].suit for card in hand):
        if starter.suit == hand[0].suit:
            points += 5
        elif not crib:
            points += 4
    points += any(card.rank == JACK and card.suit == starter.suit for card in hand)
    return points


def distribution_figures(sample: int, repeat: int) -> list[Figure]:
    rng = random.Random(2024)
    combos = []
    for _ in range(sample):
        cards = rng.sample(DECK, 5)
        combos.append((cards[:4], cards[4]))
    figures = []
    for column, build in (("hand", hand_distribution), ("crib", crib_distribution)):
        crib = column == "crib"
        fast = median_time(build, repeat)
        figures.append(Figure(f"distribution, {column} column", fast, 5.0, repeat))
        for name, scorer in (("naive scorer", naive_score), ("hand_total", hand_total)):
            started = time.perf_counter()
            for hand, starter in combos:
                scorer(hand, starter, crib=crib)
            slow = (time.perf_counter() - started) / sample * COMBINATIONS
            note = f"{sample:,} random combinations scaled up; {slow / fast:,.0f} x slower"
            label = f"{column} column, {name} on each combination"
            figures.append(Figure(label, slow, None, sample, note))
    return figures


# ------------------------------------------------------------------- score_hand
def score_hand_figure(batches: int, calls: int) -> Figure:
    rng = random.Random(7)
    hands = []
    for _ in range(calls):
        cards = rng.sample(DECK, 5)
        hands.append((cards[:4], cards[4]))

    def batch() -> None:
        for hand, starter in hands:
            score_hand(hand, starter)

    per_call = median_time(batch, batches) / calls
    return Figure("score_hand, one call", per_call, 10e-6, batches * calls)


# -------------------------------------------------------------------- decisions
def discard_figure(level: str, positions: int) -> Figure:
    """The median time of a discard decision by ``level``, over fresh deals."""
    computer = ComputerPlayer(level, 1)
    computer.choose_discard(Game.new(seed=0, first_dealer=0), 1)  # load the tables first
    times = []
    for seed in range(positions):
        game = Game.new(seed=seed, first_dealer=seed % 2)
        started = time.perf_counter()
        computer.choose_discard(game, 1)
        times.append(time.perf_counter() - started)
    target = 0.25 if level == "expert" else 10e-3
    return Figure(f"{level} discard decision", statistics.median(times), target, positions)


def play_figure(games: int) -> Figure:
    """The median time of an expert's card in the play, over every position of ``games``."""
    times = expert_play_times(games)
    times.sort()
    slowest = times[int(0.9 * (len(times) - 1))]
    note = f"90th percentile {_duration(slowest)}, slowest {_duration(times[-1])}"
    return Figure("expert play decision", statistics.median(times), 0.1, len(times), note)


def expert_play_times(games: int) -> list[float]:
    """Seconds of each of an expert's cards in the play, ``games`` games against standard."""
    times = []
    for seed in range(games):
        game = Game.new(seed=seed, players=("expert", "standard"), first_dealer=seed % 2)
        players = players_for(("expert", "standard"), seed)
        while game.phase is not Phase.DONE:
            player = game.to_move
            assert player is not None
            if player == 0 and game.phase is Phase.PLAY:
                started = time.perf_counter()
                card = players[0].choose_play(game, 0)
                times.append(time.perf_counter() - started)
                game.play(0, card)
            else:
                players[player].decide(game, player)
    return times


def game_figure(games: int) -> Figure:
    times = []
    for seed in range(games):
        game = Game.new(seed=seed, first_dealer=seed % 2)
        players = players_for(("standard", "standard"), seed)
        started = time.perf_counter()
        finish(game, players)
        times.append(time.perf_counter() - started)
    return Figure("standard v standard, whole game", statistics.median(times), 0.1, games)


# ------------------------------------------------------------------- three, four
def table_play_times(games: int, seats: int = 4) -> tuple[list[float], list[float]]:
    """Seconds of each lay-away and each card in the play of an expert at seat 0, ``games``
    games of ``seats`` against standard computers (seeds 0 on, the first deal going round),
    in processor time: what one core spends, whatever else the machine is doing."""
    discards: list[float] = []
    plays: list[float] = []
    for seed in range(games):
        game = Game.new(seed=seed, seats=seats, first_dealer=seed % seats)
        players = [
            ComputerPlayer("expert" if s == 0 else "standard", 2 * seed + s) for s in range(seats)
        ]
        while game.phase is not Phase.DONE:
            player = game.to_move
            assert player is not None
            if player == 0 and game.phase in (Phase.DISCARD, Phase.PLAY):
                discarding = game.phase is Phase.DISCARD
                started = time.process_time()
                if discarding:
                    cards = players[0].choose_discard(game, 0)
                else:
                    card = players[0].choose_play(game, 0)
                (discards if discarding else plays).append(time.process_time() - started)
                if discarding:
                    game.discard(0, cards)
                else:
                    game.play(0, card)
            else:
                players[player].decide(game, player)
    return discards, plays


def table_figures(games: int, seats: int = 4) -> list[Figure]:
    """The expert's decisions at a table of ``seats``: each must stay under 20 ms."""
    table_play_times(1, seats)  # load the tables first
    discards, plays = table_play_times(games, seats)
    figures = []
    for name, times in (("lay-away", discards), ("play", plays)):
        times.sort()
        slowest = times[int(0.9 * (len(times) - 1))]
        note = f"90th percentile {_duration(slowest)}, slowest {_duration(times[-1])}"
        label = f"expert {name} decision, {seats} seats (processor time)"
        figures.append(Figure(label, statistics.median(times), 0.02, len(times), note))
    return figures


# ----------------------------------------------------------------------- command
def measure(*, quick: bool = False) -> list[Figure]:
    scale = 10 if quick else 1
    return [
        *distribution_figures(sample=20_000 // scale, repeat=5 if not quick else 1),
        score_hand_figure(batches=50 // scale, calls=2_000),
        discard_figure("standard", 300 // scale),
        discard_figure("expert", 300 // scale),
        play_figure(20 // scale),
        game_figure(100 // scale),
        *table_figures(20 // scale),
    ]


def table(figures: Sequence[Figure]) -> str:
    lines = [
        "| benchmark | median | target | | samples | note |",
        "|---|---:|---:|---|---:|---|",
        *(figure.row() for figure in figures),
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None) -> int:
    """Run ``python -m scoring bench``; prints the table, returns 0."""
    parser = argparse.ArgumentParser(
        prog="python -m scoring bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--quick", action="store_true", help="small samples, to check it runs")
    args = parser.parse_args(argv)
    out = stdout or sys.stdout
    print(f"Python {platform.python_version()} on {platform.machine()}, one process", file=out)
    print(table(measure(quick=args.quick)), file=out)
    return 0
