"""Two members' pages in Chromium playing a game on the site: a tab logged in as a member,
and one decision taken by clicks as a player would (shared by the online browser tests)."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import User

from play.models import OnlineGame
from scoring.rules.events import Phase
from tests.demo_pages import log_in

PASSWORD = "secret-pass-121"  # the user factory's


def tab(browser: Any, base: str, user: User) -> Any:
    context = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844})
    context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.base = base
    # What the page posted and what came back, named when a click is lost.
    page.posts = []
    page.on("request", lambda r: r.method == "POST" and page.posts.append(f"{r.url} sent"))
    page.on(
        "response",
        lambda r: r.request.method == "POST" and page.posts.append(f"{r.url} {r.status}"),
    )
    page.on(
        "requestfailed",
        lambda r: r.method == "POST" and page.posts.append(f"{r.url} failed: {r.failure}"),
    )
    log_in(page, user.get_username(), PASSWORD)
    return page


def take_a_decision(page: Any, game: OnlineGame, phase: Phase) -> OnlineGame:
    """Lay away the first two cards, lay the first card that may be laid, or deal the next
    game, once the page shows the game as it stands (its poll brings the other's moves);
    then the game after the decision.

    A click that leaves the game unchanged fails the test, naming what the page shows and
    what it posted (once a click in about twenty was lost so: a poll answered after one's
    own move took the chosen cards' boxes away: tests/test_browser_online.py).
    """
    from playwright.sync_api import expect

    board = page.locator("#game")
    expect(board).to_have_attribute("data-version", str(game.version), timeout=15_000)
    if phase is Phase.DONE:
        page.get_by_role("button", name="Next game (the loser deals)").click()
    elif phase is Phase.DISCARD:
        for pick in page.locator(".discard-form .card-pick").all()[:2]:
            box = pick.locator("input")
            if not box.is_checked():  # a click on its card would let it go again
                pick.click()
            expect(box).to_be_checked()
        page.get_by_role("button", name="Lay away to the crib").click()
    else:
        page.locator(".play-form .card-button:not([disabled])").first.click()
    for _ in range(800):
        taken = OnlineGame.objects.get(pk=game.pk)
        if taken.version > game.version:
            return taken
        time.sleep(0.025)
    error = page.locator(".play-error")
    said = error.inner_text() if error.count() else "no message"
    raise AssertionError(
        f"{phase.value} at version {game.version} was not taken: {said}; the page shows "
        f"version {board.get_attribute('data-version')}; its posts: {page.posts[-3:]}"
    )
