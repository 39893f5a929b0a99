"""``manage.py import_tournament FILE``: read a tournament written by export_tournament."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import TournamentError
from tournaments.exchange import import_tournament


class Command(BaseCommand):
    help = (
        "Read a tournament from a JSON file ('-' for standard input); "
        "nothing is saved on any error."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug", default="", help="store it under another address")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["file"] == "-":
                data = json.load(sys.stdin)
            else:
                with open(options["file"], encoding="utf-8") as handle:
                    data = json.load(handle)
        except (OSError, json.JSONDecodeError) as error:
            raise CommandError(f"Cannot read {options['file']}: {error}") from error
        try:
            tournament = import_tournament(data, slug=options["slug"])
        except TournamentError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Imported {tournament.name}: {tournament.rounds.count()} rounds.")
        self.stdout.write(tournament.slug)
