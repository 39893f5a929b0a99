"""``manage.py restore FILE``: the site as a backup has it (docs/operating.md, Restoring).

Into an empty, migrated database, or with ``--replace`` instead of everything in it;
all in one transaction, so a refused or damaged file changes nothing.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.backup import BackupError, Header, restore_backup


class Command(BaseCommand):
    help = (
        "Restore a file written by 'manage.py backup' into an empty, migrated database "
        "(--replace: instead of everything in it). All of it or nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup ('-': stdin)")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete everything in the database and put the backup in its place",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        try:
            if name == "-":
                header = self._restore(sys.stdin.buffer, replace=options["replace"])
            else:
                with open(name, "rb") as handle:
                    header = self._restore(handle, replace=options["replace"])
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror or error}.") from error
        self.stdout.write(
            f"Restored {sum(header.rows.values())} rows from the backup of "
            f"{header.created_at} ({header.vendor})."
        )

    def _restore(self, stream: IO[bytes], *, replace: bool) -> Header:
        try:
            return restore_backup(stream, replace=replace)
        except BackupError as error:
            raise CommandError(str(error)) from error
