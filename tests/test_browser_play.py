"""In a real browser on a phone-sized screen: a whole practice game to 121 with a fixed
seed, a reload in the middle, and a crafted post that is refused and changes nothing."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest

from play.models import PracticeGame
from play.services import HUMAN, load_match
from scoring.rules.cards import DECK

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def phone(page: Any, settings: Any) -> Any:
    settings.PRACTICE_SEED_FIELD = True
    page.set_viewport_size({"width": 375, "height": 800})
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": page.base}])
    return page


def start_game(page: Any, *, seed: int) -> PracticeGame:
    page.goto(page.base + "/play/")
    page.get_by_label("Easy").check()
    page.get_by_label("Seed (for development)").fill(str(seed))
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/play/\d+/$"))
    return PracticeGame.objects.latest("pk")


def version(page: Any) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def take_first_option(page: Any) -> None:
    """Lay away the first two cards, or lay the first card that may be laid."""
    from playwright.sync_api import expect

    before = version(page)
    phase = page.locator("#game").get_attribute("data-phase")
    if phase == "discard":
        picks = page.locator(".card-pick")
        picks.nth(0).click()
        picks.nth(1).click()
        page.get_by_role("button", name="Lay away to the crib").click()
    else:
        assert phase == "play"
        page.locator(".card-button:not([disabled])").first.click()
    expect(page.locator("#game")).to_have_attribute("data-version", str(before + 1))


def test_a_whole_game_to_121_in_the_page(phone: Any) -> None:
    from playwright.sync_api import expect

    page = phone
    practice = start_game(page, seed=20261123)
    expect(page.locator(".line-cut").first).to_be_visible()
    expect(page.locator(".line-cut .card").first).to_have_attribute(
        "aria-label", re.compile(r"^\S+ of (clubs|diamonds|hearts|spades)$")
    )
    assert page.locator(".card-pick").count() == 6

    # The first move animated: every announcement ends up shown, the pegs where they belong.
    take_first_option(page)
    expect(page.locator(".news-list .line").last).to_be_visible()
    page.emulate_media(reduced_motion="reduce")

    refused_checked = reloaded = False
    while page.locator("#game").get_attribute("data-phase") != "done":
        if not refused_checked and version(page) >= 4:
            refuse_a_card_not_held(page, practice)
            refused_checked = True
        if not reloaded and version(page) >= 12:
            hand = page.locator(".hand .card").all_text_contents()
            at = version(page)
            page.reload()
            assert version(page) == at
            assert page.locator(".hand .card").all_text_contents() == hand
            reloaded = True
        take_first_option(page)
    assert refused_checked
    assert reloaded

    practice.refresh_from_db()
    game = load_match(practice).game
    assert practice.finished
    assert max(game.scores) == 121
    assert page.locator('[data-score-text="0"]').text_content() == str(game.scores[0])
    assert page.locator('[data-score-text="1"]').text_content() == str(game.scores[1])
    for seat in (0, 1):
        front = page.locator(f'[data-peg="{seat}-front"]')
        back = page.locator(f'[data-peg="{seat}-back"]')
        assert front.get_attribute("data-score") == str(game.scores[seat])
        assert back.get_attribute("data-score") == str(game.previous_scores[seat])
    winner_hole = page.locator(f'[data-hole="{game.winner}-121"]')
    winner_peg = page.locator(f'[data-peg="{game.winner}-front"]')
    cx, cy = winner_hole.get_attribute("cx"), winner_hole.get_attribute("cy")
    assert winner_peg.get_attribute("transform") == f"translate({cx}, {cy})"

    page.get_by_text(re.compile(r"^Game log")).click()
    log = page.locator(".log-list > .line")
    assert log.count() >= 10
    expect(page.locator(".log-list .line-win")).to_contain_text(re.compile(r"wins? the game"))
    expect(page.locator(".log-list .said").first).to_be_visible()
    heading = "You won!" if game.winner == HUMAN else "The computer won."
    expect(page.get_by_role("heading", level=2, name=heading)).to_be_visible()
    assert page.locator("#game").bounding_box()["width"] <= 375

    page.get_by_role("link", name="Replay this game").click()
    expect(page.get_by_text("Step 1 of")).to_be_visible()
    page.get_by_role("link", name="Next").click()
    expect(page.get_by_text("Step 2 of")).to_be_visible()


def refuse_a_card_not_held(page: Any, practice: PracticeGame) -> None:
    """A crafted post with a card the player does not hold: refused, nothing changes."""
    from playwright.sync_api import expect

    practice.refresh_from_db()
    state, at = practice.state, practice.version
    held = {str(card) for card in load_match(practice).game.hand(HUMAN)}
    stranger = next(str(card) for card in DECK if str(card) not in held)
    phase = page.locator("#game").get_attribute("data-phase")
    token = page.locator("input[name=csrfmiddlewaretoken]").first.input_value()
    fields = [("csrfmiddlewaretoken", token), ("version", str(at)), ("action", phase)]
    if phase == "discard":
        fields += [("cards", sorted(held)[0]), ("cards", stranger)]
    else:
        fields += [("card", stranger)]
    response = page.request.post(
        f"{page.base}/play/{practice.pk}/move/",
        data=urlencode(fields),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Referer": page.url},
    )
    assert response.ok  # redirected back to the game, which shows why
    assert "is not in your hand" in response.text()
    practice.refresh_from_db()
    assert practice.version == at
    assert practice.state == state
    page.reload()
    expect(page.locator("#game")).to_have_attribute("data-version", str(at))
