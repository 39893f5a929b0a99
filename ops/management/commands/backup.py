"""``manage.py backup --output FILE``: the whole site in one file (docs/operating.md, Backups)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ops.backup import backup_signing_key, write_backup
from ops.backup_file import BackupError
from ops.backup_keys import Key

UNSIGNED = (
    "Warning: BACKUP_SIGNING_KEY (or BACKUP_SIGNING_KEY_FILE) is not set, so this backup "
    "is not signed: 'manage.py restore' refuses it without --trust-unsigned."
)


class Command(BaseCommand):
    help = (
        "Write the whole site (accounts, register, tournaments, games, rating list) to one "
        "gzip file that 'manage.py restore' reads on SQLite or PostgreSQL, with a digest of "
        "its contents, signed with BACKUP_SIGNING_KEY (or the key in BACKUP_SIGNING_KEY_FILE)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--output", required=True, metavar="FILE", help="the file to write ('-': stdout)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            key = backup_signing_key()
        except BackupError as error:
            raise CommandError(str(error)) from error
        if key is None:
            self.stderr.write(UNSIGNED)
        if options["output"] == "-":
            write_backup(sys.stdout.buffer, key=key)
            return
        target = Path(options["output"])
        rows = self._write(target, key)
        signed = f", signed with key {key.id}" if key else ", not signed"
        self.stdout.write(f"Backed up {rows} rows to {target}{signed}.")

    def _write(self, target: Path, key: Key | None) -> int:
        # Written beside the target, then renamed: a failed backup never leaves a half
        # file under the name of a good one.
        partial = target.with_name(f".{target.name}.partial")
        try:
            # The file holds password hashes and members' addresses: the owner's alone.
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with open(descriptor, "wb") as handle:
                header = write_backup(handle, key=key)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
        return sum(header.rows.values())
