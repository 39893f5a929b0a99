"""Benchmarks of the championship pages and the rehearsal command.

    .venv/bin/python -m benchmarks.championship [--players 256] [--rounds 9]

1. The standings page of a ``--players`` field after ``--rounds`` Swiss rounds:
   server time of a GET through Django's test client (median of 7 after a warm-up, wall
   clock and the process's CPU time, which the machine's load moves less), each
   a full render (the cache emptied first, as after a new result), and the next visitor's
   GET with the table from the cache
   and the number of queries, which must not grow with the field (also asserted in
   tests/tournaments/test_pages.py).
2. ``simulate_tournament --players 40 --rounds 6 --seed 7 --members`` end to end (the
   members of the first benchmark's field, as before made-up players were the default).

It runs against a fresh SQLite database in a temporary folder unless
``DATABASE_URL`` is set (then that database is used: give it an empty one).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from typing import Any

from benchmarks.site import played_field, setup_django


def _field(players: int, rounds: int) -> Any:
    names = [(f"Spelare {n:04d} Åström", "Uppsala") for n in range(players)]
    return played_field(names, rounds, in_play=False, year=2030 + players % 100)


def bench_standings(players: int, rounds: int) -> dict[str, float]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    started = time.perf_counter()
    tournament = _field(players, rounds)
    built = time.perf_counter() - started
    from django.core.cache import cache

    client = Client()
    address = f"/t/{tournament.slug}/standings/"
    client.get(address)
    times, cpus, cached = [], [], []
    for _ in range(7):
        cache.clear()  # a full render: the table as after a new result
        before, cpu = time.perf_counter(), time.process_time()
        response = client.get(address)
        times.append(time.perf_counter() - before)
        cpus.append(time.process_time() - cpu)
        assert response.status_code == 200
        before = time.perf_counter()
        client.get(address)  # the next new visitor: the table from the cache
        cached.append(time.perf_counter() - before)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(address)
    return {
        "build_s": built,
        "median_ms": 1000 * statistics.median(times),
        "cpu_ms": 1000 * statistics.median(cpus),
        "cached_ms": 1000 * statistics.median(cached),
        "queries": len(queries),
    }


def bench_simulation() -> float:
    from django.core.management import call_command

    started = time.perf_counter()
    call_command(
        "simulate_tournament",
        players=40,
        rounds=6,
        seed=7,
        members=True,
        no_progress=True,
        stdout=io.StringIO(),
    )
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--skip-simulation", action="store_true")
    args = parser.parse_args(argv)
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    setup_django()
    small = bench_standings(16, args.rounds)
    large = bench_standings(args.players, args.rounds)
    print(
        f"standings page, 16 players x {args.rounds} rounds: {small['median_ms']:.1f} ms median, "
        f"{small['queries']} queries"
    )
    print(
        f"standings page, {args.players} players x {args.rounds} rounds: "
        f"{large['median_ms']:.1f} ms median, {large['cpu_ms']:.1f} ms CPU "
        f"({large['cached_ms']:.1f} ms with the table cached), "
        f"{large['queries']} queries (target 50 ms; field built in {large['build_s']:.0f} s)"
    )
    if not args.skip_simulation:
        print(
            f"simulate_tournament --players 40 --rounds 6 --seed 7 --members: "
            f"{bench_simulation():.1f} s (target < 60 s)"
        )
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
