"""A game's moves pushed to the pages that watch it, across servers, through Redis.

Terms: a game's *news* is its number and the *version* its row has just been saved at
(``play.online._save``); it is *published* on the game's *channel* in Redis once the
transaction that saved it has committed (never for a change rolled back), and every
server's open *event streams* of that game (``play.online_views.events``, server-sent
events) pass it on to their pages, which then fetch the table once. Push is *available*
when a Redis is named (``settings.PUSH_REDIS_URL``: the cache's by default) and the
request is served by the ASGI server (an event stream holds a connection, not a worker);
otherwise the events' address answers 204 and the page polls, as it did before.

A Redis that cannot be reached never fails a move: the publish is logged and dropped
(the pages' streams broke with the same Redis, so they poll meanwhile), and for a second
after a failure a process does not try again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import redis
import redis.asyncio
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection, transaction
from django.http import HttpRequest

from core.cache import database_partition

log = logging.getLogger(__name__)

KEEP_ALIVE_SECONDS = 15.0
"""How often an idle stream sends a comment: proxies close a connection silent for a
minute, and a server learns that a reader has gone when it writes."""
RETRY_MS = 2000
"""How long a browser waits before it opens a broken stream again (the ``retry`` field)."""
REST_SECONDS = 1.0
"""After a failed publish, a process leaves Redis alone this long."""
SUBSCRIBE_TIMEOUT = 2.0
"""Seconds a stream waits to connect to Redis before the page is told to poll."""
_TIMEOUTS: dict[str, Any] = {"socket_connect_timeout": 0.25, "socket_timeout": 1.0}


def channel(pk: int) -> str:
    """Game ``pk``'s channel: named after the site's database as the cache's keys are, so
    two sites (a restore drill beside the site) on one Redis never hear each other."""
    return f"club:{database_partition(settings.DATABASES['default'])}:online:{pk}"


def configured() -> bool:
    """Whether the site has a Redis to push through (``PUSH_REDIS_URL``)."""
    return bool(getattr(settings, "PUSH_REDIS_URL", None))


def available(request: HttpRequest) -> bool:
    """Whether ``request`` may be answered with an event stream: a Redis is named and the
    ASGI server serves it (under WSGI a stream would hold a worker for as long as it is open)."""
    return configured() and isinstance(request, ASGIRequest)


class _Publisher:
    """One process's connection to the push Redis, resting a second after a failure."""

    def __init__(self) -> None:
        self.client: redis.Redis | None = None
        self.url = ""
        self.resting_until = 0.0

    def publish(self, pk: int, version: int) -> None:
        url = str(settings.PUSH_REDIS_URL)
        if time.monotonic() < self.resting_until:
            return
        if self.client is None or self.url != url:
            self.client, self.url = redis.Redis.from_url(url, **_TIMEOUTS), url
        try:
            self.client.publish(channel(pk), str(version))
        except redis.RedisError as error:
            self.resting_until = time.monotonic() + REST_SECONDS
            log.warning("Game %s's move was not pushed (the pages poll): %s", pk, error)


_publisher = _Publisher()


def publish_on_commit(pk: int, version: int) -> None:
    """Publish game ``pk`` at ``version`` once the current transaction commits (at once
    outside one); nothing when it rolls back, or when push is not configured."""
    if configured():
        transaction.on_commit(lambda: _publisher.publish(pk, version))


class Subscription:
    """A stream's subscription to game ``pk``'s channel (``redis.asyncio``)."""

    def __init__(self, pk: int) -> None:
        self.pk = pk
        # No socket timeout: a subscriber's connection is quiet until a move. Two seconds
        # to connect (not a move's quarter): a busy machine's arrivals are slow to
        # connect, and a stream given up costs a poll a second for the page's life.
        self.client = redis.asyncio.Redis.from_url(
            str(settings.PUSH_REDIS_URL), socket_connect_timeout=SUBSCRIBE_TIMEOUT
        )
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)

    async def open(self) -> bool:
        """Subscribe; False (and closed) when Redis cannot be reached."""
        try:
            await self.pubsub.subscribe(channel(self.pk))
        except (redis.RedisError, OSError) as error:
            log.warning(
                "Game %s's event stream could not subscribe (the page polls): %s", self.pk, error
            )
            await self.close()
            return False
        return True

    async def news(self, wait: float) -> int | None:
        """The next version published within ``wait`` seconds, else None."""
        deadline = time.monotonic() + wait
        while (left := deadline - time.monotonic()) > 0:
            # The subscription's own confirmation is read as a None, at once.
            message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=left)
            if message is not None:
                return int(message["data"])
        return None

    async def close(self) -> None:
        await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        await self.client.aclose()


async def subscribe(pk: int) -> Subscription | None:
    """A subscription to game ``pk``'s news, or None when Redis cannot be reached."""
    subscription = Subscription(pk)
    return subscription if await subscription.open() else None


async def stream(
    subscription: Subscription, version: int, *, keep_alive: float = KEEP_ALIVE_SECONDS
) -> AsyncIterator[str]:
    """The event stream of a game read at ``version`` after ``subscription`` opened: the
    version now (a move made while the page was on its way is not missed), then each
    newer one, a comment when idle; it ends when Redis goes (the browser opens it again,
    is answered 204 and polls)."""
    try:
        yield f"retry: {RETRY_MS}\n\n"
        yield _event(version)
        while True:
            try:
                news = await subscription.news(keep_alive)
            except (redis.RedisError, OSError) as error:
                log.warning("An event stream of game %s ended: %s", subscription.pk, error)
                return
            if news is None:
                yield ": still here\n\n"
            elif news > version:
                version = news
                yield _event(version)
    finally:
        await subscription.close()


def _event(version: int) -> str:
    return f"event: version\ndata: {version}\n\n"


def wait_for_news(pk: int, version: int, seconds: float, read: Callable[[], int | None]) -> None:
    """Block up to ``seconds`` until game ``pk`` moves past ``version`` (the long poll,
    candidate B of docs/benchmarks.md): subscribed first, then ``read`` the version again,
    so a move saved meanwhile is not missed. Returns at once when Redis cannot be reached."""
    client = redis.Redis.from_url(str(settings.PUSH_REDIS_URL), socket_connect_timeout=0.25)
    pubsub = client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
    try:
        pubsub.subscribe(channel(pk))
        now = read()
        if not connection.in_atomic_block:  # a waiting thread holds no connection
            connection.close()
        deadline = time.monotonic() + seconds
        while now is not None and now <= version and time.monotonic() < deadline:
            message = pubsub.get_message(
                ignore_subscribe_messages=True, timeout=max(deadline - time.monotonic(), 0.01)
            )
            if message is not None:
                now = int(message["data"])
    except (redis.RedisError, OSError) as error:
        log.warning("A long poll of game %s ended: %s", pk, error)
    finally:
        pubsub.close()
        client.close()
