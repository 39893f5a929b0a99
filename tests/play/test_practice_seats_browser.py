"""In a real browser 360 pixels wide: a whole practice game of four, the player and a
computer partner against two computers, to 61, chosen on the start form and played with
htmx to its end; the page never scrolls sideways, axe-core finds nothing serious at the
start and at the end, and the console shows no error (the suite's ``_quiet_console`` fails
a browser test on any)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from play.models import PracticeGame
from play.services import HUMAN, load_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTH = 360


@pytest.fixture
def narrow(page: Any, settings: Any) -> Any:
    settings.PRACTICE_SEED_FIELD = True
    page.set_viewport_size({"width": WIDTH, "height": 780})
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": page.base}])
    return page


def version(page: Any) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings (as tests/test_browser_accessibility.py)."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    found = Axe().run(page).response["violations"]
    return [
        f"{rule['id']}: {node['target']}"
        for rule in found
        if rule["impact"] in ("serious", "critical")
        for node in rule["nodes"][:3]
    ]


def scrolls_sideways(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth > window.innerWidth"))


def lay_the_first_card(page: Any) -> None:
    """Lay away the first card (one at four), or lay the first card that may be laid."""
    from playwright.sync_api import expect

    before = version(page)
    phase = page.locator("#game").get_attribute("data-phase")
    if phase == "discard":
        expect(page.locator(".discard-one-form legend")).to_contain_text("Lay away one card")
        page.locator(".discard-one-form .card-button").first.click()
    else:
        assert phase == "play"
        page.locator(".play-form .card-button:not([disabled])").first.click()
    expect(page.locator("#game")).to_have_attribute("data-version", str(before + 1))


def test_a_whole_game_of_four_to_61_on_a_narrow_phone(narrow: Any) -> None:
    from playwright.sync_api import expect

    page = narrow
    page.goto(page.base + "/play/")
    page.get_by_label("Easy").check()
    page.get_by_label("Four: you and a computer partner against two computers").check()
    page.get_by_label("61 points").check()
    page.get_by_label("Seed (for development)").fill("20261128")
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    practice = PracticeGame.objects.latest("pk")
    assert (practice.seats, practice.target) == (4, 61)

    expect(page.locator(".seats .seat")).to_have_count(3)
    expect(page.locator(".board-legend")).to_contain_text("You and your partner")
    expect(page.locator(".board-legend")).to_contain_text("Left and Right")
    expect(page.locator(".finish-hole")).to_have_count(2)
    assert page.locator(".discard-one-form .card-button").count() == 5
    assert not scrolls_sideways(page)
    assert not serious_violations(page)

    lay_the_first_card(page)  # the first move told one by one, the pegs following
    page.emulate_media(reduced_motion="reduce")
    moves = 1
    while page.locator("#game").get_attribute("data-phase") != "done":
        if page.locator("#game").get_attribute("data-phase") == "play":
            expect(page.locator(".count strong")).to_be_visible()
        lay_the_first_card(page)
        moves += 1
        assert moves < 80
    assert not scrolls_sideways(page)

    practice.refresh_from_db()
    game = load_match(practice).game
    assert practice.finished
    assert game.winner is not None
    assert game.scores[game.winner] == 61
    for side in (0, 1):
        assert page.locator(f'[data-score-text="{side}"]').text_content() == str(game.scores[side])
        front = page.locator(f'[data-peg="{side}-front"]')
        assert front.get_attribute("data-score") == str(game.scores[side])
    ours = game.side_of(HUMAN) == game.winner
    heading = "You and your partner won!" if ours else "Left and Right won."
    expect(page.get_by_role("heading", level=2, name=heading)).to_be_visible()
    expect(page.locator(".result")).to_contain_text("Final score:")
    assert page.locator("#game").bounding_box()["width"] <= WIDTH
    assert not serious_violations(page)

    page.get_by_text(re.compile(r"^Game log")).click()
    expect(page.locator(".log-list .line-win")).to_contain_text(re.compile(r"win the game"))
    page.get_by_role("link", name="Replay this game").click()
    expect(page.get_by_text("Step 1 of")).to_be_visible()
    expect(page.locator(".replay-hands .table-spot")).to_have_count(6)  # four seats, crib, starter
    assert not scrolls_sideways(page)
