"""Demo data for a newcomer's first look: an organiser, players with accounts, members."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction

from club.models import Player
from club.services import fold

DEMO_ORGANISER = ("organiser", "crib-demo-121")
DEMO_PLAYER = ("anna", "crib-demo-121")
DEMO_OPPONENT = ("bjorn", "crib-demo-121")
"""A second member with an account (Björn Åkesson), who plays Anna online in the demo."""

DEMO_MEMBERS = [
    ("Anna Berg", "Uppsala"),
    ("Björn Åkesson", "Göteborg"),
    ("Cecilia Öberg", "Stockholm"),
    ("David Lindqvist", "Malmö"),
    ("Elin Sjöström", "Umeå"),
    ("Fredrik Håkansson", "Lund"),
    ("Greta Nyström", "Västerås"),
    ("Hugo Ekström", "Örebro"),
    ("Ida Johansson", "Linköping"),
    ("Johan Andersson", "Uppsala"),
    ("Johan Andersson", "Luleå"),
    ("Karin Wallén", "Gävle"),
    ("Lars Müller", "Helsingborg"),
    ("Maja Dahlgren", "Jönköping"),
    ("Nils Forsberg", "Stockholm"),
    ("Olivia Strömberg", "Norrköping"),
    ("Per-Åke Lindén", "Karlstad"),
    ("Rebecka Holm", "Sundsvall"),
    ("Sofia Ångström", "Växjö"),
    ("Tobias Lundgren", "Kalmar"),
    ("Ulla Björklund", "Falun"),
    ("Viktor Renée", "Östersund"),
    ("Åsa Engström", "Visby"),
    ("Östen Sandberg", "Borås"),
]


@transaction.atomic
def seed_club() -> list[str]:
    """Create (or leave as they are) the demo accounts and members; return what was done."""
    done: list[str] = []
    users = get_user_model()
    organisers, _ = Group.objects.get_or_create(name=settings.ORGANISER_GROUP)
    organiser, created = users.objects.get_or_create(
        username=DEMO_ORGANISER[0], defaults={"first_name": "Demo", "is_staff": True}
    )
    if created:
        organiser.set_password(DEMO_ORGANISER[1])
        organiser.save()
        done.append("organiser account")
    organiser.groups.add(organisers)
    joined = datetime.date(2019, 1, 12)
    for index, (name, club) in enumerate(DEMO_MEMBERS):
        _, created = Player.objects.get_or_create(
            name=name,
            club=club,
            defaults={
                "search_key": fold(f"{name} {club}"),
                "joined": joined + datetime.timedelta(days=53 * index),
            },
        )
        if created:
            done.append(f"member {name}")
    for (username, password), (name, club), account in (
        (DEMO_PLAYER, ("Anna Berg", "Uppsala"), "player account"),
        (DEMO_OPPONENT, ("Björn Åkesson", "Göteborg"), "second player account"),
    ):
        user, created = users.objects.get_or_create(username=username)
        if created:
            user.set_password(password)
            user.save()
            done.append(account)
        Player.objects.filter(name=name, club=club, user=None).update(user=user)
    return done


@transaction.atomic
def demo_passwords() -> int:
    """Give every member's account made without a password (the demo championships' players)
    the demo password, so that a newcomer can log in as anyone, Anna's opponents too;
    return how many. One hash for all: it is the same password, and hashing each would
    cost a second a member."""
    members = get_user_model().objects.filter(player__isnull=False, password__startswith="!")
    return members.update(password=make_password(DEMO_PLAYER[1]))
