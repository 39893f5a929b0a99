"""On a phone (360 px wide), in Swedish (the longer words): the marks of a rehearsal and
of an unrated tournament fit the lists and pages that show them, can be read there, and
axe-core finds nothing serious on those pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.demo_pages import log_in
from tests.test_browser_accessibility import violations
from tests.test_browser_phone import PHONE, too_wide
from tests.tournaments.test_rehearsals import REHEARSAL, UNRATED, Club, club

__all__ = ["club"]  # the fixture, used by name

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_marks_fit_a_phone_and_are_shown_in_words(
    club: Club, browser: Any, live_server: Any
) -> None:
    context = browser.new_context(locale="sv-SE", viewport=PHONE, device_scale_factor=2)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.base = live_server.url
    assert club.anna.user is not None
    log_in(page, club.anna.user.get_username())
    slug = club.rehearsal.slug
    paths = [
        reverse("home"),
        reverse("tournaments:list"),
        reverse("player_detail", args=[club.anna.pk]),
        reverse("tournaments:detail", args=[slug]),
        reverse("tournaments:round", args=[slug, 1]),
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:detail", args=[club.friendly.slug]),
    ]
    assert not too_wide(page, paths)
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    axe = Axe()
    found = []
    for path in paths:
        page.goto(page.base + path)
        found += [f"{path}: {violation}" for violation in violations(page, axe)]
    assert not found, "\n".join(found)
    page.goto(page.base + reverse("tournaments:list"))
    for mark in (REHEARSAL["sv"], UNRATED["sv"]):
        tag = page.locator("main .tag", has_text=mark).first
        assert tag.is_visible(), mark
        box = tag.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= PHONE["width"], (mark, box)
    context.close()
