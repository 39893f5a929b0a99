"""On phones: a player reports their match, the opponent confirms, the public standings change."""

from __future__ import annotations

from typing import Any

import pytest

from tests.demo_pages import log_in
from tests.tournaments.conftest import account, make_tournament, seats
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def phone(browser: Any, live_server: Any) -> Any:
    context = browser.new_context(locale="en-GB", **PHONE)
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    context.set_default_timeout(10_000)
    tab = context.new_page()
    tab.base = live_server.url
    return tab


def test_report_on_a_phone_confirm_and_see_the_standings_change(
    browser: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    tournament = make_tournament(2, swiss_rounds=1)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = round_.matches.get()
    first, second = seats(match)
    standings_url = f"{live_server.url}/t/{tournament.slug}/standings/"

    watcher = phone(browser, live_server)
    watcher.goto(standings_url)
    table = watcher.locator("#standings-table")
    expect(table).to_contain_text("0-0")

    reporter = phone(browser, live_server)
    log_in(reporter, account(first).username)
    reporter.goto(f"{reporter.base}/t/{tournament.slug}/")
    expect(reporter.locator("#my-table")).to_contain_text(second.entry.player.name)
    reporter.get_by_role("link", name="Report or confirm the result").click()
    reporter.get_by_label(second.entry.player.name).first.check()  # the opponent won the cut
    reporter.locator("#id_game_1_winner").select_option("0")
    reporter.locator("#id_game_1_loser_score").fill("88")
    reporter.locator("#id_game_2_winner").select_option("0")
    reporter.locator("#id_game_2_loser_score").fill("57")
    reporter.get_by_role("button", name="Check").click()
    preview = reporter.locator(".preview")
    expect(preview).to_contain_text("The match is decided")
    expect(preview).to_contain_text("double skunk")
    # The opponent dealt game 1 and won nothing, so dealt game 2 as the loser of game 1.
    game_2 = preview.locator("tbody tr").nth(1)
    expect(game_2.locator("td").nth(1)).to_have_text(second.entry.player.name)
    reporter.get_by_role("button", name="Save", exact=True).click()
    expect(reporter.locator(".messages")).to_contain_text("Your report is saved")

    confirmer = phone(browser, live_server)
    log_in(confirmer, account(second).username)
    confirmer.goto(f"{confirmer.base}/t/{tournament.slug}/my-table/")
    expect(
        confirmer.get_by_role("heading", name="Your opponent has reported this result")
    ).to_be_visible()
    confirmer.get_by_role("button", name="Confirm the result").click()
    expect(confirmer.locator(".messages")).to_contain_text("the result is final")

    # The watcher's page refreshes itself (htmx polling) or on reload without JavaScript.
    watcher.reload()
    first_row = watcher.locator("table.standings tbody tr").first
    expect(first_row).to_contain_text(first.entry.player.name)
    expect(first_row).to_contain_text("1-0")
    expect(first_row).to_contain_text("7")  # skunk 3 + double skunk 4
    for tab in (watcher, reporter, confirmer):
        tab.context.close()
