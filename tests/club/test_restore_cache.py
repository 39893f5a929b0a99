"""A restore empties its own database's part of the cache, never the live site's
(docs/operating.md, "A restore drill").

The site and a drill beside it share one cache folder or one Redis: the drill run as the
page says (another database, from the site's folder, the same ``CACHE_URL``) must leave
the site's rendered PDFs, render markers and rate-limit counts where they are, and
empty its own, whose results versions the restore may repeat.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from django.core.cache import BaseCache, caches
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from club.models import Player
from config.environment import cache_at
from core.cache import RETRY_SECONDS, CacheNotEmptied
from tests.conftest import RedisServer
from tests.factories import OrganiserFactory, PlayerFactory

ROOT = Path(__file__).resolve().parents[2]
# The live site, as far as the cache can tell: another database than the test's.
LIVE = {"ENGINE": "django.db.backends.postgresql", "HOST": "db.example.se", "NAME": "club"}
# What each site keeps: a rendered PDF, the marker of a render queued, a rate-limit count.
KEPT = {"pdf:standings:1": b"%PDF-1.7 ...", "pdf:round:2:queued": True, "rl:pdf-render": 7}

Settings = Mapping[str, Any]


@pytest.fixture
def backup(db: None, tmp_path: Path) -> Path:
    OrganiserFactory.create(username="olle")
    PlayerFactory.create_batch(3)
    path = tmp_path / "site.backup.gz"
    call_command("backup", output=str(path), stdout=io.StringIO())
    return path


@contextmanager
def two_sites(url: str, *, drill: Settings, live: Settings = LIVE) -> Iterator[BaseCache]:
    """The drill's cache as the site's default (``drill`` its database), and the live
    site's at ``url`` too, given back with its entries kept."""
    configured = {
        "default": cache_at(url, database=drill),
        "live": cache_at(url, database=live),
    }
    with override_settings(CACHES=configured):
        for alias in configured:
            caches[alias].set_many(KEPT, 3600)
        yield caches["live"]


def kept(cache: BaseCache) -> dict[str, Any]:
    found: dict[str, Any] = cache.get_many(list(KEPT))
    return found


@pytest.mark.django_db
def test_a_drill_restored_from_the_sites_folder_leaves_the_sites_cached_pdfs(
    backup: Path, tmp_path: Path
) -> None:
    """As docs/operating.md has it: migrate another database, restore into it, with the
    site's own cache folder."""
    drill = tmp_path / "drill.sqlite3"
    url = f"filecache://{tmp_path / 'cache'}"
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{drill}",
        "CACHE_URL": url,
        "SECRET_KEY": "a-drill",
        "LOG_LEVEL": "WARNING",
    }
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=environment, check=True)
    drill_database = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(drill)}
    with two_sites(url, drill=drill_database, live=connection.settings_dict) as live:
        subprocess.run(
            [*manage, "restore", str(backup)],
            cwd=ROOT,
            env=environment,
            check=True,
            capture_output=True,
        )
        assert kept(live) == KEPT
        assert kept(caches["default"]) == {}


@pytest.mark.django_db
@pytest.mark.parametrize("scheme", ["file", pytest.param("redis", marks=pytest.mark.redis)])
def test_a_restore_empties_its_own_databases_cache_and_no_other(
    scheme: str,
    backup: Path,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    django_capture_on_commit_callbacks: Any,
) -> None:
    if scheme == "redis":
        server: RedisServer = request.getfixturevalue("redis_server")
        url = f"{server.url}?key_prefix=club"
    else:
        url = f"filecache://{tmp_path / 'cache'}"
    with two_sites(url, drill=connection.settings_dict) as live:
        with django_capture_on_commit_callbacks(execute=True):
            call_command("restore", str(backup), replace=True, stdout=io.StringIO())
        assert kept(live) == KEPT
        assert kept(caches["default"]) == {}
    if scheme == "redis":
        store = redis.Redis.from_url(server.url)
        everything = store.keys("*")
        assert everything
        assert sorted(everything) == sorted(store.keys("club:*"))  # the user's prefix first


@pytest.mark.django_db
@pytest.mark.redis
def test_a_restore_that_cannot_empty_the_cache_stands_and_says_what_to_run(
    backup: Path, redis_server: RedisServer, django_capture_on_commit_callbacks: Any
) -> None:
    with two_sites(redis_server.url, drill=connection.settings_dict) as live:
        redis_server.stop()
        Player.objects.all().delete()
        with (
            pytest.raises(CacheNotEmptied, match=r"manage\.py clear_cache"),
            django_capture_on_commit_callbacks(execute=True),
        ):
            call_command("restore", str(backup), replace=True, stdout=io.StringIO())
        assert Player.objects.count() == 3

        redis_server.start()
        time.sleep(RETRY_SECONDS)
        for alias in ("default", "live"):
            caches[alias].set_many(KEPT, 3600)
        out = io.StringIO()
        call_command("clear_cache", stdout=out)
        assert "empty" in out.getvalue()
        assert kept(live) == KEPT
        assert kept(caches["default"]) == {}
