"""``manage.py import_tournament FILE``: read a tournament written by export_tournament.

The whole file is checked before anything is saved (docs/tournament-json.md, Import);
a problem ends the command with a message that starts with the path of the value at
fault, such as ``rounds[2].matches[5].games[1].loser_score: ...``.

The tournament is imported unrated: its matches do not count on the rating list (a copy
of an exported tournament would count them twice). ``--rated`` counts them, and is
refused when the file's matches are already on the list
(``tournaments.exchange.writing.matches_on_the_list``).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from tournaments.errors import TournamentError
from tournaments.exchange import MAX_MEGABYTES, import_tournament, read_export, read_limited
from tournaments.ports import rating_list


class Command(BaseCommand):
    help = (
        "Read a tournament from a JSON file ('-' for standard input); "
        "the whole file is checked first and nothing is saved on any error."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug", default="", help="store it under another address")
        parser.add_argument(
            "--rated",
            action="store_true",
            help="count its matches on the rating list (default: unrated; refused for "
            "matches already on the list)",
        )
        parser.add_argument(
            "--max-size",
            type=int,
            default=MAX_MEGABYTES,
            metavar="MB",
            help=f"refuse larger files without reading them (default {MAX_MEGABYTES} MB)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["max_size"] < 1:
            raise CommandError("--max-size is a number of megabytes, at least 1.")
        # The messages are for the organiser at the terminal, in English like the command.
        with translation.override("en"):
            try:
                data = read_export(self._read(options["file"], options["max_size"]))
                tournament = import_tournament(data, slug=options["slug"], rated=options["rated"])
            except TournamentError as error:
                raise CommandError(str(error)) from error
        if tournament.rated:
            rating_list().rate_now()  # the administrator waits for the list, once it is saved
        self.stdout.write(f"Imported {tournament.name}: {tournament.rounds.count()} rounds.")
        self.stdout.write(tournament.slug)

    def _read(self, name: str, megabytes: int) -> bytes:
        if name == "-":
            return read_limited(sys.stdin.buffer, megabytes=megabytes)
        try:
            with open(name, "rb") as handle:
                return read_limited(handle, megabytes=megabytes)
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror or error}.") from error
