"""Championship day on phones: an invited player reports game by game, the opponent
confirms through the private link printed on their own login slip (the score sheet
they share carries none), a stale confirmation is refused, and a forgotten password
is reset by e-mail."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core import mail

from tests.console import expect_console
from tests.factories import OrganiserFactory
from tests.test_browser_championship import phone
from tests.tournaments.conftest import make_tournament, seats
from tournaments.models import Match
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-crib-password-121"


def log_in(tab: Any, username: str, password: str) -> None:
    tab.goto(tab.base + "/accounts/login/")
    tab.get_by_label("Username").fill(username)
    tab.get_by_label("Password").fill(password)
    tab.get_by_role("button", name="Log in").click()


def fits_the_screen(tab: Any) -> bool:
    return bool(
        tab.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    )


def private_keys_printed(tab: Any, path: str) -> list[str]:
    """The private keys printed on the PDF at ``path`` (the slips, or a round's sheets)."""
    from pypdf import PdfReader

    pdf = tab.request.get(f"{tab.base}{path}")
    assert pdf.ok
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.body())).pages)
    return re.findall(r"/p/([a-z2-9]{14})/", text.replace(" ", "").replace("\n", ""))


def save_games(tab: Any, names: tuple[str, str], games: list[tuple[int, int]]) -> None:
    tab.get_by_label(names[0]).first.check()  # seat 0 dealt first
    for number, (winner, score) in enumerate(games, start=1):
        tab.locator(f"#id_game_{number}_winner").select_option(str(winner))
        tab.locator(f"#id_game_{number}_loser_score").fill(str(score))
    tab.get_by_role("button", name="Save", exact=True).click()


def test_invited_player_reports_game_by_game_and_the_opponent_confirms_by_the_qr_link(
    browser: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    OrganiserFactory.create(username="olle", email="olle@example.se")
    tournament = make_tournament(2, accounts=False, swiss_rounds=1)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = round_.matches.get()
    me, opponent = seats(match)
    names = (me.entry.player.name, opponent.entry.player.name)
    me.entry.player.email = "first@example.se"
    me.entry.player.save()

    # The organiser invites the first player and reads the link off the player's page.
    organiser = phone(browser, live_server)
    log_in(organiser, "olle", "secret-pass-121")
    organiser.goto(f"{organiser.base}/club/players/{me.entry.player.pk}/")
    organiser.get_by_role("button", name="Invite").click()
    invitation = organiser.locator("#invitation-link").inner_text().strip()
    assert "/accounts/invitation/" in invitation

    # The player chooses a username and password from the link, then reports game 1.
    player = phone(browser, live_server)
    player.goto(invitation)
    player.get_by_label("Username").fill("first")
    player.locator("#id_password1").fill(PASSWORD)
    player.locator("#id_password2").fill(PASSWORD)
    player.get_by_role("button", name="Make my account").click()
    player.goto(f"{player.base}/t/{tournament.slug}/my-table/")
    save_games(player, names, [(0, 85)])
    expect(player.locator(".lead")).to_contain_text("In play")

    # The opponent has no account: they scan the QR code on their own login slip. The
    # score sheet on the table carries nobody's link.
    opponent.entry.refresh_from_db()
    assert private_keys_printed(organiser, f"/t/{tournament.slug}/round/1/scoresheets.pdf") == []
    assert opponent.entry.private_key in private_keys_printed(
        organiser, f"/t/{tournament.slug}/slips.pdf"
    )
    other = phone(browser, live_server)
    other.goto(f"{other.base}/p/{opponent.entry.private_key}/")
    expect(other.locator("#now")).to_contain_text(f"against {names[0]}")
    expect(other.get_by_role("heading", name="Games so far")).to_be_visible()

    # Game 2 decides the match; the opponent's page shows every game before the button.
    player.reload()
    save_games(player, names, [(0, 85), (0, 57)])
    expect(player.locator(".messages")).to_contain_text("Your opponent confirms it")
    other.reload()
    result = other.locator("#result-heading + .table-scroll")
    expect(result).to_contain_text("double skunk")
    expect(result).to_contain_text("57")
    expect(result).to_contain_text("7 – 0")
    assert fits_the_screen(other)

    # The reporter changes the result after the opponent's page was drawn: refused, with
    # the page as it is now and 409 Conflict (which the console reports).
    expect_console(r"status of 409 \(Conflict\).*/confirm/")
    player.reload()
    player.get_by_text("Correct your report").click()
    save_games(player, names, [(0, 85), (1, 100), (0, 40)])
    other.get_by_role("button", name="Confirm the result").click()
    expect(other.locator(".messages")).to_contain_text("The report has changed, check it again.")
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    # The page now shows the changed report; confirming it makes the match final.
    expect(other.locator("#result-heading + .table-scroll")).to_contain_text("40")
    other.get_by_role("button", name="Confirm the result").click()
    expect(other.locator(".messages")).to_contain_text("the result is final")
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert match.games.count() == 3

    # Later the player forgets the password and resets it by e-mail.
    forgetful = phone(browser, live_server)
    forgetful.goto(f"{forgetful.base}/accounts/login/")
    forgetful.get_by_role("link", name="Forgot your password?").click()
    forgetful.locator("#id_email").fill("first@example.se")
    forgetful.get_by_role("button", name="Send the link").click()
    expect(forgetful.locator("main")).to_contain_text("If an account has this address")
    assert len(mail.outbox) == 1
    reset = re.search(r"https?://\S+/accounts/password/reset/\S+/", str(mail.outbox[0].body))
    assert reset is not None
    forgetful.goto(reset.group(0))
    forgetful.locator("#id_new_password1").fill("another-crib-password-29")
    forgetful.locator("#id_new_password2").fill("another-crib-password-29")
    forgetful.get_by_role("button", name="Save the new password").click()
    log_in(forgetful, "first", "another-crib-password-29")
    expect(forgetful.get_by_role("link", name="first")).to_be_visible()
    for tab in (organiser, player, other, forgetful):
        tab.context.close()
