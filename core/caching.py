"""Work kept in Django's cache and done once, however many readers ask at the same moment.

When a tournament's results version moves, every reader polling its pages asks for the
new version within a second or two. Without care each of them finds the cache empty and
renders the same table at once: on a 2-core machine a dozen renders of a
128-table round queue behind each other (docs/benchmarks.md, "Venue"). With
:func:`computed_once` the first reader takes a short lock in the cache and renders; the
others wait for its result and read it.

The lock is only a courtesy between readers: if its holder dies or is slower than the
wait, the others compute for themselves. What is kept is never different for waiting.
While the cache cannot be reached (``core.cache``) nobody can hold a lock, so nobody
waits: each reader computes for itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import BaseCache
from django.core.cache import cache as default_cache

from core.cache import unanswered

T = TypeVar("T")

# How long the first reader may hold the lock before it is taken for dead.
LOCK_SECONDS = 60
# The first look again is soon (a table renders in tens of milliseconds), later ones
# further apart (a PDF takes a second or two).
FIRST_LOOK = 0.005
LAST_LOOK = 0.1


def lock_key(key: str) -> str:
    return f"{key}:lock"


def _awaited(cache: BaseCache, key: str, wait: float) -> Any:
    """Someone else's value for ``key``, looked for while their lock lasts (at most ``wait`` s).

    The value is whatever that reader's ``compute`` kept there (or None): the cache is untyped.
    """
    deadline = time.monotonic() + wait
    pause = FIRST_LOOK
    while time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(pause * 2, LAST_LOOK)
        value = cache.get(key)
        if value is not None or cache.get(lock_key(key)) is None:
            return value
    return None


def computed_once(
    key: str,
    compute: Callable[[], T | None],
    *,
    timeout: float,
    wait: float,
    cache: BaseCache = default_cache,
) -> T | None:
    """The value kept at ``key``; if there is none, ``compute()``'s, kept for ``timeout`` s.

    Readers who find no value while another is computing it wait up to ``wait`` seconds
    for that one. ``compute`` may answer None: nothing is then kept (the next reader tries
    again) and None is returned.
    """
    value: T | None = cache.get(key)
    if value is not None:
        return value
    before = unanswered()
    locked = cache.add(lock_key(key), True, LOCK_SECONDS)
    if not locked and unanswered() == before:
        value = _awaited(cache, key, wait)
        if value is not None:
            return value
    try:
        value = compute()
        if value is not None:
            cache.set(key, value, timeout)
        return value
    finally:
        if locked:
            cache.delete(lock_key(key))
