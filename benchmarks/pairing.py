"""How long Swiss pairing and the standings take on big fields, worst cases included.

Run: ``.venv/bin/python -m benchmarks.pairing`` (``--help`` for the options).

For each field size it plays a tournament with random results: every round is
paired by ``pair_round`` itself, every match is a random best of three with random
loser scores, and the standings (ranks for the next pairing) come from
``compute_standings``. Then it times the pairing of the next round in several
cases, each built to be hard for the sparse window the matching tries first:

- ``late``: the next round as it comes (after ``--rounds`` rounds, and after
  ``--late`` rounds, when the score groups are many and rematches common);
- ``leaders blocked``: every pair of the top score group forbidden, so all of it
  must float;
- ``many forbidden``: each player forbidden with ``--forbid`` random others;
- ``ends blocked``: the last 12 of every score group forbidden with the first 12 of
  the next, the pairs the window offers floaters first;
- ``top 3 groups blocked``: every pair inside the three top score groups
  forbidden, so that the window (whose ends offer 12 players a group) has no
  perfect matching at all;
- ``half below forbidden``: every player forbidden with the first half of the
  score group below their own;
- ``distinct groups``: every player on a different number of wins (rank order),
  rematches as played;
- ``distinct, far outlier``: that, and the middle player forbidden with everyone
  but the top and bottom players, half the field away;
- ``odd, bye``: the top player withdrawn, so someone sits out;
- ``odd, bye blocked``: that, and a mid-table player forbidden with everyone but
  the lowest-ranked, who therefore cannot take the bye;
- ``wins 0-30``: match wins drawn at random from 0 to 30 (31 score groups),
  rematches as played;
- ``complete graph``: the plain round matched on every legal pair, no window (the
  last resort when no window can be proven best).

Each row gives the median of ``--repeats`` runs, the edge set the answer came
from (the window's ``k``, or the complete graph), its edges, and the float
differences. ``--check`` also matches each case on the complete graph and checks
that the float differences agree (slow: the complete graph of 1,000 takes
seconds).

Targets (docs/benchmarks.md): one round of 256 players under 0.5 s, of 1,000
players under 5 s, in every case; standings of 256 players after 9 rounds well
under 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from itertools import combinations

from competition import matching
from competition.pairing import Entrant, PairingResult, pair_round
from competition.standings import GameScore, PlayedMatch, compute_standings
from scoring.rules.match import STANDARD


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


@dataclass(frozen=True)
class Case:
    """A round to pair: the field and the forbidden pairs."""

    field: list[Entrant]
    forbidden: list[frozenset[int]]


def groups_in_order(field: list[Entrant]) -> list[list[int]]:
    """The score groups, most wins first, each in standings order."""
    by_wins: dict[int, list[Entrant]] = {}
    for e in field:
        by_wins.setdefault(e.match_wins, []).append(e)
    return [[e.id for e in sorted(by_wins[w], key=lambda e: e.rank)] for w in sorted(by_wins)[::-1]]


def leaders_blocked(field: list[Entrant], rng: random.Random) -> Case:
    leaders = groups_in_order(field)[0]
    return Case(field, [frozenset(pair) for pair in combinations(leaders, 2)])


def many_forbidden(field: list[Entrant], rng: random.Random, count: int) -> Case:
    ids = [e.id for e in field]
    pairs = {frozenset((a, b)) for a in ids for b in rng.sample(ids, count) if a != b}
    return Case(field, sorted(pairs, key=sorted))


def ends_blocked(field: list[Entrant], rng: random.Random) -> Case:
    groups = groups_in_order(field)
    pairs = [
        frozenset((a, b))
        for upper, lower in zip(groups, groups[1:], strict=False)
        for a in upper[-12:]
        for b in lower[:12]
    ]
    return Case(field, pairs)


def top_groups_blocked(field: list[Entrant], rng: random.Random) -> Case:
    top = groups_in_order(field)[:3]
    return Case(field, [frozenset(pair) for group in top for pair in combinations(group, 2)])


def half_below_forbidden(field: list[Entrant], rng: random.Random) -> Case:
    groups = groups_in_order(field)
    pairs = [
        frozenset((a, b))
        for upper, lower in zip(groups, groups[1:], strict=False)
        for a in upper
        for b in lower[: len(lower) // 2]
    ]
    return Case(field, pairs)


def spread_wins(field: list[Entrant], rng: random.Random) -> Case:
    return Case([replace(e, match_wins=rng.randrange(31)) for e in field], [])


def distinct_groups(field: list[Entrant], rng: random.Random) -> Case:
    size = len(field)
    return Case([replace(e, match_wins=size - e.rank) for e in field], [])


def far_outlier(field: list[Entrant], rng: random.Random) -> Case:
    case = distinct_groups(field, rng)
    ranked = sorted(case.field, key=lambda e: e.rank)
    middle, ends = ranked[len(ranked) // 2], {ranked[0].id, ranked[-1].id}
    blocked = [frozenset((middle.id, e.id)) for e in ranked if e.id not in ends | {middle.id}]
    return Case(case.field, blocked)


def odd_bye(field: list[Entrant], rng: random.Random) -> Case:
    top = min(field, key=lambda e: e.rank)
    return Case([replace(e, active=e.id != top.id) for e in field], [])


def odd_bye_blocked(field: list[Entrant], rng: random.Random) -> Case:
    case = odd_bye(field, rng)
    active = sorted((e for e in case.field if e.active), key=lambda e: e.rank)
    lowest, middle = active[-1], active[len(active) // 2]
    blocked = [frozenset((middle.id, e.id)) for e in active if e.id not in (middle.id, lowest.id)]
    return Case(case.field, blocked)


def describe(result: PairingResult) -> str:
    window = result.explanation.window
    where = "complete graph" if window is None else f"window {window}"
    wins = {}
    for group in result.explanation.score_groups:
        wins.update(dict.fromkeys(group.players, group.match_wins))
    gaps = Counter(abs(wins[a] - wins[b]) for a, b in result.pairs if wins[a] != wins[b])
    floats = " ".join(f"{count}x{gap}" for gap, count in sorted(gaps.items(), reverse=True))
    return f"{where}, {result.explanation.edges_considered} edges; floats {floats or 'none'}"


def time_case(name: str, case: Case, args: argparse.Namespace) -> None:
    def pair() -> PairingResult:
        return pair_round(case.field, seed=args.seed, forbidden=case.forbidden)

    result = pair()
    seconds = median_seconds(pair, args.repeats)
    line = f"  {name:<20} {seconds:7.3f} s  ({describe(result)})"
    if args.check:
        line += "  " + check(case, args.seed, result)
    print(line, flush=True)


def check(case: Case, seed: int, result: PairingResult) -> str:
    """Whether the complete graph gives the same float differences."""
    saved = matching.FULL_GRAPH_WORK
    matching.FULL_GRAPH_WORK = 1 << 62
    try:
        full = pair_round(case.field, seed=seed, forbidden=case.forbidden)
    finally:
        matching.FULL_GRAPH_WORK = saved
    same = describe(full).split("floats ")[1] == describe(result).split("floats ")[1]
    return "same floats as the complete graph" if same else "DIFFERENT FROM THE COMPLETE GRAPH"


def complete_graph(field: list[Entrant], args: argparse.Namespace) -> None:
    saved = matching.FULL_GRAPH_WORK
    matching.FULL_GRAPH_WORK = 1 << 62
    try:
        time_case("complete graph", Case(field, []), args)
    finally:
        matching.FULL_GRAPH_WORK = saved


CASES: dict[str, Callable[[list[Entrant], random.Random], Case]] = {
    "late": lambda field, rng: Case(field, []),
    "leaders blocked": leaders_blocked,
    "ends blocked": ends_blocked,
    "top 3 groups blocked": top_groups_blocked,
    "half below forbidden": half_below_forbidden,
    "distinct groups": distinct_groups,
    "distinct, far outlier": far_outlier,
    "wins 0-30": spread_wins,
    "odd, bye": odd_bye,
    "odd, bye blocked": odd_bye_blocked,
}


def bench_size(size: int, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    field, _ = tournament(size, args.rounds, args.seed)
    print(f"{size} players, round {args.rounds + 1}:")
    for name, build in CASES.items():
        time_case(name, build(field, rng), args)
    time_case("many forbidden", many_forbidden(field, rng, args.forbid), args)
    if args.late > args.rounds:
        late, _ = tournament(size, args.late, args.seed)
        time_case(f"late, round {args.late + 1}", Case(late, []), args)
        time_case("  and many forbidden", many_forbidden(late, rng, args.forbid), args)
        time_case("  and top 3 blocked", top_groups_blocked(late, rng), args)
    if args.complete_graph:
        complete_graph(field, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 1000])
    parser.add_argument("--rounds", type=int, default=7, help="rounds played before the timed one")
    parser.add_argument("--late", type=int, default=11, help="a later round to time as well")
    parser.add_argument("--forbid", type=int, default=30, help="forbidden pairs per player")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--check", action="store_true", help="compare with the complete graph")
    parser.add_argument("--complete-graph", action="store_true", help="time the last resort")
    args = parser.parse_args()
    print(f"median of {args.repeats} runs, seed {args.seed}")
    for size in args.sizes:
        bench_size(size, args)
    for size, rounds in ((256, 9), (1000, 9)):
        _, matches = tournament(size, rounds, args.seed)
        ids = range(1, size + 1)
        work = partial(compute_standings, ids, matches, points=STANDARD)
        seconds = median_seconds(work, args.repeats * 4)
        print(f"standings after {rounds} rounds, {size:>5} players: {seconds * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
