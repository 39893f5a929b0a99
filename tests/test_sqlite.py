"""The embedded database of a quick start: a SQLite file the site writes in write-ahead mode."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SHOW_MODES = """
import django
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("PRAGMA journal_mode")
    journal = cursor.fetchone()[0]
    cursor.execute("PRAGMA synchronous")
    synchronous = cursor.fetchone()[0]
print(journal, synchronous)
"""


def test_a_sqlite_file_is_written_ahead_and_commits_without_waiting_for_the_disk(
    tmp_path: Path,
) -> None:
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
    }
    shown = subprocess.run(
        [sys.executable, "-c", SHOW_MODES],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    # WAL: pages are read while a result is written; synchronous 1 is NORMAL (2, FULL,
    # would wait for the disk at every commit: about 1.5 ms of each practice decision).
    assert shown.stdout.split() == ["wal", "1"]
