"""The players of a rehearsal (``manage.py simulate_tournament``): made up, or members.

*Made-up players* (``Player.fictional``) are created for one rehearsal and are not
members: the register's lists and pages leave them out, they have no account (so they
are not in the lobby) and play in rehearsals only, so never on the rating list; they
report through their private links. The *members* of a rehearsal are the register's
active members in its order, new members added when there are too few, each given an
account to report with (no password: nobody logs in as them).
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction

from club.models import Player
from club.selectors import members
from club.services import player_create

FIRST_NAMES = [
    "Alva",
    "Axel",
    "Ebba",
    "Elsa",
    "Erik",
    "Filip",
    "Hanna",
    "Isak",
    "Klara",
    "Leo",
    "Linnea",
    "Ludvig",
    "Moa",
    "Nora",
    "Oskar",
    "Saga",
    "Signe",
    "Tuva",
    "Vera",
    "Ågot",
]
LAST_NAMES = [
    "Berglund",
    "Eklund",
    "Hedström",
    "Holmgren",
    "Isaksson",
    "Lindahl",
    "Mattsson",
    "Nordin",
    "Sandberg",
    "Söderlund",
    "Wikström",
    "Åberg",
    "Öhman",
    "Zetterlund",
]
TOWNS = ["Uppsala", "Göteborg", "Malmö", "Umeå", "Luleå", "Örebro", "Västerås", "Kiruna"]


@transaction.atomic
def made_up_players(count: int, rng: random.Random) -> list[Player]:
    """``count`` players made up for the rehearsal (``Player.fictional``), without accounts,
    none named as a member is, nor two alike."""
    taken = set(members().values_list("name", flat=True))
    names = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
    rng.shuffle(names)
    free = [name for name in names if name not in taken] or names
    chosen = [
        free[n % len(free)] + (f" {n // len(free) + 1}" if n >= len(free) else "")
        for n in range(count)
    ]
    return [player_create(name=name, club=rng.choice(TOWNS), fictional=True) for name in chosen]


@transaction.atomic
def members_to_rehearse(count: int, rng: random.Random) -> list[Player]:
    """Active club members (with an account each, to report with), new members if too few."""
    players = list(members().filter(active=True).order_by("pk")[:count])
    while len(players) < count:
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        players.append(player_create(name=name, club=rng.choice(TOWNS)))
    users = get_user_model()
    for player in players:
        if player.user_id is None:
            user = users(username=f"player-{player.pk}")
            # Reports in the rehearsal only; nobody logs in as them.
            user.set_unusable_password()
            user.save()
            player.user = user
            player.save(update_fields=["user"])
    return players
