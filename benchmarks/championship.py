"""Benchmarks of the championship pages and the rehearsal command.

    .venv/bin/python -m benchmarks.championship [--players 256] [--rounds 9]

1. The standings page of a ``--players`` field after ``--rounds`` Swiss rounds:
   server time of a GET through Django's test client (median of 7 after a warm-up)
   and the number of queries, which must not grow with the field (also asserted in
   tests/tournaments/test_pages.py).
2. ``simulate_tournament --players 40 --rounds 6 --seed 7`` end to end.

It runs against a fresh SQLite database in a temporary folder unless
``DATABASE_URL`` is set (then that database is used: give it an empty one).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time


def _setup() -> None:
    folder = tempfile.mkdtemp(prefix="club-bench-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/bench.sqlite3")
    # The test settings: production settings (DEBUG off) without a collected static folder.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _field(players: int, rounds: int) -> object:
    """A tournament of ``players`` with ``rounds`` closed rounds, paired by the real services."""
    import datetime

    from django.contrib.auth import get_user_model

    from club.services import player_create
    from tournaments.models import Match
    from tournaments.services import results
    from tournaments.services import rounds as round_services
    from tournaments.services import tournaments as services

    tournament = services.tournament_create(
        name=f"Bench {players}",
        year=2030,
        starts_on=datetime.date(2030, 1, 1),
        ends_on=datetime.date(2030, 1, 2),
        swiss_rounds=rounds,
        seed=1,
    )
    organiser = get_user_model().objects.create(username=f"bench-{players}")
    for number in range(players):
        player = player_create(name=f"Spelare {number:04d} Åström", club="Uppsala")
        services.entry_add(tournament=tournament, player=player, checked_in=True)
    for _ in range(rounds):
        round_ = round_services.round_propose(tournament=tournament)
        round_services.round_publish(round=round_)
        for match in Match.objects.filter(round=round_, is_bye=False):
            games = [(match.pk % 2, 60 + match.pk % 50), (match.pk % 2, 100)]
            results.match_settle(match=match, organiser=organiser, first_dealer=0, games=games)
        round_services.round_close(round=round_)
    return tournament


def bench_standings(players: int, rounds: int) -> dict[str, float]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    started = time.perf_counter()
    tournament = _field(players, rounds)
    built = time.perf_counter() - started
    client = Client()
    address = f"/t/{tournament.slug}/standings/"  # type: ignore[attr-defined]
    client.get(address)
    times = []
    for _ in range(7):
        before = time.perf_counter()
        response = client.get(address)
        times.append(time.perf_counter() - before)
        assert response.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        client.get(address)
    return {"build_s": built, "median_ms": 1000 * statistics.median(times), "queries": len(queries)}


def bench_simulation() -> float:
    from django.core.management import call_command

    started = time.perf_counter()
    call_command(
        "simulate_tournament", players=40, rounds=6, seed=7, no_progress=True, stdout=io.StringIO()
    )
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--skip-simulation", action="store_true")
    args = parser.parse_args(argv)
    _setup()
    small = bench_standings(16, args.rounds)
    large = bench_standings(args.players, args.rounds)
    print(
        f"standings page, 16 players x {args.rounds} rounds: {small['median_ms']:.1f} ms median, "
        f"{small['queries']} queries"
    )
    print(
        f"standings page, {args.players} players x {args.rounds} rounds: "
        f"{large['median_ms']:.1f} ms median, "
        f"{large['queries']} queries (target < 100 ms; field built in {large['build_s']:.0f} s)"
    )
    if not args.skip_simulation:
        print(
            f"simulate_tournament --players 40 --rounds 6 --seed 7: "
            f"{bench_simulation():.1f} s (target < 60 s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
