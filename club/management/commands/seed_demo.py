"""``manage.py seed_demo``: demo data for a first look; running it again changes nothing."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from club.demo import DEMO_ORGANISER, DEMO_PLAYER, seed_club, seed_practice_games
from tournaments.demo import seed_championships


class Command(BaseCommand):
    help = "Load the demo organiser, players and (where available) a championship. Idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        done = seed_club()
        self.stdout.write(f"Club: {len(done)} things created" if done else "Club: already there")
        practice = seed_practice_games()
        self.stdout.write(
            f"Practice games: {practice} played" if practice else "Practice games: already there"
        )
        championships = seed_championships()
        done = ", ".join(championships) if championships else "already there"
        self.stdout.write(f"Championships: {done}")
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo organiser: username '{DEMO_ORGANISER[0]}', password '{DEMO_ORGANISER[1]}'\n"
                f"Demo player (Anna Berg): username '{DEMO_PLAYER[0]}', password '{DEMO_PLAYER[1]}'"
            )
        )
