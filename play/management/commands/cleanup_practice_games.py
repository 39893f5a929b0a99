"""``manage.py cleanup_practice_games``: delete guests' practice games nobody touched for N days."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from play.services import practice_cleanup


class Command(BaseCommand):
    help = (
        "Delete guests' practice games not touched for --days days (default 7, at least 1: "
        "0 would take the games guests are playing now). Members' stay."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days", type=int, default=7, help="days without a move (default 7, at least 1)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"]
        try:
            deleted = practice_cleanup(days=days)
        except ValueError as error:
            raise CommandError(f"--days: {error}.") from error
        self.stdout.write(f"Deleted {deleted} guest practice games untouched for {days} days.")
