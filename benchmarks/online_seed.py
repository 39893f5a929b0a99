"""The games the online benchmark plays: members and their games, in the server's database.

    python -m benchmarks.online_seed --out online.json [--games 50]

Uses the settings in the environment (the ones the server under test runs with) on a
migrated database. Seeds ``--games`` best-of-three matches between two members each,
started through the services (a challenge accepted), and a logged-in session for every
member (written to the session store as a login would), so that a hundred players need
not pass the login's throttle. Writes to ``--out`` (JSON) each player's game and
session key.
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args(argv)
    import django

    django.setup()
    args.out.write_text(json.dumps(seed(args.games)), encoding="utf-8")
    print(f"seeded {args.games} games between members", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
