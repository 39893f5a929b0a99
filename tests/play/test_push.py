"""A game's moves pushed (play.push): published once committed and never when rolled back,
a Redis that is down never failing a move, and the event stream's rule of who may open it
(a stranger to a private game: 404; push not available: 204, and the page polls)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from django.db import transaction
from django.test import AsyncClient, Client

from play import push
from play.models import OnlineGame
from play.online import challenge_accept, challenge_create, load_online, online_decide
from play.online_selectors import online_etag
from play.services import stand_in_decision
from scoring.players.strategy import ComputerPlayer
from tests.conftest import RedisServer
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.django_db]
T = TypeVar("T")


def member(username: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=username.title(), club="Umeå")
    return user


@pytest.fixture(autouse=True)
def _fresh_publisher(monkeypatch: pytest.MonkeyPatch) -> None:
    """No rest left over from another test's Redis that was down."""
    monkeypatch.setattr(push, "_publisher", push._Publisher())


@pytest.fixture
def game() -> OnlineGame:
    anna, bertil = member("anna"), member("bertil")
    challenge = challenge_create(challenger=anna, challenged=bertil)
    return challenge_accept(pk=challenge.pk, member=bertil, seed=5)


def a_move(game: OnlineGame) -> OnlineGame:
    """The decision of a seat the game waits for, as a computer would take it."""
    match = load_online(game)
    seat = min(match.game.awaiting)
    decision = stand_in_decision(match, ComputerPlayer("standard", seat), seat)
    player = game.seat_0 if seat == 0 else game.pair[1]
    return online_decide(pk=game.pk, member=player, moves=game.moves_of(seat), decision=decision)


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[tuple[int, int]]:
    settings.PUSH_REDIS_URL = "redis://127.0.0.1:1/0"
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(push._publisher, "publish", lambda pk, version: sent.append((pk, version)))
    return sent


