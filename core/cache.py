"""The site's cache: Django's backends, one partition per database, and never a 500.

Terms:

- *partition*: the part of a cache that belongs to one database. Its name is a short hash
  of the database's identity (engine, host, port and name; a SQLite file's full path),
  and it is in every key (the key prefix) and, for the file cache, the folder the entries
  are kept in. Two databases served from one folder or one Redis (the site and a restore
  drill beside it) never read or clear each other's entries (docs/operating.md,
  "Backups").
- *unreachable*: a Redis that does not answer, a cache folder that cannot be read or
  written. The backends here then answer as an empty cache that keeps nothing (a miss,
  ``add`` refused, ``incr`` as for a missing key) instead of raising, log it once (and at
  most once a minute while it lasts), and leave the cache alone for ``RETRY_SECONDS``
  before asking again, so a dead cache costs a request nothing. The next answer brings
  it back, without a restart.
- *unanswered*: a cache operation that was not done for either reason; ``unanswered()``
  counts them in this thread, so a caller can tell a real miss from an outage (the rate
  limits, ``core.throttles``; the once-only lock, ``core.caching``).

``config/environment.py`` (``SiteEnv.CACHE_SCHEMES``, ``site_cache``) configures every
``CACHE_URL`` through here: the file and Redis caches are the classes below; the database,
local-memory and dummy caches are Django's own under the partition's key prefix (the
database cache's table is in its own database; the others never fail).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar
from urllib.parse import urlsplit

from django.core.cache import cache
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ImproperlyConfigured
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

T = TypeVar("T")

logger = logging.getLogger(__name__)

# After an unanswered operation the cache is left alone this long: a dead Redis or folder
# costs a process one try a second, and the cache is back a second after it is.
RETRY_SECONDS = 1.0
# While it stays unreachable, one line in the log a minute, not one a request.
LOG_EVERY_SECONDS = 60.0


def database_partition(database: Mapping[str, Any]) -> str:
    """The partition's name for ``database`` (an entry of Django's ``DATABASES``)."""
    engine = str(database.get("ENGINE", ""))
    name = os.fspath(database.get("NAME") or "")
    if engine.endswith("sqlite3") and name not in ("", ":memory:") and not name.startswith("file:"):
        identity = [engine, os.path.realpath(name)]
    else:
        host, port = str(database.get("HOST") or ""), str(database.get("PORT") or "")
        identity = [engine, host, port, name]
    return hashlib.blake2b("\n".join(identity).encode(), digest_size=4).hexdigest()


class CacheNotEmptied(RuntimeError):
    """``clear_this_database`` could not reach the cache."""


def clear_this_database() -> None:
    """Empty this database's partition of the cache, and only it.

    File cache: the partition's folder; Redis: its keys, found by prefix (SCAN), never
    FLUSHDB; the database cache: its table, which is this database's own. Raises
    ``CacheNotEmptied`` when the cache cannot be reached: entries from before a restore
    could be served once it answers again.
    """
    try:
        cache.clear()
    except (OSError, RedisConnectionError, RedisTimeoutError) as error:
        raise CacheNotEmptied(
            f"This database's cache could not be emptied ({type(error).__name__}: {error}). "
            "Until it is, it may serve pages and PDFs from before: run "
            "`manage.py clear_cache` once it answers."
        ) from error


class _Calls(threading.local):
    depth = 0  # inside a guarded operation (a backend's add calls its own has_key, set)
    unanswered = 0


_calls = _Calls()


def unanswered() -> int:
    """How many cache operations this thread has had unanswered so far."""
    return _calls.unanswered


@dataclass
class _Health:
    """What this process knows of one cache: since when to leave it alone, what was logged."""

    where: str
    resting_until: float = 0.0
    down: bool = False
    warned_at: float | None = None
    told_back: bool = True
    missed: int = 0

    def resting(self) -> bool:
        return self.down and time.monotonic() < self.resting_until

    def failed(self, error: BaseException) -> None:
        now = time.monotonic()
        self.down, self.resting_until = True, now + RETRY_SECONDS
        self.missed += 1
        if self.warned_at is not None and now - self.warned_at < LOG_EVERY_SECONDS:
            return
        if self.told_back:
            logger.warning(
                "The cache %s cannot be reached (%s: %s): pages are served without it and "
                "PDFs wait; asking again every %g s.",
                self.where,
                type(error).__name__,
                error,
                RETRY_SECONDS,
            )
        else:
            logger.warning(
                "The cache %s still cannot be reached (%s: %s): %d operations unanswered "
                "since the last line.",
                self.where,
                type(error).__name__,
                error,
                self.missed,
            )
        self.warned_at, self.told_back, self.missed = now, False, 0

    def answered(self) -> None:
        if not self.down:
            return
        self.down = False
        if not self.told_back:
            logger.info("The cache %s answers again.", self.where)
            self.told_back = True


_health: dict[str, _Health] = {}


def _health_of(where: str) -> _Health:
    return _health.setdefault(where, _Health(where))


class _Resilient(BaseCache):
    """Every operation of a backend guarded: ``errors`` become the answer of an empty cache.

    Mixed in before one of Django's backends. Only the outermost call is guarded, so a
    backend's own ``add`` (``has_key``, then ``set``) fails as a whole: False, never True
    for an entry that was not written.
    """

    errors: ClassVar[tuple[type[Exception], ...]] = ()
    where = ""

    def _guarded(self, operation: Callable[[], T], fallback: T) -> T:
        if _calls.depth:
            return operation()
        health = _health_of(self.where)
        if health.resting():
            health.missed += 1
            _calls.unanswered += 1
            return fallback
        _calls.depth += 1
        try:
            result = operation()
        except self.errors as error:
            _calls.unanswered += 1
            health.failed(error)
            return fallback
        finally:
            _calls.depth -= 1
        health.answered()
        return result

    def add(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        add = super().add
        return self._guarded(lambda: add(key, value, timeout, version), False)

    def get(self, key: Any, default: Any | None = None, version: int | None = None) -> Any:
        get = super().get
        return self._guarded(lambda: get(key, default, version), default)

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        set_ = super().set
        self._guarded(lambda: set_(key, value, timeout, version), None)

    def touch(
        self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        touch = super().touch
        return self._guarded(lambda: touch(key, timeout, version), False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        delete = super().delete
        return self._guarded(lambda: delete(key, version), False)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        get_many = super().get_many
        keys = list(keys)
        return self._guarded(lambda: get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        has_key = super().has_key
        return self._guarded(lambda: has_key(key, version), False)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        """As for a missing key (ValueError) when the cache cannot be reached."""
        incr = super().incr
        value: int | None = self._guarded(lambda: incr(key, delta, version), None)
        if value is None:
            raise ValueError(f"Key {key!r} not found (the cache {self.where} is unreachable).")
        return value

    def set_many(
        self,
        data: dict[Any, Any],
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> list[Any]:
        set_many = super().set_many
        return self._guarded(lambda: set_many(data, timeout, version), list(data))

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        delete_many = super().delete_many
        keys = list(keys)
        self._guarded(lambda: delete_many(keys, version), None)

    def close(self, **kwargs: Any) -> None:
        close = super().close
        self._guarded(lambda: close(**kwargs), None)


def _without_password(location: str) -> str:
    parts = urlsplit(location)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return parts._replace(netloc=netloc).geturl()


class ResilientFileCache(_Resilient, FileBasedCache):
    """Django's file cache; a folder that cannot be read or written is an empty cache.

    Its ``LOCATION`` is the partition's own folder, so ``clear()`` empties that alone.
    """

    errors = (OSError,)

    def __init__(self, dir: str, params: dict[str, Any]) -> None:
        self.where = f"file://{os.path.abspath(dir)}"
        # A folder that cannot be made now is not an error yet: every write tries again.
        with contextlib.suppress(OSError):
            super().__init__(dir, params)


class ResilientRedisCache(_Resilient, RedisCache):
    """Django's Redis cache; a Redis that does not answer is an empty cache.

    ``clear()`` deletes the keys of this cache's prefix (the partition's), never the
    whole Redis database another site or a restore drill may share.
    """

    errors = (RedisConnectionError, RedisTimeoutError)

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        if not self.key_prefix:
            raise ImproperlyConfigured("A Redis cache here needs a key prefix (its partition).")
        servers = [server] if isinstance(server, str) else server
        self.where = ", ".join(_without_password(location) for location in servers)

    def clear(self) -> None:
        client = self._cache.get_client(None, write=True)
        pattern = "".join(f"\\{c}" if c in "*?[]\\" else c for c in self.key_prefix) + ":*"
        batch: list[bytes] = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) == 500:
                client.delete(*batch)
                batch.clear()
        if batch:
            client.delete(*batch)
