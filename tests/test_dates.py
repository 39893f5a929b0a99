"""One way of writing dates and times in either language: the day before the month, the
24-hour clock ("28 November 2026, 03:54" in English, "28 november 2026 03:54" in
Swedish), never Django's American English ("Nov. 28, 2026, 3:54 a.m.")."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.template import Context, Template
from django.test import Client
from django.utils import timezone, translation

from demo.club import DEMO_ORGANISER, DEMO_PLAYER
from tests.demo_pages import pages_for

pytestmark = pytest.mark.django_db

MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
AMERICAN = re.compile(
    r"\b(a\.m\.|p\.m\.|noon|midnight)"  # the 12-hour clock
    r"|\b(Jan|Feb|Aug|Sept|Oct|Nov|Dec)\. \d"  # "Nov. 28"
    rf"|\b({MONTHS}) \d{{1,2}}\b(?!:)"  # "November 28" (not "28 November 08:54")
)
MOMENT = datetime.datetime(2026, 11, 28, 3, 54, tzinfo=datetime.UTC)


@pytest.mark.parametrize(
    ("language", "shape", "written"),
    [
        ("en", "DATE_FORMAT", "28 November 2026"),
        ("en", "DATETIME_FORMAT", "28 November 2026, 03:54"),
        ("en", "SHORT_DATE_FORMAT", "28 Nov 2026"),
        ("en", "TIME_FORMAT", "03:54"),
        ("sv", "DATE_FORMAT", "28 november 2026"),
        ("sv", "DATETIME_FORMAT", "28 november 2026 03:54"),
        ("sv", "TIME_FORMAT", "03:54"),
    ],
)
def test_a_moment_is_written_day_month_year_and_on_the_24_hour_clock(
    language: str, shape: str, written: str
) -> None:
    template = Template(f'{{{{ moment|date:"{shape}" }}}}|{{{{ moment }}}}')
    with translation.override(language), timezone.override(datetime.UTC):
        rendered = template.render(Context({"moment": MOMENT}))
    assert rendered.split("|")[0] == written
    assert not AMERICAN.search(rendered), rendered


@pytest.mark.parametrize("reader", [DEMO_PLAYER, DEMO_ORGANISER])
def test_no_demo_page_writes_an_american_date_in_english(
    demo: str, reader: tuple[str, str]
) -> None:
    client = Client()
    client.force_login(User.objects.get(username=reader[0]))
    client.cookies["django_language"] = "en"
    for path in pages_for(reader):
        page = client.get(path).content.decode()
        found = AMERICAN.search(page)
        assert found is None, f"{path}: …{page[max(0, found.start() - 80) : found.end() + 20]}…"