def test_a_move_is_published_once_committed_with_its_version(
    game: OnlineGame, published: list[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        moved = a_move(game)
        assert published == []  # not before the commit
    for callback in callbacks:
        callback()
    assert published == [(game.pk, moved.version)]
    assert moved.version == game.version + 1


def test_a_move_rolled_back_is_never_published(
    game: OnlineGame, published: list[tuple[int, int]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():
                a_move(game)
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
    assert published == []
    assert OnlineGame.objects.get(pk=game.pk).version == game.version


def test_without_a_redis_nothing_is_published(
    game: OnlineGame, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PUSH_REDIS_URL = None
    with django_capture_on_commit_callbacks() as callbacks:
        a_move(game)
    assert callbacks == []


def test_a_redis_that_is_down_never_fails_a_move(
    game: OnlineGame,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    settings.PUSH_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    with django_capture_on_commit_callbacks(execute=True):
        moved = a_move(game)
    assert OnlineGame.objects.get(pk=game.pk).version == moved.version
    assert "was not pushed" in caplog.text


@pytest.mark.redis
def test_a_committed_move_reaches_a_subscriber_through_redis(
    game: OnlineGame,
    settings: Any,
    redis_server: RedisServer,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.PUSH_REDIS_URL = redis_server.url
    client = redis.Redis.from_url(redis_server.url)
    listener = client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
    listener.subscribe(push.channel(game.pk))
    with django_capture_on_commit_callbacks(execute=True):
        moved = a_move(game)
    message = None
    for _ in range(50):  # the subscription's own confirmation comes first, as a None
        message = message or listener.get_message(timeout=0.1)
    listener.close()
    assert message is not None
    assert int(message["data"]) == moved.version


def beside_the_loop(function: Callable[[], T]) -> T:
    """``function()`` in a thread of its own: a browser test run before in this process
    leaves Playwright's event loop on the main thread, where Django's ``async_to_sync``
    (the async view under the test client) refuses to run. Its tests commit their rows
    (``transaction=True``), so the thread's own connection sees them."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(function).result()


ACROSS_THREADS = pytest.mark.django_db(transaction=True)


def logged_in(user: User, client: Client | AsyncClient) -> Any:
    client.force_login(user)
    return client


@ACROSS_THREADS
def test_a_stranger_cannot_open_a_private_games_stream(game: OnlineGame) -> None:
    stranger = logged_in(member("cecilia"), Client())
    url = f"/play/online/{game.pk}/events/"
    assert beside_the_loop(lambda: stranger.get(url).status_code) == 404
    assert beside_the_loop(lambda: Client().get(url).status_code) == 404


@ACROSS_THREADS
def test_without_push_a_player_is_answered_204_and_polls(game: OnlineGame, settings: Any) -> None:
    settings.PUSH_REDIS_URL = None
    player = logged_in(game.seat_0, Client())
    assert beside_the_loop(lambda: player.get(f"/play/online/{game.pk}/events/").status_code) == 204
    page = player.get(f"/play/online/{game.pk}/").content.decode()
    assert "data-events" not in page
    assert 'hx-trigger="every ' in page


@ACROSS_THREADS
def test_under_wsgi_a_player_is_answered_204_even_with_a_redis(
    game: OnlineGame, settings: Any
) -> None:
    """A stream would hold a sync worker as long as it is open: the page polls instead."""
    settings.PUSH_REDIS_URL = "redis://127.0.0.1:1/0"
    player = logged_in(game.seat_0, Client())
    assert beside_the_loop(lambda: player.get(f"/play/online/{game.pk}/events/").status_code) == 204
    page = player.get(f"/play/online/{game.pk}/").content.decode()
    assert f'data-events="/play/online/{game.pk}/events/"' in page
    assert 'hx-trigger="refresh"' in page


async def _chunks(response: Any) -> AsyncGenerator[str]:
    async for chunk in response.streaming_content:
        yield chunk.decode() if isinstance(chunk, bytes) else str(chunk)


@pytest.mark.redis
@ACROSS_THREADS
def test_under_asgi_a_player_gets_the_version_now_then_each_newer_one(
    game: OnlineGame, settings: Any, redis_server: RedisServer
) -> None:
    settings.PUSH_REDIS_URL = redis_server.url

    async def follow() -> list[str]:
        client = AsyncClient()
        await sync_to_async(client.force_login)(game.pair[1])
        response = await client.get(f"/play/online/{game.pk}/events/")
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        chunks = _chunks(response)
        got = [await anext(chunks), await anext(chunks)]
        push._Publisher().publish(game.pk, game.version)  # not newer: not passed on
        push._Publisher().publish(game.pk, game.version + 1)
        got.append(await asyncio.wait_for(anext(chunks), 5))
        await chunks.aclose()
        return got

    assert beside_the_loop(async_to_sync(follow)) == [
        f"retry: {push.RETRY_MS}\n\n",
        f"event: version\ndata: {game.version}\n\n",
        f"event: version\ndata: {game.version + 1}\n\n",
    ]


@pytest.mark.redis
@ACROSS_THREADS
def test_under_asgi_a_stranger_gets_404_and_a_spectator_of_no_match_too(
    game: OnlineGame, settings: Any, redis_server: RedisServer
) -> None:
    settings.PUSH_REDIS_URL = redis_server.url

    async def statuses() -> list[int]:
        stranger = AsyncClient()
        await sync_to_async(stranger.force_login)(await sync_to_async(member)("cecilia"))
        anonymous = AsyncClient()
        return [
            (await stranger.get(f"/play/online/{game.pk}/events/")).status_code,
            (await anonymous.get(f"/play/online/{game.pk}/events/")).status_code,
        ]

    assert beside_the_loop(async_to_sync(statuses)) == [404, 404]


@ACROSS_THREADS
def test_under_asgi_with_redis_down_a_player_is_answered_204(
    game: OnlineGame, settings: Any
) -> None:
    settings.PUSH_REDIS_URL = "redis://127.0.0.1:1/0"

    async def status() -> int:
        client = AsyncClient()
        await sync_to_async(client.force_login)(game.seat_0)
        return (await client.get(f"/play/online/{game.pk}/events/")).status_code

    assert beside_the_loop(async_to_sync(status)) == 204


def test_the_site_holds_no_long_poll(
    game: OnlineGame, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``table?wait=`` is the benchmark's candidate B only: on the site an unchanged table
    is a 304 at once, whoever asks for a wait (a held request would hold a thread)."""
    settings.PUSH_REDIS_URL = "redis://127.0.0.1:1/0"
    waited: list[int] = []
    client = Client()
    client.force_login(game.seat_0)
    address = f"/play/online/{game.pk}/table/"
    client.cookies["django_language"] = "sv"
    etag = online_etag(game.pk, game.version, game.seat_0, variant="sv|0")
    monkeypatch.setattr(push, "wait_for_news", lambda *args, **kwargs: waited.append(1))
    answer = client.get(f"{address}?wait=25", headers={"If-None-Match": etag, "HX-Request": "true"})
    assert answer.status_code == 304
    assert waited == []
