"""The review of a finished game on a phone (360 px): a whole game's review, every
decision one line, in at most eight screens of 360 x 800 before anything is opened (issue
33 §4); a line opens from the keyboard for its detail, a discard's choice made and the
best side by side in real card faces; the links that list only one player's mistakes
work with and without JavaScript; and nothing is wider than the window."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from play.models import GameReview, OnlineGame
from play.online import challenge_accept, challenge_create
from tests.demo_pages import log_in
from tests.play.factories import PracticeGameFactory, owner_of
from tests.play.test_championship import play_to_the_end
from tests.play.test_review_online import member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
SCREEN = {"width": 360, "height": 800}
SCREENS = 8
"""A whole game's review, every decision listed, fits this many screens before anything
is opened (issue 33 §4)."""


def game_between_members(*, self_count: bool) -> OnlineGame:
    """A full game between two members (one with a long name), both seats' decisions on
    its review: 75 decisions in 11 deals, and with the players counting themselves 105
    (every count a decision too), the longest review a game of this seed gives. Both play
    as the standard computer, so that each makes mistakes (the expert makes none)."""
    anna, bertil = member("anna", "Anna Ek"), member("bertil", "Bertil Åström-Lindqvist")
    challenge = challenge_create(challenger=anna, challenged=bertil, self_count=self_count)
    accepted = challenge_accept(pk=challenge.pk, member=bertil, seed=4)
    return play_to_the_end(accepted, levels=("standard", "standard"))


def open_review(page: Any, game: OnlineGame, language: str, query: str = "") -> None:
    page.context.add_cookies([{"name": "django_language", "value": language, "url": page.base}])
    page.goto(page.base + reverse("play:online_review", args=[game.pk]) + query)


@pytest.mark.parametrize("self_count", [False, True], ids=["site-counted", "self-counted"])
def test_a_whole_games_review_fits_eight_phone_screens_before_anything_is_opened(
    page: Any, self_count: bool
) -> None:
    game = game_between_members(self_count=self_count)
    decisions = len(GameReview.objects.get(online=game).review["decisions"])
    assert decisions >= (100 if self_count else 70)  # a long game, both players' decisions
    page.set_viewport_size(SCREEN)
    log_in(page, "anna")
    for language in ("sv", "en"):
        open_review(page, game, language)
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= SCREENS * SCREEN["height"], (language, height)
        assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]
        listed = page.locator(".review-deals details.review-line")
        assert listed.count() == decisions  # every decision is there, each one line
        assert page.locator("details.review-line[open]").count() == 0
        lines = page.evaluate(
            "[...document.querySelectorAll('.review-line > summary')]"
            ".map(line => Math.round(line.getBoundingClientRect().height))"
        )
        assert set(lines) == {44}, (language, sorted(set(lines)))  # one line, a fingertip
        # Opened, every line's detail fits the window's width too.
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        assert page.evaluate("document.documentElement.scrollWidth") <= SCREEN["width"]


def test_a_line_opens_from_the_keyboard_and_shows_its_detail(page: Any) -> None:
    game = game_between_members(self_count=False)
    page.set_viewport_size(SCREEN)
    log_in(page, "anna")
    open_review(page, game, "en")
    line = page.locator(".review-deals details.review-line").first
    summary = line.locator("summary").first
    detail = line.locator(".review-decision")
    assert not detail.is_visible()
    summary.focus()
    page.keyboard.press("Enter")
    assert line.evaluate("line => line.open")
    assert detail.is_visible()
    assert detail.locator(".review-choice.chosen .card").count() == 2  # the first: a discard
    outline = summary.evaluate("line => getComputedStyle(line).outlineStyle")
    assert outline != "none"  # where the keyboard is, visibly
    page.keyboard.press("Space")
    assert not line.evaluate("line => line.open")


@pytest.mark.parametrize("javascript", [False, True], ids=["without-js", "with-htmx"])
def test_only_my_mistakes_lists_the_readers_own_with_or_without_javascript(
    browser: Any, live_server: Any, javascript: bool
) -> None:
    game = game_between_members(self_count=False)
    review = GameReview.objects.get(online=game).review["decisions"]
    seat = 0  # the reader's: Anna Ek, who challenged
    mine = [d for d in review if d["marked"] and d["seat"] == seat]
    context = browser.new_context(locale="sv-SE", java_script_enabled=javascript, viewport=SCREEN)
    page = context.new_page()
    page.base = live_server.url
    assert game.seat_0.get_username() == "anna"
    log_in(page, "anna")
    open_review(page, game, "sv")
    url = reverse("play:online_review", args=[game.pk])
    page.get_by_role("link", name="Bara mina misstag").click()
    page.wait_for_url(f"**{url}?only=mistakes")
    listed = page.locator(".review-deals details.review-line")
    assert listed.count() == len(mine) > 0
    name = page.locator(".review-totals thead th").nth(seat).inner_text()
    for index in range(listed.count()):
        line = listed.nth(index)
        assert "marked" in (line.get_attribute("class") or "")
        assert name in line.locator(".review-line-title").inner_text()
    current = page.locator(".review-shown [aria-current=page]")
    assert current.inner_text() == "Bara mina misstag"
    if javascript:
        assert page.evaluate("document.activeElement.id") == "shown-mistakes-0"  # still there
    page.get_by_role("link", name="Alla beslut").click()
    page.wait_for_url(f"**{url}")
    assert page.locator(".review-deals details.review-line").count() == len(review)
    context.close()


def test_a_discard_shows_both_choices_side_by_side_on_a_phone(page: Any) -> None:
    practice = PracticeGameFactory.create(finished=True)  # its review queued as it ended
    page.set_viewport_size(PHONE)
    log_in(page, owner_of(practice).get_username())
    page.goto(page.base + reverse("play:review", args=[practice.pk]))
    line = page.locator(".review-deals details.review-line:has(.review-options)").first
    line.locator("summary").first.click()  # the line opens for its detail
    discard = line.locator(".review-decision")
    chosen = discard.locator(".review-choice.chosen")
    best = discard.locator(".review-choice.best")
    assert chosen.locator(".card").count() == 2
    assert best.locator(".card").count() == 2
    assert discard.locator(".review-choice.chosen .card").first.get_attribute("aria-label")
    left, right = chosen.bounding_box(), best.bounding_box()
    assert left is not None
    assert right is not None
    assert abs(left["y"] - right["y"]) < 2  # on one line
    assert left["x"] + left["width"] <= right["x"]  # the one made, then the best
    assert right["x"] + right["width"] <= PHONE["width"]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    discard.locator(".review-options summary").click()  # the 15 options scroll in their box
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_review_has_no_serious_accessibility_violation(page: Any) -> None:
    """axe-core (tests/test_browser_accessibility.py) on the review: only the reader's
    mistakes in Swedish, every decision in English, and every line opened: labels, names,
    contrast, scrolling boxes a keyboard can reach."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    from tests.test_browser_accessibility import violations

    axe = Axe()
    game = game_between_members(self_count=True)
    page.set_viewport_size(SCREEN)
    log_in(page, "anna")
    found: list[str] = []
    # Each language once, each list once: the markup is the same in both languages, and
    # axe over the whole review costs seconds a run.
    for language, query in (("sv", "?only=mistakes"), ("en", "")):
        open_review(page, game, language, query)
        found += [f"{language} {query}: {v}" for v in violations(page, axe)]
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    found += [f"en, every line opened: {v}" for v in violations(page, axe)]
    assert not found, "\n".join(found)
