"""Two members' pages in Chromium playing a game on the site: a tab logged in as a member,
and one decision taken by clicks as a player would (shared by the online browser tests)."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.models import User

from play.models import OnlineGame
from scoring.rules.events import Phase
from scoring.rules.match import Match
from tests.demo_pages import log_in


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
    log_in(page, user.get_username())
    return page


CLICKED_FROM = 100
"""The score from which a game by clicks is played by clicks again, to its end: the deals
after the first and before that are played by the services (``played_by_clicks``)."""


def played_by_clicks(match: Match) -> bool:
    """Whether the browser tests play this decision by clicks: in the game's first deal
    and from a score of ``CLICKED_FROM`` on; the deals between are the same pages, the
    same clicks and the same polls (docs/benchmarks.md, "Fast feedback")."""
    return match.game.deal_number == 1 or max(match.game.scores) >= CLICKED_FROM


def decided_by_the_services(game: OnlineGame, match: Match, users: dict[int, User]) -> OnlineGame:
    """The decision of the seat to move, as a computer would take it, posted by the
    services for its member (the pages learn it by their polls, as the other's clicks)."""
    from play.online import online_decide
    from play.services import stand_in_decision
    from scoring.players.strategy import ComputerPlayer

    seat = match.game.to_move
    assert seat is not None
    decision = stand_in_decision(match, ComputerPlayer("standard", seat), seat)
    return online_decide(
        pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
    )


def take_a_decision(
    page: Any, game: OnlineGame, phase: Phase, lost: list[str] | None = None
) -> OnlineGame:
    """Lay away the first two cards, lay the first card that may be laid, or deal the next
    game, once the page shows the game as it stands (its poll brings the other's moves);
    then the game after the decision.

    A click that leaves the game unchanged for 20 s is noted in ``lost`` (what the page
    shows and what it posted) and made once more, as a player would; without ``lost`` it
    fails the test. One cause is found and fixed (a poll answered after one's own move
    took the chosen cards' boxes away: tests/test_browser_online.py); another, a discard
    posted and answered with the game unchanged and no message, is not yet found.
    """
    from playwright.sync_api import expect

    board = page.locator("#game")
    expect(board).to_have_attribute("data-version", str(game.version), timeout=15_000)
    for attempt in range(2):
        if phase is Phase.DONE:
            page.get_by_role("button", name="Next game (the loser deals)").click()
        elif phase is Phase.DISCARD:
            for pick in page.locator(".discard-form .card-pick").all()[:2]:
                box = pick.locator("input")
                if not box.is_checked():  # a click on its card would let it go again
                    pick.click()
                try:
                    expect(box).to_be_checked(timeout=2_000)
                except AssertionError:
                    # A poll's answer drew the hand anew as the card was clicked: once more,
                    # as a player would (noted like a lost move).
                    if lost is not None:
                        lost.append(f"a click on a card was lost: {board.inner_text()[:300]}")
                    if not box.is_checked():
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
        what = (
            f"{phase.value} at version {game.version} (try {attempt + 1}): {said}; the page "
            f"shows version {board.get_attribute('data-version')}, "
            f"{page.locator('.turn').inner_text()!r}; its posts: {page.posts[-3:]}"
        )
        if lost is None:
            raise AssertionError(f"the decision was not taken: {what}")
        lost.append(what)
    raise AssertionError(f"the decision was not taken: {lost}")
