"""In Chromium, a move pushed (play.push): on the ASGI server with a Redis, a discard by
one player reaches the other player's page and a spectator's at once, each fetching the
table once, while the pages' poll is an hour; an idle game then costs no request. Where
push is not available (the WSGI server answers the stream 204) the page polls as before.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from play.championship import match_propose
from play.models import OnlineGame
from play.online import challenge_accept, load_online
from scoring.rules.events import Phase
from tests.conftest import RedisServer
from tests.online_play import decided_by_the_services, tab, take_a_decision
from tests.tournaments.conftest import account, make_tournament, seats
from tournaments.models import Match
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def asgi_site(redis_server: RedisServer, settings: Any) -> Iterator[str]:
    """The site on uvicorn (ASGI, as ``make serve`` serves it) in a thread of this process,
    over the test database, pushing through a Redis of its own; its address."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    settings.PUSH_REDIS_URL = redis_server.url
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        ASGIStaticFilesHandler(get_asgi_application()),
        host="127.0.0.1",
        port=port,
        lifespan="off",
        log_level="warning",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def championship_game() -> tuple[OnlineGame, dict[int, User]]:
    """A championship match played on the site (anyone may watch it), at its first deal."""
    tournament = make_tournament(2, swiss_rounds=1, best_of=1, is_championship=True)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    first, second = seats(Match.objects.get(round=round_))
    users = {0: account(first), 1: account(second)}
    proposal = match_propose(match=Match.objects.get(round=round_), member=users[0])
    game = challenge_accept(pk=proposal.pk, member=users[1], seed=7)
    return game, users


def tables_asked(page: Any) -> list[str]:
    """The table requests ``page`` makes from now on (its fetches and polls)."""
    asked: list[str] = []

    def note(request: Any) -> None:
        if "/table/" in request.url:
            asked.append(request.url)

    page.on("request", note)
    return asked


def test_a_move_reaches_the_other_player_and_a_spectator_pushed(
    browser: Any, asgi_site: str, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.ONLINE_POLL_MS = 3_600_000  # an hour: whatever arrives was pushed
    game, users = championship_game()
    pages = {seat: tab(browser, asgi_site, users[seat]) for seat in (0, 1)}
    spectator = browser.new_context(locale="en-GB").new_page()
    readers = [*pages.values(), spectator]
    for page in readers:
        with page.expect_response(lambda response: "/events/" in response.url) as opened:
            page.goto(f"{asgi_site}/play/online/{game.pk}/")
        assert opened.value.status == 200
        assert opened.value.headers["content-type"].startswith("text/event-stream")
    asked = {id(page): tables_asked(page) for page in readers}

    moved = take_a_decision(pages[0], game, Phase.DISCARD)
    for page in (pages[1], spectator):
        expect(page.locator("#game")).to_have_attribute("data-version", str(moved.version))
    # The mover's answer brought its table: no fetch; each other reader fetched it once.
    assert [len(asked[id(page)]) for page in readers] == [0, 1, 1]

    spectator.wait_for_timeout(3000)  # the game idle (and Playwright's events delivered)
    for page in readers:
        page.evaluate("1")  # each page's events up to now delivered
    assert [len(asked[id(page)]) for page in readers] == [0, 1, 1]
    for page in readers:
        page.context.close()


def test_where_push_is_not_available_the_page_polls(
    browser: Any, live_server: Any, settings: Any
) -> None:
    """The WSGI server (runserver's, a sync gunicorn's) answers the stream 204: the
    browser's EventSource stops, and the page polls every ONLINE_POLL_MS."""
    from playwright.sync_api import expect

    settings.PUSH_REDIS_URL = "redis://127.0.0.1:1/0"  # named, but no stream under WSGI
    settings.ONLINE_POLL_MS = 300
    game, users = championship_game()
    page = tab(browser, live_server.url, users[1])
    with page.expect_response(lambda response: "/events/" in response.url) as opened:
        page.goto(f"{live_server.url}/play/online/{game.pk}/")
    assert opened.value.status == 204
    asked = tables_asked(page)
    moved = decided_by_the_services(game, load_online(game), users)
    expect(page.locator("#game")).to_have_attribute("data-version", str(moved.version))
    page.wait_for_timeout(1000)
    assert len(asked) >= 3  # polled, every 300 ms
    page.context.close()
