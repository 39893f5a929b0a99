"""The cost of a whole game's review (issue 27: at most 2 s of one core a game to 121).

    .venv/bin/python -m benchmarks.review [--games 20] [--seed 1] [--levels expert,expert]

Plays ``--games`` games with the self-play tools (``scoring.tools.selfplay.run_one``, in
a second process: the same games for the same seed), then reviews each record
(``scoring.review.review_game``) in this one process, as the site's worker does, timing
each review in processor time.
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

from scoring.review import review_game
from scoring.tools.selfplay import run_one


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="expert,expert")
    args = parser.parse_args(argv)
    first, second = args.levels.split(",")
    # The games are played in another process, so that this one starts as a worker does:
    # no table loaded, nothing cached.
    tasks = [((first, second), args.seed, index, 0) for index in range(args.games)]
    with get_context("spawn").Pool(1) as pool:
        records = [outcome.record for outcome in pool.map(run_one, tasks)]
    times, decisions = [], []
    for record in records:
        start = time.process_time()
        review = review_game(record)
        times.append(time.process_time() - start)
        decisions.append(len(review.decisions))
    later = times[1:] or times
    print(
        f"{len(times)} games ({args.levels}, seed {args.seed}), "
        f"{statistics.mean(decisions):.0f} decisions a game reviewed: "
        f"first (tables loaded, cold cache) {times[0]:.2f} s; "
        f"the rest median {statistics.median(later):.3f} s, max {max(later):.3f} s; "
        f"all max {max(times):.2f} s (processor time)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
