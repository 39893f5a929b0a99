"""The review of a finished practice game on a phone (360 px): a discard's choice made and
the best side by side in real card faces, and nothing wider than the window."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.demo_pages import log_in
from tests.play.factories import PracticeGameFactory, owner_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


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
