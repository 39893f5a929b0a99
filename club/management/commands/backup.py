"""``manage.py backup --output FILE``: the whole site in one file (docs/operating.md, Backups)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from club.backup import write_backup


class Command(BaseCommand):
    help = (
        "Write the whole site (accounts, register, tournaments, games, rating list) to one "
        "gzip file that 'manage.py restore' reads on SQLite or PostgreSQL."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output", required=True, metavar="FILE", help="the file to write ('-': stdout)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["output"] == "-":
            write_backup(sys.stdout.buffer)
            return
        target = Path(options["output"])
        # Written beside the target, then renamed: a failed backup never leaves a half
        # file under the name of a good one.
        partial = target.with_name(f".{target.name}.partial")
        try:
            # The file holds password hashes and members' addresses: the owner's alone.
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with open(descriptor, "wb") as handle:
                header = write_backup(handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        self.stdout.write(f"Backed up {sum(header.rows.values())} rows to {target}.")
