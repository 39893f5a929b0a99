"""What re-rating after one result costs, with 3, 10 and 30 past tournaments, on PostgreSQL.

Run: ``DATABASE_URL=postgres://… .venv/bin/python -m benchmarks.ratings`` (``--help``
for the options).

For each history size (``--histories``, 3, 10 and 30 by default) a database of its own,
made fresh next to the one ``DATABASE_URL`` names (``<name>_h3``, ``<name>_h10``...: any
of that name is dropped first), gets that many tournaments of the same ``--players``
members, each of ``--rounds`` rounds, its results written at once (as
``benchmarks.site.settle_round`` does), the list rated once from scratch and the
statistics gathered (``ANALYZE``, as autovacuum does on a site's database). Then, in
``--repeats`` rounds, each size in turn (the order rotates from one round to the next,
so a burst of load elsewhere on the machine falls on every size alike), one result of
the latest round changes its winner (not timed) and ``ratings_rerate(round=…)`` rates
the list again for it, as the worker does after a result: that call is timed. Printed:
the median of each size, the ratios 10/3 and 30/3, and the machine's load average
(``os.getloadavg()``) before and after the rounds.

Left out: the request that saved the result (it only notes the announcement), the task
queue's delay, and the pages that read the list afterwards.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from benchmarks.site import played_field, settle_round, setup_django

if TYPE_CHECKING:
    from club.models import Player
    from tournaments.models import Round


def _database_url(base: str, size: int) -> str:
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path=f"{parts.path}_h{size}"))


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def _use(name: str) -> None:
    """Point Django's default connection at the database ``name`` (same server)."""
    from django.db import connection

    connection.close()
    connection.settings_dict["NAME"] = name


def _fresh_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    server = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def _seed(size: int, players: int, rounds: int) -> None:
    """``size`` tournaments of the same ``players`` members, and the list rated once."""
    from django.core.management import call_command
    from django.db import connection

    from ratings.services import ratings_recompute
    from tournaments.models import Entry

    call_command("migrate", verbosity=0)
    names = [(f"Player {number:03d}", "Bench") for number in range(players)]
    first = played_field(names, rounds, in_play=False, year=2000, bulk=True)
    members = [entry.player for entry in Entry.objects.filter(tournament=first)]
    for number in range(1, size):
        _played_again(members, rounds, year=2000 + number)
    ratings_recompute()
    # The statistics autovacuum keeps on a site's database: without them the planner
    # guesses at rows written in bulk a moment before (and the old "players before a
    # period" query took seconds instead of milliseconds).
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _played_again(players: list[Player], rounds: int, *, year: int) -> None:
    """A tournament of the same members in ``year``, its ``rounds`` settled at once and closed."""
    from django.contrib.auth import get_user_model

    from tournaments.services import rounds as round_services
    from tournaments.services import tournaments as services

    tournament = services.tournament_create(
        name=f"Bench again {year}",
        year=year,
        starts_on=datetime.date(year, 1, 1),
        ends_on=datetime.date(year, 1, 2),
        swiss_rounds=rounds,
        seed=year,
    )
    organiser = get_user_model().objects.create(username=f"bench-organiser-{year}")
    for player in players:
        services.entry_add(tournament=tournament, player=player, checked_in=True)
    for _ in range(rounds):
        round_ = round_services.round_publish(
            round=round_services.round_propose(tournament=tournament)
        )
        settle_round(round_, organiser)
        round_services.round_close(round=round_)


def _latest_round() -> Round:
    from ratings.models import RatingPeriod

    latest = RatingPeriod.objects.filter(round__isnull=False).order_by("-position").first()
    assert latest is not None
    assert latest.round is not None
    return latest.round


def _one_result_changed(round_: Round, repeat: int) -> None:
    """The winner of one match of ``round_`` changes (a correction; not timed)."""
    from tournaments.models import Match

    matches = list(Match.objects.filter(round=round_, is_bye=False).order_by("pk"))
    match = matches[repeat % len(matches)]
    Match.objects.filter(pk=match.pk).update(winner=1 - (match.winner or 0))


def _rerate_ms(round_: Round) -> float:
    from ratings.services import ratings_rerate

    start = time.perf_counter()
    ratings_rerate(round=round_)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--histories", default="3,10,30", help="tournaments before, per size")
    parser.add_argument("--repeats", type=int, default=15)
    options = parser.parse_args()
    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith(("postgres://", "postgresql://")):
        parser.error("DATABASE_URL must name a PostgreSQL database (its server gets the copies)")
    sizes = [int(size) for size in options.histories.split(",")]
    names = {size: urlsplit(_database_url(base, size)).path.lstrip("/") for size in sizes}
    for size in sizes:
        _fresh_database(_database_url(base, size))
    os.environ["DATABASE_URL"] = _database_url(base, sizes[0])
    setup_django()
    latest: dict[int, Any] = {}
    for size in sizes:
        _use(names[size])
        started = time.perf_counter()
        _seed(size, options.players, options.rounds)
        latest[size] = _latest_round()
        print(f"{size:>3} tournaments seeded in {time.perf_counter() - started:.0f} s")
    times: dict[int, list[float]] = {size: [] for size in sizes}
    print(f"load average before the rounds: {_load()}")
    for repeat in range(options.repeats):
        shift = repeat % len(sizes)
        for size in sizes[shift:] + sizes[:shift]:
            _use(names[size])
            _one_result_changed(latest[size], repeat)
            times[size].append(_rerate_ms(latest[size]))
    print(f"load average after the rounds:  {_load()}")
    print(
        f"Re-rating after one result in the latest round ({options.players} players, "
        f"{options.rounds} rounds a tournament), median of {options.repeats}:"
    )
    medians = {size: statistics.median(times[size]) for size in sizes}
    for size in sizes:
        print(
            f"{size:>3} past tournaments ({size * options.rounds:>3} periods): "
            f"{medians[size]:8.1f} ms"
        )
    for size in sizes[1:]:
        print(f"ratio {size}/{sizes[0]}: {medians[size] / medians[sizes[0]]:.2f}")


if __name__ == "__main__":
    main()
