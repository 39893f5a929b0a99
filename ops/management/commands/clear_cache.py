"""``manage.py clear_cache``: empty this database's part of the cache, and only it.

``manage.py restore`` does it itself; this is for when the cache could not be reached
then (docs/operating.md, "Restoring").
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from core.cache import CacheNotEmptied, clear_this_database


class Command(BaseCommand):
    help = (
        "Empty this database's part of the cache (PDFs, cached tables, rate-limit counts); "
        "other databases' parts of the same folder or Redis are left as they are."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            clear_this_database()
        except CacheNotEmptied as error:
            raise CommandError(str(error)) from error
        self.stdout.write("This database's cache is empty.")
