"""``manage.py release``: the release step, once per release, before the site starts.

One step wherever the site runs: ``make release`` runs it, ``make serve`` runs it before
it starts gunicorn, the Docker image's ``release`` runs it (docker-entrypoint.sh). It:
1. collects the static files into ``STATIC_ROOT``, where WhiteNoise serves them from
   (without ``DEBUG`` a page naming a file missing from their manifest fails, 500);
   skipped when the sources and the storage are those of the last collection
   (``SOURCES``), since compressing every file again takes seconds of CPU;
2. migrates the database;
3. makes the database cache's table (``CACHE_URL=dbcache://``; nothing for the other caches).

The translations' ``.mo`` files are in the repository: nothing to compile. The Docker
image runs the first part when it is built (``--static-only``: no database there), so its
``release`` finds the static files collected and only migrates.
"""

from __future__ import annotations

import hashlib
import os
from importlib.metadata import version
from pathlib import Path
from typing import Any

import django
from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.files.storage import storages
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

# In STATIC_ROOT beside the collected files: the digest of what they were collected from.
SOURCES = ".release-sources"


def static_sources_digest() -> str:
    """What the collected files depend on: every source file (as collectstatic finds them,
    the first finder's copy of a name winning), the storage and its libraries' versions."""
    digest = hashlib.sha256()
    storage = storages["staticfiles"]
    for part in (
        f"{type(storage).__module__}.{type(storage).__qualname__}",
        settings.STATIC_URL,
        django.__version__,
        version("whitenoise"),
        repr(getattr(settings, "WHITENOISE_KEEP_ONLY_HASHED_FILES", None)),
        repr(getattr(settings, "WHITENOISE_SKIP_COMPRESS_EXTENSIONS", None)),
    ):
        digest.update(f"{part}\0".encode())
    ignore_patterns = apps.get_app_config("staticfiles").ignore_patterns  # type: ignore[attr-defined]
    sources: dict[str, str] = {}
    for finder in finders.get_finders():
        for path, source in finder.list(ignore_patterns):
            prefix = getattr(source, "prefix", None)
            name = os.path.join(prefix, path) if prefix else path
            sources.setdefault(name, source.path(path))
    for name in sorted(sources):
        digest.update(f"{name}\0".encode())
        digest.update(hashlib.sha256(Path(sources[name]).read_bytes()).digest())
    return digest.hexdigest()


class Command(BaseCommand):
    help = (
        "The release step, once per release before the site starts: collect the static "
        "files (STATIC_ROOT; skipped when they are collected from these sources already), "
        "migrate the database, make the database cache's table (CACHE_URL=dbcache://)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--static-only",
            action="store_true",
            help="collect the static files only, no database (the Docker image's build)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        verbosity = options["verbosity"]
        self.collect_static(verbosity)
        if options["static_only"]:
            return
        call_command("migrate", interactive=False, verbosity=verbosity)
        call_command("createcachetable", verbosity=verbosity)

    def collect_static(self, verbosity: int) -> None:
        root = Path(settings.STATIC_ROOT)
        record = root / SOURCES
        digest = static_sources_digest()
        if record.is_file() and record.read_text().strip() == digest:
            if verbosity:
                self.stdout.write(
                    f"Static files: collected in {root} from these sources already "
                    "('manage.py collectstatic' collects them again)."
                )
            return
        if root.exists() and not os.access(root, os.W_OK):
            raise CommandError(
                f"STATIC_ROOT: {root} is read-only and holds static files collected from "
                "other sources or settings (collect them where it is built, as the Docker "
                "image does: 'manage.py release --static-only')."
            )
        call_command("collectstatic", interactive=False, verbosity=verbosity)
        record.write_text(digest + "\n")
