"""A page's sections (``core.sections``): made by the functions ``PAGE_SECTIONS`` names for
its place, in that order, each drawn alone with its own context; a maker that shows
nothing is left out."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import HttpRequest
from django.test import RequestFactory
from django.utils import translation
from pytest_django import DjangoAssertNumQueries, Settings

from core.sections import Section, sections

pytestmark = pytest.mark.django_db


def favourites(request: HttpRequest, **about: Any) -> Section:
    return Section("ratings/favourites.html", {"won": about["won"], "of": 3})


def nothing(request: HttpRequest, **about: Any) -> None:
    return None


def test_a_place_is_filled_in_order_and_a_section_showing_nothing_is_left_out(
    settings: Settings, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    here = "tests.core.test_sections"
    settings.PAGE_SECTIONS = {"facts": [f"{here}.nothing", f"{here}.favourites"]}
    request = RequestFactory().get("/")
    with translation.override("en"), django_assert_num_queries(0):
        drawn = sections("facts", request, won=2)
    assert len(drawn) == 1
    assert "won 2 of 3 matches" in drawn[0]
    assert sections("nowhere", request) == []
