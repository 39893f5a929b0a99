"""The games the online benchmark plays: members and their games, in the server's database.

    python -m benchmarks.online_seed --out online.json [--games 50] [--championship]

Uses the settings in the environment (the ones the server under test runs with) on a
migrated database. Seeds ``--games`` best-of-three matches between two members each,
started through the services (a challenge accepted), and a logged-in session for every
member (written to the session store as a login would), so that a hundred players need
not pass the login's throttle. Writes to ``--out`` (JSON) each player's game and
session key.

With ``--championship`` the games are instead the matches of a championship's round being
played (``benchmarks.site.played_field``), proposed and accepted on the site as members
do (``play.championship``): anyone may watch them, so the push benchmark gives each a
spectator (``benchmarks/push.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

PASSWORD = "online-bench-password-1"


def seed(games: int) -> dict[str, Any]:
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from club.models import Player
    from play.online import challenge_accept, challenge_create

    users = get_user_model()
    players = []
    for number in range(games):
        pair = []
        for seat in (0, 1):
            user = users.objects.create_user(f"online-{number:03d}-{seat}", password=PASSWORD)
            Player.objects.create(name=f"Spelare {number:03d}-{seat}", club="Umeå", user=user)
            pair.append(user)
        challenge = challenge_create(challenger=pair[0], challenged=pair[1], best_of=3)
        game = challenge_accept(pk=challenge.pk, member=pair[1], seed=1000 + number)
        for user in pair:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            players.append({"game": game.pk, "session": session.session_key})
    return {"players": players}


def seed_championship(games: int) -> dict[str, Any]:
    """``games`` tournament matches played on the site, with their players' sessions."""
    from django.contrib.auth import get_user_model

    from benchmarks.site import played_field
    from play.championship import match_propose
    from play.online import challenge_accept
    from tournaments.models import Match, Round

    names = [(f"Spelare {number:03d}", "Umeå") for number in range(2 * games)]
    championship = played_field(names, 0, in_play=True, year=2040, bulk=True, more_rounds=0)
    playing = championship.rounds.get(status=Round.Status.PLAYING)
    users = get_user_model()
    players = []
    matches = Match.objects.filter(round=playing, is_bye=False).order_by("table")
    for number, match in enumerate(matches.prefetch_related("seats__entry__player")):
        pair = []
        for seat in sorted(match.seats.all(), key=lambda seat: seat.seat):
            user = users.objects.create_user(f"online-{number:03d}-{seat.seat}", password=PASSWORD)
            seat.entry.player.user = user
            seat.entry.player.save(update_fields=["user"])
            pair.append(user)
        proposal = match_propose(match=match, member=pair[0])
        game = challenge_accept(pk=proposal.pk, member=pair[1], seed=1000 + number)
        players += [{"game": game.pk, "session": _session(user)} for user in pair]
    return {"players": players}


def _session(user: Any) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--championship", action="store_true", help="tournament matches")
    args = parser.parse_args(argv)
    import django

    django.setup()
    made = seed_championship(args.games) if args.championship else seed(args.games)
    args.out.write_text(json.dumps(made), encoding="utf-8")
    print(f"seeded {args.games} games between members", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
