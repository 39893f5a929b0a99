"""The championship the load test plays: seeded through the services into the server's database.

    python -m benchmarks.venue_seed --out venue.json [--players 256] [--rounds 8] [--more-rounds 1]

Uses the settings in the environment (the ones the server under test runs with) on a
migrated database. Seeds:

- the championship: ``--players`` entries, ``--rounds`` closed Swiss rounds and the next
  round published and unreported (its tables are the matches the players report), and
  ``--more-rounds`` Swiss rounds after it to pair (1; the soak test plays several);
- a side event of 32 players with round 1 proposed, for the organiser to pair again;
- an organiser account, and a member's (an account with a player of the championship);

and then gathers the query planner's statistics (``ANALYZE``).

Writes what the load test needs to ``--out`` (JSON): the addresses, the organiser's
login, and for each unreported table the match and both players' private link keys.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

ORGANISER = ("venue-organiser", "venue-organiser-password-1")
MEMBER = ("venue-member", "venue-member-password-1")

# What the load test's players read from their pages and post, as a browser would.
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')


def report_data(loser_score: int) -> dict[str, str]:
    """A best-of-three won 2-1 by seat 0, as typed into the report form."""
    return {
        "first_dealer": "0",
        "game_1_winner": "0",
        "game_1_loser_score": "97",
        "game_2_winner": "1",
        "game_2_loser_score": "88",
        "game_3_winner": "0",
        "game_3_loser_score": str(loser_score),
    }


def _names(count: int, prefix: str) -> list[tuple[str, str]]:
    clubs = ["Uppsala", "Göteborg", "Malmö", "Umeå", "Örebro", "Lund"]
    return [(f"{prefix} {n:03d} Åström", clubs[n % len(clubs)]) for n in range(count)]


def seed(players: int, rounds: int, more_rounds: int = 1) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db.models import Prefetch

    from benchmarks.site import played_field
    from club.models import Player
    from tournaments.models import Match, Round, Seat
    from tournaments.services import rounds as round_services

    championship = played_field(
        _names(players, "Spelare"),
        rounds,
        in_play=True,
        year=2040,
        bulk=True,
        more_rounds=more_rounds,
    )
    side = played_field(_names(32, "Sidospelare"), 0, in_play=False, year=2041)
    round_services.round_propose(tournament=side)
    organiser = get_user_model().objects.create_user(ORGANISER[0], password=ORGANISER[1])
    organiser.groups.add(Group.objects.get_or_create(name="organisers")[0])
    # A member: an account with a player of the championship (the PDF burst's logged-in reader).
    member = get_user_model().objects.create_user(MEMBER[0], password=MEMBER[1])
    Player.objects.filter(entries__tournament=championship).filter(
        pk=championship.entries.order_by("pk").values("player_id")[:1]
    ).update(user=member)
    playing = championship.rounds.get(status=Round.Status.PLAYING)
    seats = Prefetch("seats", queryset=Seat.objects.select_related("entry").order_by("seat"))
    matches = Match.objects.filter(round=playing, is_bye=False).prefetch_related(seats)
    return {
        "championship": championship.slug,
        "round": playing.number,
        "side": side.slug,
        "organiser": {"username": ORGANISER[0], "password": ORGANISER[1]},
        "member": {"username": MEMBER[0], "password": MEMBER[1]},
        "tables": [
            {"match": match.pk, "keys": [seat.entry.private_key for seat in match.seats.all()]}
            for match in matches.order_by("table")
        ],
    }


def analyze() -> None:
    """Give the query planner statistics of the seeded tables, as a database in use has.

    PostgreSQL's autovacuum gathers them within a minute or so of a large change; the
    load test starts sooner, and without them the planner takes the 2,304 seats of a
    championship for a handful (nested loops: the standings' seats query 7 ms instead
    of 2 ms).
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument(
        "--more-rounds", type=int, default=1, help="Swiss rounds after the one in play"
    )
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    venue = seed(args.players, args.rounds, args.more_rounds)
    analyze()
    args.out.write_text(json.dumps(venue, indent=1))
    print(f"Seeded {args.players} players, {len(venue['tables'])} tables to report: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
