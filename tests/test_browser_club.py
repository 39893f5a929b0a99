"""In a real browser: an organiser adds a player, finds them, switches language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.factories import OrganiserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_organiser_adds_finds_and_reads_in_english(page: Any) -> None:
    from playwright.sync_api import expect

    OrganiserFactory.create(username="olle")
    page.goto(page.base + "/")
    page.get_by_role("link", name="Logga in").click()
    page.get_by_label("Användarnamn").fill("olle")
    page.get_by_label("Lösenord").fill("secret-pass-121")
    page.get_by_role("button", name="Logga in").click()

    page.goto(page.base + "/club/")
    page.get_by_role("link", name="Lägg till spelare").click()
    page.get_by_label("Namn").fill("Märta Ödegaard")
    page.get_by_label("Klubb eller ort").fill("Örnsköldsvik")
    page.get_by_role("button", name="Spara").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Märta Ödegaard")

    page.get_by_role("link", name="Klubben", exact=True).click()
    search = page.get_by_label("Sök på namn, klubb eller ort")
    search.press_sequentially("odeg", delay=30)
    results = page.locator("#player-results")
    expect(results).to_contain_text("Märta Ödegaard")
    expect(results).to_contain_text("1 medlem")
    expect(page).to_have_url(re.compile(r"\?q=odeg"))

    page.get_by_label("Språk").select_option("en")
    page.get_by_role("button", name="Byt språk").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Members")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_label("Search by name, club or town")).to_have_value("odeg")
