"""In a real browser: the main pages, their htmx updates and a practice move run under the
site's Content-Security-Policy without the browser refusing anything."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.console import expect_console
from tests.factories import OrganiserFactory
from tests.tournaments.conftest import make_tournament, play_round
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Reports every refusal to the test, whatever page the tab is on.
LISTEN = """
document.addEventListener("securitypolicyviolation", function (event) {
  window.reportViolation(
    event.violatedDirective + " refused " + (event.blockedURI || "inline") +
    " at " + event.documentURI + (event.sample ? ": " + event.sample : "")
  );
});
"""


@pytest.fixture
def tab(browser: Any, live_server: Any) -> Any:
    context = browser.new_context(locale="en-GB")
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    context.set_default_timeout(10_000)
    tab = context.new_page()
    tab.base = live_server.url
    tab.violations = []

    def report(line: str) -> None:
        tab.violations.append(line)

    context.expose_function("reportViolation", report)
    context.add_init_script(LISTEN)

    def on_console(message: Any) -> None:
        if "Content Security Policy" in message.text:
            tab.violations.append(message.text)

    tab.on("console", on_console)
    yield tab
    context.close()


def visit(tab: Any, address: str) -> None:
    response = tab.goto(tab.base + address)
    assert response.ok, address
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "unsafe" not in policy
    tab.wait_for_load_state("networkidle")
    # htmx was told not to add its indicator style; nothing else may add one either.
    assert tab.locator("style").count() == 0, address


def settle(tab: Any) -> list[str]:
    """The refusals so far, once the events of the current page have had time to arrive."""
    tab.wait_for_timeout(200)
    return list(tab.violations)


def test_the_listener_hears_a_refusal(tab: Any) -> None:
    expect_console("violates the following Content Security Policy directive")
    visit(tab, "/")
    tab.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    tab.evaluate(
        "const script = document.createElement('script');"
        "script.textContent = 'document.title = 1';"
        "document.head.appendChild(script);"
    )
    heard = settle(tab)
    assert any("style-src" in line for line in heard), heard
    assert any("script-src" in line for line in heard), heard


def test_the_main_pages_and_their_updates_run_under_the_policy(tab: Any) -> None:
    from playwright.sync_api import expect

    organiser = OrganiserFactory.create(username="olle")
    tournament = make_tournament(8)
    play_round(tournament, organiser)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    slug = tournament.slug

    visit(tab, "/")
    visit(tab, "/club/")
    tab.get_by_label("Search by name, club or town").fill("Player 0")
    expect(tab.locator(".result-count")).to_contain_text("8 members")
    tab.get_by_role("link", name="Player 03").click()
    expect(tab.get_by_role("heading", name="Player 03")).to_be_visible()
    visit(tab, "/t/")
    visit(tab, f"/t/{slug}/")
    visit(tab, f"/t/{slug}/standings/")
    visit(tab, f"/t/{slug}/round/1/")
    visit(tab, f"/t/{slug}/round/{round_.number}/")
    # The round's pairings refresh themselves while it is played.
    with tab.expect_response(re.compile(rf"/t/{slug}/round/{round_.number}/$"), timeout=20_000):
        pass
    visit(tab, "/accounts/login/")
    tab.get_by_label("Username").fill("olle")
    tab.get_by_label("Password").fill("secret-pass-121")
    tab.get_by_role("button", name="Log in").click()
    expect(tab.get_by_role("link", name="Lockouts")).to_be_visible()
    visit(tab, "/club/lockouts/")
    visit(tab, f"/t/{slug}/round/{round_.number}/")
    assert settle(tab) == []


def test_a_practice_move_and_its_pegs_run_under_the_policy(tab: Any, settings: Any) -> None:
    from playwright.sync_api import expect

    settings.PRACTICE_SEED_FIELD = True
    visit(tab, "/play/")
    tab.get_by_label("Easy").check()
    tab.get_by_label("Seed (for development)").fill("20261123")
    tab.get_by_role("button", name="Start").click()
    tab.wait_for_url(re.compile(r"/play/\d+/$"))
    game = tab.locator("#game")
    before = int(game.get_attribute("data-version"))
    picks = tab.locator(".card-pick")
    picks.nth(0).click()
    picks.nth(1).click()
    tab.get_by_role("button", name="Lay away to the crib").click()
    expect(game).to_have_attribute("data-version", str(before + 1))
    expect(tab.locator(".news-list .line").last).to_be_visible()
    tab.wait_for_timeout(1500)  # the announcements and the pegs' moves play out
    # Each peg stands in the hole of its score, placed by play.js through the SVG attribute.
    for seat in (0, 1):
        peg = tab.locator(f'[data-peg="{seat}-front"]')
        score = peg.get_attribute("data-score")
        hole = tab.locator(f'[data-hole="{seat}-{score if score != "0" else "0a"}"]')
        expected = f"translate({hole.get_attribute('cx')}, {hole.get_attribute('cy')})"
        assert peg.get_attribute("transform") == expected
    assert settle(tab) == []
