"""In real browsers, a championship match played on the site: one player proposes it on
the match page, the other accepts, a spectator watches it from the round page without
seeing a hidden card, and when the match ends it is final on the round page and in the
standings, with each game's record attached.

The match is one game (best of 1), its first deal and its end played by clicks, the
deals between by the services: a game by clicks took minutes in two browsers
(docs/benchmarks.md, "Fast feedback"); the step between two games of a match, by
clicks, is in tests/test_browser_online.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from play.board import face
from play.models import OnlineGame
from play.online import load_online
from scoring.rules.events import Phase
from tests.online_play import decided_by_the_services, played_by_clicks, tab, take_a_decision
from tests.tournaments.conftest import account, make_tournament, seats
from tournaments.models import Match
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_championship_match_played_on_the_site_is_final_with_its_records(
    browser: Any, live_server: Any, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.ONLINE_POLL_MS = 250
    tournament = make_tournament(2, swiss_rounds=1, best_of=1, is_championship=True)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = Match.objects.get(round=round_)
    first, second = seats(match)
    names = (first.entry.player.name, second.entry.player.name)
    match_url = reverse("tournaments:match", args=[tournament.slug, match.pk])
    round_url = reverse("tournaments:round", args=[tournament.slug, round_.number])

    proposer = tab(browser, live_server.url, account(second))
    proposer.goto(proposer.base + match_url)
    proposer.get_by_role("button", name="Propose it to your opponent").click()
    expect(proposer.locator(".messages")).to_contain_text("Your proposal was sent")

    accepter = tab(browser, live_server.url, account(first))
    accepter.goto(accepter.base + reverse("home"))
    expect(accepter.locator(".online-summary")).to_contain_text(
        f"{names[1]} proposes to play your match on the site"
    )
    accepter.goto(accepter.base + match_url)
    accepter.get_by_role("button", name="Accept and play").click()
    accepter.wait_for_url(re.compile(r"/play/online/\d+/$"))
    proposer.goto(proposer.base + match_url)
    proposer.get_by_role("link", name="Go to the game").click()
    expect(proposer.locator("h1")).to_have_text(f"Game against {names[0]}")

    # A spectator, not logged in, finds it on the round page and watches it.
    spectator = browser.new_context(locale="en-GB").new_page()
    spectator.goto(live_server.url + round_url)
    row = spectator.locator("#pairings tbody tr").first
    expect(row).to_contain_text("Being played on the site")
    row.get_by_role("link", name="watch").click()
    expect(spectator.locator("h1")).to_have_text(f"{names[0]} – {names[1]}")
    expect(spectator.locator(".lead")).to_contain_text("best of 1 · being played on the site")

    game = OnlineGame.objects.get()
    pages = {0: accepter, 1: proposer}
    users = {0: account(first), 1: account(second)}
    lost: list[str] = []  # clicks made again (tests.online_play.take_a_decision)
    watched = False
    while not game.finished:
        played = load_online(game)
        if played.game.phase is Phase.PLAY and not watched:
            # Both hands held: the spectator sees their backs and not one of their cards.
            watched = True
            board = spectator.locator("#game")
            expect(board).to_have_attribute("data-version", str(game.version))
            expect(board.locator(".card-back")).to_have_count(
                sum(len(played.game.hand(seat)) for seat in (0, 1)) + 4  # and the crib
            )
            shown = board.inner_html()
            with translation.override("en"):
                held = [face(card).name for seat in (0, 1) for card in played.game.hand(seat)]
            assert not [name for name in held if f'aria-label="{name}"' in shown]
            assert board.locator("form").count() == 0
        mover = played.game.to_move
        assert mover is not None
        if not played_by_clicks(played):  # the deals between the first and the end
            game = decided_by_the_services(game, played, users)
            continue
        game = take_a_decision(pages[mover], game, played.game.phase, lost)

    print("clicks made again:", lost)  # shown by pytest -rA
    assert len(lost) <= 2, lost
    # Final on the round page and in the standings, with the games' records.
    played = load_online(game)
    winner = names[played.winner or 0]
    spectator.goto(live_server.url + round_url)
    row = spectator.locator("#pairings tbody tr").first
    expect(row).to_contain_text("Final")
    expect(row.locator(".tag.win")).to_have_count(1)
    expect(row).to_contain_text(f"{winner}")
    spectator.goto(live_server.url + reverse("tournaments:standings", args=[tournament.slug]))
    leader = spectator.locator("#standings-table tbody tr").first
    expect(leader).to_contain_text(winner)
    expect(leader).to_contain_text("1-0")
    spectator.goto(live_server.url + match_url)
    expect(spectator.locator("main")).to_contain_text("This match was played on the site")
    records = spectator.get_by_role("link", name=re.compile(r"^Game \d, deal by deal$"))
    expect(records).to_have_count(len(played.games))
    records.first.click()
    expect(spectator.locator("main")).to_contain_text(names[0])
    assert watched
    for page in (proposer, accepter, spectator):  # no poll outlives the test's database
        page.context.close()
