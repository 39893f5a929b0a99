"""The expert's card in the play, with and without the lead table.

    .venv/bin/python -m benchmarks.expert_play [--games 40] [--search-only]

Plays ``--games`` games, expert against standard (seeds 0 on, the first dealer
alternating), and times each of the expert's decisions in the play. With
``--search-only`` the first card of the play is searched as before the lead table
(``scoring.players.pegplay.lead_nets``); the decisions are the same either way.
Run the two alternately to compare them on a shared machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from scoring.players import pegplay
from scoring.rules.events import Phase
from scoring.rules.game import Game
from scoring.tools.selfplay import players_for


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--search-only", action="store_true")
    args = parser.parse_args(argv)
    if args.search_only:
        pegplay.lead_nets = lambda mover, other: None
    pegplay.lead_table()  # loaded before the clock starts, as a server does
    times = []
    for seed in range(args.games):
        game = Game.new(seed=seed, players=("expert", "standard"), first_dealer=seed % 2)
        players = players_for(("expert", "standard"), seed)
        while game.phase is not Phase.DONE:
            seat = game.to_move
            assert seat is not None
            if seat == 0 and game.phase is Phase.PLAY:
                started = time.perf_counter()
                card = players[0].choose_play(game, 0)
                times.append(1000 * (time.perf_counter() - started))
                game.play(0, card)
            else:
                players[seat].decide(game, seat)
    cuts = statistics.quantiles(times, n=100)
    how = "search only" if args.search_only else "lead table"
    print(
        f"{how}: {len(times)} decisions, median {statistics.median(times):.2f} ms, "
        f"p90 {cuts[89]:.1f}, p95 {cuts[94]:.1f}, p99 {cuts[98]:.1f}, max {max(times):.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
