"""The cost of a whole game's review (issue 27: at most 2 s of one core a game to 121).

    .venv/bin/python -m benchmarks.review [--games 20] [--seed 1] [--levels expert,expert]
    .venv/bin/python -m benchmarks.review --seats 4 [--games 20] [--seed 1]

Plays ``--games`` games with the self-play tools (``scoring.tools.selfplay.run_one``, in
a second process: the same games for the same seed), then reviews each record
(``scoring.review.review_game``) in this one process, as the site's worker does, timing
each review in processor time.
With ``--seats 3`` or ``4`` the games are of three or four expert computers to 121
(docs/rules.md §7; goal: a whole game of four reviewed in 4 s).
The first review is also given apart: it loads the expert's tables (the crib, hand and
lead tables) and starts with an empty search cache. The figures are kept in the Game
review section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from multiprocessing import get_context
from typing import Any

from scoring.players.strategy import ComputerPlayer, play_computers
from scoring.review import review_game
from scoring.rules.game import Game
from scoring.tools.selfplay import game_seed, run_one


def table_record(task: tuple[int, int, int]) -> dict[str, Any]:
    """The record of game ``index`` of ``seats`` expert computers (the first deal going
    round the table)."""
    seats, seed, index = task
    game = Game.new(seed=game_seed(seed, index), seats=seats, first_dealer=index % seats)
    play_computers(game, {s: ComputerPlayer("expert", 10 * index + s) for s in range(seats)})
    return game.record()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="expert,expert")
    parser.add_argument("--seats", type=int, choices=(2, 3, 4), default=2)
    args = parser.parse_args(argv)
    first, second = args.levels.split(",")
    # The games are played in another process, so that this one starts as a worker does:
    # no table loaded, nothing cached.
    with get_context("spawn").Pool(1) as pool:
        if args.seats == 2:
            tasks = [((first, second), args.seed, index, 0) for index in range(args.games)]
            records = [outcome.record for outcome in pool.map(run_one, tasks)]
        else:
            table = [(args.seats, args.seed, index) for index in range(args.games)]
            records = pool.map(table_record, table)
    times, decisions = [], []
    for record in records:
        start = time.process_time()
        review = review_game(record)
        times.append(time.process_time() - start)
        decisions.append(len(review.decisions))
    later = times[1:] or times
    who = args.levels if args.seats == 2 else f"{args.seats} seats, expert"
    print(
        f"{len(times)} games ({who}, seed {args.seed}), "
        f"{statistics.mean(decisions):.0f} decisions a game reviewed: "
        f"first (tables loaded, cold cache) {times[0]:.2f} s; "
        f"the rest median {statistics.median(later):.3f} s, max {max(later):.3f} s; "
        f"all max {max(times):.2f} s (processor time)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
