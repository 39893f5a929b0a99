"""What the rating list costs a result: rating again from a round onward, and from scratch.

Run: ``.venv/bin/python -m benchmarks.ratings`` (``--help`` for the options).

A fresh SQLite database (or the one ``DATABASE_URL`` names: give it an empty one) gets
``--tournaments`` tournaments of the same ``--players`` members, each of ``--rounds``
rounds settled through the services (so the list is rated as results come, as on the
site). Then it times, ``--repeats`` times each, the median of:

- ``latest round``: what a result confirmed in the round being played costs, since
  ``results.save_changed`` rates the list again inside the result's transaction;
- ``first round``: a result corrected in the very first rated round (everything after
  it is rated again);
- ``recompute``: ``ratings_recompute``, the list from scratch (``manage.py
  recompute_ratings`` without its printing).
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from benchmarks.site import played_field, setup_django

if TYPE_CHECKING:
    from club.models import Player


def median_ms(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--tournaments", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=15)
    options = parser.parse_args()
    setup_django()
    from ratings.models import RatingPeriod
    from ratings.services import ratings_recompute, ratings_rerate
    from tournaments.models import Entry

    names = [(f"Player {number:03d}", "Bench") for number in range(options.players)]
    first = played_field(names, options.rounds, in_play=False, year=2020)
    players = [entry.player for entry in Entry.objects.filter(tournament=first)]
    for number in range(1, options.tournaments):
        _played_again(players, options.rounds, year=2020 + number)
    periods = RatingPeriod.objects.order_by("position").select_related("round")
    earliest, latest = periods.first(), periods.last()
    assert earliest is not None
    assert latest is not None
    print(
        f"{options.tournaments} tournaments of {options.players} players, {options.rounds} "
        f"rounds each: {periods.count()} rating periods"
    )
    rows = [
        ("latest round", lambda: ratings_rerate(round=latest.round)),
        ("first round", lambda: ratings_rerate(round=earliest.round)),
        ("recompute", ratings_recompute),
    ]
    for label, action in rows:
        print(f"{label:<14} {median_ms(action, options.repeats):8.1f} ms (median)")


def _played_again(players: list[Player], rounds: int, *, year: int) -> None:
    """A tournament of the same members in ``year``, its ``rounds`` settled and closed."""
    from django.contrib.auth import get_user_model

    from tournaments.models import Match
    from tournaments.services import results
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
        for match in Match.objects.filter(round=round_, is_bye=False):
            games = [(match.pk % 2, 40 + match.pk % 80), (match.pk % 2, 100)]
            results.match_settle(match=match, organiser=organiser, first_dealer=0, games=games)
        round_services.round_close(round=round_)


if __name__ == "__main__":
    main()
