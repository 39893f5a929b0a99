"""The embedded database of a quick start: a SQLite file the site writes in write-ahead mode."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db import connection, transaction

from club.models import Player
from tests.factories import PlayerFactory

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


@pytest.mark.django_db(transaction=True)
def test_a_page_is_read_while_a_move_is_being_written() -> None:
    """One connection reads while another's write is not yet committed, and sees the rows
    as they were: a game's poll answered while the other player's move is written.

    The browser tests' live server did this on SQLite (each request a thread, each thread
    its own connection); CI's SQLite pass leaves the browser tests out (they prove the
    pages' scripts, on the PostgreSQL pass) and keeps this. A test database in memory
    (shared cache) refuses such a read ("table is locked"): config/test_settings.py.
    """
    before = Player.objects.count()
    seen: list[int | str] = []

    def poll() -> None:
        try:
            seen.append(Player.objects.count())
        except Exception as refused:  # noqa: BLE001 - the refusal is what the test shows
            seen.append(f"refused: {refused}")
        finally:
            connection.close()

    with transaction.atomic():
        PlayerFactory.create(name="Anna Ek")
        reader = threading.Thread(target=poll)
        reader.start()
        reader.join(timeout=30)
    assert seen == [before]
    assert Player.objects.count() == before + 1
