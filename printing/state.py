"""What the cache knows of one document version: rendered, waiting for a worker, or failed.

At a document's key (``cache.cache_key``) the worker keeps the ``Rendered`` PDF. Beside
it, two markers: *queued* is added (atomically: ``cache.add``) by the one request that
enqueues the render, so every other reader of that document finds it and enqueues
nothing; *failed* is left by a render that raised, so readers are told, not kept waiting.
The worker clears *queued* when it is done; if a worker dies mid-render the marker runs
out after ``QUEUED_SECONDS`` and the next reader enqueues it again.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache

# How long a rendered PDF is kept (a new version makes it unreachable long before).
KEEP_SECONDS = 24 * 60 * 60
# How long a queued render keeps others from queueing it again (a render takes seconds,
# a queue of them after a burst a minute or two).
QUEUED_SECONDS = 5 * 60
# How long readers are told a render failed before one of them may try again by itself.
FAILED_SECONDS = 10 * 60


@dataclass(frozen=True)
class Rendered:
    filename: str
    content: bytes


def queued_key(key: str) -> str:
    return f"{key}:queued"


def failed_key(key: str) -> str:
    return f"{key}:failed"


def rendered(key: str) -> Rendered | None:
    value = cache.get(key)
    return value if isinstance(value, Rendered) else None


def mark_queued(key: str) -> bool:
    """Mark the render as queued; False if someone already had (then enqueue nothing)."""
    added: bool = cache.add(queued_key(key), True, QUEUED_SECONDS)
    return added


def is_failed(key: str) -> bool:
    return cache.get(failed_key(key)) is not None


def forget_failure(key: str) -> None:
    cache.delete(failed_key(key))


def render_finished(key: str) -> None:
    cache.delete_many([queued_key(key), failed_key(key)])


def render_failed(key: str) -> None:
    cache.set(failed_key(key), True, FAILED_SECONDS)
    cache.delete(queued_key(key))
