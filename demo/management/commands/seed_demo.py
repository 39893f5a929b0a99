"""``manage.py seed_demo``: demo data for a first look; running it again changes nothing."""

from __future__ import annotations

import shlex
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from demo.club import DEMO_OPPONENT, DEMO_ORGANISER, DEMO_PLAYER, demo_passwords, seed_club
from demo.play import seed_championship_online, seed_online_games, seed_practice_games
from demo.tournaments import links_to_try, seed_championships


class Command(BaseCommand):
    help = "Load the demo organiser, players and (where available) a championship. Idempotent."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="scheme and host of the printed private links (default %(default)s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        done = seed_club()
        self.stdout.write(f"Club: {len(done)} things created" if done else "Club: already there")
        practice = seed_practice_games()
        self.stdout.write(
            f"Practice games: {practice} played" if practice else "Practice games: already there"
        )
        online = seed_online_games()
        self.stdout.write(
            f"Games between members: {online} made"
            if online
            else "Games between members: already there"
        )
        championships = seed_championships()
        seeded = ", ".join(championships) if championships else "already there"
        self.stdout.write(f"Championships: {seeded}")
        demo_passwords()
        online_matches = seed_championship_online()
        self.stdout.write(
            f"Championship matches on the site: {online_matches} made"
            if online_matches
            else "Championship matches on the site: already there (or none to make)"
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo organiser: username '{DEMO_ORGANISER[0]}', password '{DEMO_ORGANISER[1]}'\n"
                f"Demo player (Anna Berg): username '{DEMO_PLAYER[0]}', "
                f"password '{DEMO_PLAYER[1]}'\n"
                f"Her opponent online (Björn Åkesson): username '{DEMO_OPPONENT[0]}', "
                f"password '{DEMO_OPPONENT[1]}'\n"
                f"Every other member with an account (the username is on their page, for "
                f"the organiser): password '{DEMO_PLAYER[1]}'"
            )
        )
        self._print_links(options["base_url"])

    def _print_links(self, base_url: str) -> None:
        championship, links = links_to_try(base_url=base_url)
        if championship is None:
            return
        self.stdout.write(
            f"\nPrivate links (no account needed) of the players whose match in "
            f"{championship.name} is left to report: open one, save the games, then open "
            "the opponent's and confirm."
        )
        for table, name, url in links:
            self.stdout.write(f"  table {table:>2}  {name:<30} {url}")
        # A command to paste into another terminal of the same checkout, as it is: no
        # DEBUG or SECRET_KEY needed (config/startup.py).
        command = ["manage.py", "player_links", championship.slug, "--base-url", base_url]
        self.stdout.write(f"Every player's link: .venv/bin/python {shlex.join(command)}")
