"""In a real browser 360 pixels wide: a member lays a table of four in the lobby, another
member sits down across from her, she begins it (the computer takes the other two seats)
and plays her seat by clicks to the end of a game to 61, her partner's moves reaching her
page by its poll; the page never scrolls sideways, axe-core finds nothing serious in the
lobby, at the start and at the end, and the console shows no error (the suite's
``_quiet_console`` fails a browser test on any)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from play.models import Challenge, OnlineGame
from play.online import load_online, online_decide
from play.services import stand_in_decision
from play.tables import table_sit
from scoring.players.strategy import ComputerPlayer
from tests.factories import PlayerFactory, UserFactory
from tests.online_play import tab
from tests.play.test_practice_seats_browser import scrolls_sideways, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTH = 360


def member(username: str, name: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=name, club="Umeå")
    return user


def test_a_table_of_four_is_laid_begun_and_played_on_a_narrow_phone(
    browser: Any, live_server: Any, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.ONLINE_POLL_MS = 250  # a quarter of the site's second, to keep the test short
    anna, bertil = member("anna", "Anna Ek"), member("bertil", "Bertil Ås")
    page = tab(browser, live_server.url, anna)
    page.set_viewport_size({"width": WIDTH, "height": 780})

    page.goto(page.base + reverse("play:lobby"))
    page.get_by_label("Four: two partnerships, partners sitting opposite").check()
    page.get_by_label("61 points").check()
    page.get_by_label("Easy").check()
    page.get_by_role("button", name="Challenge").click()
    expect(page.locator(".messages")).to_contain_text("Your table is in the lobby")
    expect(page.locator(".table-list")).to_contain_text("Anna Ek's partner: free")
    expect(page.locator(".table-list")).to_contain_text("You may begin once another member")
    assert not scrolls_sideways(page)
    assert not serious_violations(page)

    # Bertil sits down across from Anna: her lobby follows the table by itself.
    table = Challenge.objects.get()
    table_sit(pk=table.pk, member=bertil, seat=2)
    expect(page.locator(".table-list")).to_contain_text("Anna Ek's partner: Bertil Ås")
    page.get_by_role("button", name="Begin: the computer takes the free seats").click()
    page.wait_for_url(f"**{reverse('play:online_game', args=[OnlineGame.objects.get().pk])}")
    game = OnlineGame.objects.get()
    assert (game.seats, game.target, game.level, game.computers) == (4, 61, "easy", "13")
    expect(page.locator("h1")).to_contain_text("Anna Ek and Bertil Ås against Computer 1")
    expect(page.locator(".seats .seat")).to_have_count(3)
    expect(page.locator(".board-legend")).to_contain_text("You and Bertil Ås")
    expect(page.locator(".board-legend")).to_contain_text("Computer 1 and Computer 2")
    assert not scrolls_sideways(page)
    assert not serious_violations(page)

    page.emulate_media(reduced_motion="reduce")
    bertils = ComputerPlayer("standard", 2)
    clicks = 0
    while not game.finished:
        match = load_online(game)
        awaiting = match.game.awaiting
        if 2 in awaiting and (match.game.to_move in (2, None) or 0 not in awaiting):
            decision = stand_in_decision(match, bertils, 2)
            game = online_decide(pk=game.pk, member=bertil, moves=game.moves_2, decision=decision)
            continue
        assert 0 in awaiting
        # Anna's page learns the table by its poll, then she clicks.
        expect(page.locator("#game")).to_have_attribute("data-version", str(game.version))
        if match.game.phase.value == "discard":
            page.locator(".discard-one-form .card-button").first.click()
        else:
            page.locator(".play-form .card-button:not([disabled])").first.click()
        expect(page.locator("#game")).not_to_have_attribute("data-version", str(game.version))
        game.refresh_from_db()
        clicks += 1
        assert clicks < 60

    match = load_online(game)
    winner = match.winner
    assert winner is not None
    assert match.game.scores[winner] >= 61
    expect(page.locator("#game")).to_have_attribute("data-version", str(game.version))
    heading = "You and your partner won!" if winner == 0 else "Computer 1 and Computer 2 won."
    expect(page.get_by_role("heading", level=2, name=heading)).to_be_visible()
    for side in (0, 1):
        score = page.locator(f'[data-score-text="{side}"]').text_content()
        assert score == str(match.game.scores[side])
    assert not scrolls_sideways(page)
    assert page.locator("#game").bounding_box()["width"] <= WIDTH
    assert not serious_violations(page)
    page.context.close()
