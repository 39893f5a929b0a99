"""Practice games against the computer: the server time of each of the player's decisions.

    .venv/bin/python -m benchmarks.practice [--games 20] [--seed 1] [--level expert]
                                            [--cold-search] [--profile]

Plays ``--games`` whole games (best of 1) against the computer at ``--level``
through Django's test client, the way the page does with htmx: each decision is
a POST to /play/<pk>/move/ answered with the game partial. The player's side is
a standard computer choosing among the legal decisions (chosen outside the timed
request). Each POST is timed from the client's call to its answer (the view, its
queries and the template: the server time, without a network) and its queries
are counted. One warm-up game is played first and not counted, as a worker that
has served a game before. A member plays, so starting games is not throttled.

``--cold-search`` empties the expert's table of searched play positions before
every decision, as if each request went to a worker that had never seen the
game. ``--profile`` prints where the timed requests spent their time.

It runs against a fresh SQLite database in a temporary folder unless
``DATABASE_URL`` is set (then that database is used: give it an empty one).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from typing import Any

from benchmarks.site import setup_django

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "game"}


def _post_data(practice: Any) -> dict[str, Any]:
    """The player's next decision as the page's form posts it (a standard computer decides)."""
    from club.practice import load_match, stand_in_decision
    from scoring.strategy import ComputerPlayer

    match = load_match(practice)
    decision = stand_in_decision(match, ComputerPlayer("standard", practice.seed + 1))
    data: dict[str, Any] = {"version": practice.version, "action": decision.action}
    if decision.action == "discard":
        data["cards"] = [str(card) for card in decision.cards]
    elif decision.action == "play":
        data["card"] = str(decision.cards[0])
    elif decision.action == "count":
        data["points"] = decision.points
    return data


def play_game(
    client: Any, owner: Any, *, level: str, seed: int, cold: bool, profile: cProfile.Profile | None
) -> list[tuple[float, int]]:
    """One whole game through the move view: each decision's (seconds, queries)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from club.models import PracticeGame
    from club.practice import practice_start
    from scoring import pegplay

    practice = practice_start(owner=owner, level=level, seed=seed)
    url = reverse("play:move", args=[practice.pk])
    timings = []
    while not practice.finished:
        data = _post_data(practice)
        if cold:
            pegplay._SEARCH.memo.clear()
        with CaptureQueriesContext(connection) as queries:
            if profile:
                profile.enable()
            started = time.perf_counter()
            response = client.post(url, data, **HTMX)
            elapsed = time.perf_counter() - started
            if profile:
                profile.disable()
        if response.status_code != 200 or b'role="alert"' in response.content:
            raise RuntimeError(f"decision {data} refused: {response.content[:300]!r}")
        timings.append((elapsed, len(queries)))
        practice = PracticeGame.objects.get(pk=practice.pk)
    return timings


def summary(times_ms: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(times_ms, n=100, method="inclusive")
    return {
        "median": statistics.median(times_ms),
        "p90": cuts[89],
        "p95": cuts[94],
        "p99": cuts[98],
        "max": max(times_ms),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--level", default="expert", choices=("easy", "standard", "expert"))
    parser.add_argument("--cold-search", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    setup_django()
    from django.contrib.auth import get_user_model
    from django.test import Client

    owner = get_user_model().objects.create(username="bench-practice")
    client = Client()
    client.force_login(owner)
    play_game(client, owner, level=args.level, seed=10**9, cold=args.cold_search, profile=None)
    profile = cProfile.Profile() if args.profile else None
    timings: list[tuple[float, int]] = []
    started = time.perf_counter()
    for number in range(args.games):
        seed = args.seed + number
        timings += play_game(
            client, owner, level=args.level, seed=seed, cold=args.cold_search, profile=profile
        )
    wall = time.perf_counter() - started
    times_ms = [1000 * seconds for seconds, _ in timings]
    queries = [count for _, count in timings]
    figures = summary(times_ms)
    print(
        f"{args.games} games at {args.level} level (seeds {args.seed}-{args.seed + args.games - 1}"
        f"{', search emptied before each decision' if args.cold_search else ''}): "
        f"{len(times_ms)} decisions in {wall:.1f} s"
    )
    print(
        "server time per decision (ms): "
        + ", ".join(f"{name} {value:.1f}" for name, value in figures.items())
    )
    print(
        f"queries per decision: median {statistics.median(queries):g}, "
        f"min {min(queries)}, max {max(queries)}"
    )
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
