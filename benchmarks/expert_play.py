"""The expert's card in the play, with and without the lead table.

    .venv/bin/python -m benchmarks.expert_play [--games 40] [--search-only]

Plays ``--games`` games, expert against standard (seeds 0 on, the first dealer
alternating), and times each of the expert's decisions in the play, as the engine's
own benchmark does (``scoring.tools.bench.expert_play_times``). With
``--search-only`` the first card of the play is searched as before the lead table
(``scoring.players.pegplay.lead_nets``); the decisions are the same either way.
Run the two alternately to compare them on a shared machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from scoring.players import pegplay
from scoring.tools.bench import expert_play_times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--search-only", action="store_true")
    args = parser.parse_args(argv)
    if args.search_only:
        pegplay.lead_nets = lambda mover, other: None
    pegplay.lead_table()  # loaded before the clock starts, as a server does
    times = [1000 * seconds for seconds in expert_play_times(args.games)]
    cuts = statistics.quantiles(times, n=100)
    how = "search only" if args.search_only else "lead table"
    print(
        f"{how}: {len(times)} decisions, median {statistics.median(times):.2f} ms, "
        f"p90 {cuts[89]:.1f}, p95 {cuts[94]:.1f}, p99 {cuts[98]:.1f}, max {max(times):.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
