"""A cache that does not answer costs a reader next to nothing (core/cache.py, core/caching.py).

A Redis that is gone refuses at once; one that hangs (a machine under load, a network
cut) would hold every request for redis-py's 5 s. The site waits a second for it once,
then leaves it alone for a second; and a reader never waits for a lock in a cache that
nobody can reach.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from typing import cast

import pytest
from django.core.cache import BaseCache
from django.utils.module_loading import import_string

from config.environment import cache_at
from core import caching

DATABASE = {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/club/db.sqlite3"}


def site_cache(url: str) -> BaseCache:
    """The cache ``CACHE_URL=url`` gives the site."""
    settings = dict(cache_at(url, database=DATABASE))
    backend = import_string(cast(str, settings.pop("BACKEND")))
    return cast(BaseCache, backend(settings.pop("LOCATION"), settings))


@pytest.fixture
def hung_redis() -> Iterator[str]:
    """A server that takes connections and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"


@pytest.fixture
def gone_redis() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def test_a_redis_that_hangs_holds_one_request_a_second_for_a_second_at_most(
    hung_redis: str,
) -> None:
    cache = site_cache(hung_redis)
    started = time.monotonic()
    assert cache.get("standings") is None
    assert time.monotonic() - started < 1.5
    started = time.monotonic()
    for _ in range(50):  # the requests of the next moment
        assert cache.get("standings") is None
        assert not cache.add("standings:lock", True, 60)
    assert time.monotonic() - started < 0.1


def test_a_reader_does_not_wait_for_a_lock_nobody_can_hold(
    gone_redis: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    waits: list[float] = []
    monkeypatch.setattr("core.caching.time.sleep", waits.append)
    cache = site_cache(gone_redis)
    for _ in range(3):
        drawn = caching.computed_once("table", lambda: "<table>", timeout=60, wait=2, cache=cache)
        assert drawn == "<table>"
    assert waits == []
