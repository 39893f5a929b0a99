"""How long Swiss pairing and the standings take on big fields.

Run: ``.venv/bin/python -m benchmarks.pairing`` (``--help`` for the options).

For each field size it plays a whole tournament with random results: every
round is paired by ``pair_round`` itself, every match is a random best of three
with random loser scores, and the standings (ranks for the next pairing) come
from ``compute_standings``. After the given number of rounds it times the
pairing of the next round, and the standings, several times and prints the
median. It also times that round with every pair of leaders forbidden (the top
score group blocked, so all of it must float: the hard case for the sparse
window), and the plain round on the complete graph of legal pairs, the fallback
the pairing takes when its window cannot prove an answer best.

Targets (docs/benchmarks.md): one round of 256 players after 7 rounds under 1 s,
of 1,000 players under 10 s; standings of 256 players after 9 rounds well
under 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from itertools import combinations

import numpy as np

from scoring.match import STANDARD
from tournaments.matching import Field, solve
from tournaments.pairing import Entrant, PairingResult, pair_round
from tournaments.standings import GameScore, PlayedMatch, compute_standings


def play_round(number: int, result: PairingResult, rng: random.Random) -> list[PlayedMatch]:
    """Random results: either player wins, 2-0 or 2-1, the loser on 0-120."""
    played = [PlayedMatch(number, (result.bye,), result.bye)] if result.bye is not None else []
    for pair in result.pairs:
        winner = rng.choice(pair)
        loser = pair[1] if winner == pair[0] else pair[0]
        games = [GameScore(winner, rng.randrange(121)) for _ in range(2)]
        if rng.random() < 0.4:
            games.insert(rng.randrange(2), GameScore(loser, rng.randrange(121)))
        played.append(PlayedMatch(number, pair, winner, tuple(games)))
    return played


def entrants(ids: range, matches: list[PlayedMatch]) -> list[Entrant]:
    standings = compute_standings(ids, matches, points=STANDARD)
    return [
        Entrant(s.entrant, s.match_wins, s.rank, frozenset(s.opponents), s.byes) for s in standings
    ]


def tournament(size: int, rounds: int, seed: int) -> tuple[list[Entrant], list[PlayedMatch]]:
    """The field after ``rounds`` rounds with random results, and those results."""
    rng = random.Random(seed)
    ids = range(1, size + 1)
    matches: list[PlayedMatch] = []
    for number in range(1, rounds + 1):
        result = pair_round(entrants(ids, matches), seed=rng.randrange(2**31))
        matches += play_round(number, result, rng)
    return entrants(ids, matches), matches


def median_seconds(work: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def full_graph(field: list[Entrant], seed: int) -> Callable[[], object]:
    """The next round's matching on every legal pair (no window), for comparison."""
    order = sorted(field, key=lambda e: (-e.match_wins, e.rank))
    position = {e.id: p for p, e in enumerate(order)}
    legal = ~np.eye(len(order), dtype=bool)
    for e in order:
        for other in e.opponents:
            legal[position[e.id], position[other]] = False
    bye_order = list(reversed(range(len(order)))) if len(order) % 2 else []
    built = Field.build([e.match_wins for e in order], legal, bye_order, seed=seed)
    return lambda: solve(built, window=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 1000])
    parser.add_argument("--rounds", type=int, default=7, help="rounds played before the timed one")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-full-graph", action="store_true", help="skip the fallback timing")
    args = parser.parse_args()
    print(f"rounds before: {args.rounds}, median of {args.repeats} runs, seed {args.seed}")
    for size in args.sizes:
        field, _ = tournament(size, args.rounds, args.seed)
        result = pair_round(field, seed=args.seed)
        seconds = median_seconds(lambda f=field: pair_round(f, seed=args.seed), args.repeats)
        how = "complete graph" if result.explanation.window is None else "window"
        print(
            f"pair round {args.rounds + 1}, {size:>5} players: {seconds:7.3f} s "
            f"({how}, {result.explanation.edges_considered} edges)"
        )
        leaders = [e.id for e in field if e.match_wins == max(f.match_wins for f in field)]
        blocked = [frozenset(pair) for pair in combinations(leaders, 2)]
        result = pair_round(field, seed=args.seed, forbidden=blocked)
        seconds = median_seconds(
            lambda f=field, b=blocked: pair_round(f, seed=args.seed, forbidden=b), args.repeats
        )
        how = "complete graph" if result.explanation.window is None else "window"
        print(f"  the {len(leaders)} leaders blocked:         {seconds:7.3f} s ({how})")
        if not args.no_full_graph:
            seconds = median_seconds(full_graph(field, args.seed), max(1, args.repeats // 2))
            print(f"  same round on the complete graph:  {seconds:7.3f} s")
    for size, rounds in ((256, 9), (1000, 9)):
        _, matches = tournament(size, rounds, args.seed)
        ids = range(1, size + 1)
        seconds = median_seconds(
            lambda i=ids, m=matches: compute_standings(i, m, points=STANDARD), args.repeats * 4
        )
        print(f"standings after {rounds} rounds, {size:>5} players: {seconds * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
