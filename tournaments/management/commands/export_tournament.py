"""``manage.py export_tournament SLUG``: the whole tournament as JSON on standard output."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.exchange import export_tournament
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament as JSON to standard output (format: docs/tournament-json.md)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "--records", action="store_true", help="include each game's engine record"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament has the address {options['slug']!r}.")
        data = export_tournament(tournament, records=options["records"])
        self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
