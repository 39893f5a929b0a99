"""Every number the pages write into SVG is a number in any language: in Swedish Django
writes floats with a decimal comma ("32,8"), which a browser refuses as a coordinate
(the line is not drawn, the console fills with errors). Each page with a chart or a board
is read in both languages, its SVG's elements parsed (as HTML parses them) and each
coordinate read as a number."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from demo.club import DEMO_PLAYER
from tests.demo_pages import pages_for
from tests.play.factories import PracticeGameFactory, owner_of

pytestmark = pytest.mark.django_db

NUMBERS = {"x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry", "width", "height"}
NUMBER = re.compile(r"-?\d+(\.\d+)?")


def coordinates(attributes: dict[str, str]) -> list[tuple[str, str]]:
    """Each number an SVG element's attributes hold, with its attribute's name."""
    found = []
    for name, value in attributes.items():
        if name in NUMBERS:
            found.append((name, value))
        elif name == "viewbox":
            found += [(name, part) for part in value.split()]
        elif name == "points":
            found += [(name, number) for pair in value.split() for number in pair.split(",")]
        elif name == "transform":
            inside = re.findall(r"\(([^)]*)\)", value)
            found += [(name, part.strip()) for args in inside for part in args.split(",")]
    return found


class Drawings(HTMLParser):
    """The SVG drawings of a page, and every coordinate in them that is not a number."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.drawings = 0
        self.wrong: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "svg":
            self.depth += 1
            self.drawings += 1
        if self.depth:
            values = {name: value or "" for name, value in attrs}
            for name, value in coordinates(values):
                if not NUMBER.fullmatch(value):
                    self.wrong.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg":
            self.depth -= 1


def svg_numbers_that_are_not(page: str) -> list[str]:
    drawings = Drawings()
    drawings.feed(page)
    assert drawings.drawings, "the page draws something"
    return drawings.wrong


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_statistics_race_chart_is_drawn_in_either_language(language: str) -> None:
    practice = PracticeGameFactory.create(seed=77, finished=True)
    client = Client()
    client.force_login(owner_of(practice))
    client.cookies["django_language"] = language
    page = client.get(reverse("play:stats")).content.decode()
    assert 'class="race-finish"' in page
    assert 'class="race-skunk"' in page
    assert svg_numbers_that_are_not(page) == []


@pytest.mark.parametrize("language", ["sv", "en"])
def test_a_game_board_is_drawn_in_either_language(language: str) -> None:
    practice = PracticeGameFactory.create(seed=5)
    client = Client()
    client.force_login(owner_of(practice))
    client.cookies["django_language"] = language
    page = client.get(reverse("play:game", args=[practice.pk])).content.decode()
    assert svg_numbers_that_are_not(page) == []


@pytest.mark.parametrize("language", ["sv", "en"])
def test_every_drawing_of_the_demo_is_drawn_in_either_language(demo: str, language: str) -> None:
    client = Client()
    client.force_login(User.objects.get(username=DEMO_PLAYER[0]))
    client.cookies["django_language"] = language
    drawn = 0
    for path in pages_for(DEMO_PLAYER):
        page = client.get(path).content.decode()
        if "<svg" in page:
            drawn += 1
            assert svg_numbers_that_are_not(page) == [], path
    assert drawn >= 3  # the statistics, a member's rating chart, the games' boards
