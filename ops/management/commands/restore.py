"""``manage.py restore FILE``: the site as a backup has it (docs/operating.md, Restoring).

Into an empty, migrated database, or with ``--replace`` instead of everything in it;
all in one transaction, so a refused or damaged file changes nothing. The file is
checked first: whole (its digest matches) and signed with a key this site has, or, with
``--trust-unsigned``, whole only.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.cache import CacheNotEmptied
from ops.backup import Restored, restore_backup
from ops.backup_file import BackupError


class Command(BaseCommand):
    help = (
        "Restore a file written by 'manage.py backup' into an empty, migrated database "
        "(--replace: instead of everything in it). All of it or nothing. The file must be "
        "whole (its digest matches its contents) and signed with BACKUP_SIGNING_KEY, the "
        "key in BACKUP_SIGNING_KEY_FILE or one of BACKUP_VERIFY_KEYS; otherwise nothing is "
        "written. Pending work (the rating list's re-rate, invitation mails waiting to be "
        "sent) is queued again for the task worker."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the backup ('-': stdin)")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete everything in the database and put the backup in its place",
        )
        parser.add_argument(
            "--trust-unsigned",
            action="store_true",
            help=(
                "restore a file whose signature cannot be checked or does not match: not "
                "signed, signed with a key this site does not have, or changed after it "
                "was signed (its digest made again). The file must still be whole: one "
                "that is cut short or whose contents do not match its digest is refused "
                "even so. Only for a file you know the origin of."
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["file"]
        flags = {"replace": options["replace"], "trust_unsigned": options["trust_unsigned"]}
        try:
            if name == "-":
                restored = self._restore(sys.stdin.buffer, **flags)
            else:
                with open(name, "rb") as handle:
                    restored = self._restore(handle, **flags)
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror or error}.") from error
        header, verified = restored.header, restored.verified
        checked = (
            f"signed with key {verified.signed_with}"
            if verified.signed_with
            else "its signature NOT checked (--trust-unsigned)"
        )
        self.stdout.write(
            f"Restored {sum(header.rows.values())} rows from the backup of "
            f"{header.created_at} ({header.vendor}), {checked}."
        )
        if not verified.signed_with:
            self.stderr.write(
                f"Warning: restored on --trust-unsigned, although {verified.unchecked}."
            )
        queued = [f"{kind} {count}" for kind, count in restored.queued.items() if count]
        if queued:
            self.stdout.write(
                f"Queued again for the task worker (manage.py db_worker): {', '.join(queued)}."
            )

    def _restore(self, stream: IO[bytes], *, replace: bool, trust_unsigned: bool) -> Restored:
        try:
            return restore_backup(stream, replace=replace, trust_unsigned=trust_unsigned)
        except BackupError as error:
            raise CommandError(str(error)) from error
        except CacheNotEmptied as error:  # after the commit: the restore stands
            raise CommandError(f"The backup was restored. {error}") from error
