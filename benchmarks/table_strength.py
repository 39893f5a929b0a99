"""How much one level beats another at a table of three or four (docs/engine-strength.md).

    .venv/bin/python -m benchmarks.table_strength --seats 4 --levels expert,standard
        [--games 240] [--jobs 1]

Game ``i`` (seed ``i``, to 121) puts the first level at one seat of three (seat ``i % 3``)
or in one partnership of four (seats 0 and 2 in even games, 1 and 3 in odd ones), the
second level everywhere else; the first deal goes round the table from game to game.
Prints the first level's share of the games won with its 95% Wilson interval, and the
share a level no better than the others would win (a third of three, a half of four).
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import get_context

from scoring.players.strategy import ComputerPlayer, play_computers
from scoring.rules.game import Game
from scoring.tools.selfplay import wilson


def strong_seats(seats: int, index: int) -> frozenset[int]:
    if seats == 4:
        return frozenset({0, 2} if index % 2 == 0 else {1, 3})
    return frozenset({index % seats})


def one(task: tuple[int, str, str, int]) -> bool:
    """Whether the first level won game ``index``."""
    seats, strong, weak, index = task
    game = Game.new(seed=index, seats=seats, first_dealer=index % seats)
    mine = strong_seats(seats, index)
    levels = {s: strong if s in mine else weak for s in range(seats)}
    play_computers(game, {s: ComputerPlayer(levels[s], 10 * index + s) for s in range(seats)})
    return any(game.side_of(seat) == game.winner for seat in mine)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, choices=(3, 4), default=4)
    parser.add_argument("--levels", default="expert,standard")
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    strong, weak = args.levels.split(",")
    tasks = [(args.seats, strong, weak, index) for index in range(args.games)]
    with get_context("spawn").Pool(args.jobs) as pool:
        wins = sum(pool.map(one, tasks))
    low, high = wilson(wins, args.games)
    even = 1 / 2 if args.seats == 4 else 1 / 3
    print(
        f"{args.seats} seats, {strong} against {weak}: {strong} won {wins} of {args.games} "
        f"({wins / args.games:.1%}, 95% {low:.1%} to {high:.1%}; even share {even:.1%})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
