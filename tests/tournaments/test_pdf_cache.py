"""A PDF is rendered once per change of the tournament, and never shows an older result."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from printing import cache
from tournaments.models import Match, Tournament
from tournaments.services import links, results
from tournaments.services.changes import tournament_changed

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db


def text_of(response: TestResponse) -> str:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)


def browser(language: str = "en") -> Client:
    client = Client()
    client.cookies["django_language"] = language
    return client


def settle_table_1(tournament: Tournament, organiser: User, loser_score: int) -> None:
    match = Match.objects.get(round__tournament=tournament, round__number=2, table=1)
    games = [(0, loser_score), (0, 90)]
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=games)


def test_a_repeated_download_is_served_from_the_cache(
    playing: Tournament, renders: list[str]
) -> None:
    url = reverse("tournaments:standings_pdf", args=[playing.slug]) + "?round=2"
    first = browser().get(url)
    second = browser().get(url)  # another reader, without the first one's ETag
    assert renders == ["standings"]
    assert second.content == first.content


def test_a_changed_result_renders_afresh(
    playing: Tournament, organiser: User, renders: list[str]
) -> None:
    url = reverse("tournaments:standings_pdf", args=[playing.slug]) + "?round=2"
    winner = Match.objects.get(round__tournament=playing, round__number=2, table=1).seats.get(
        seat=0
    )
    name = winner.entry.player.name
    before = text_of(browser().get(url))
    settle_table_1(playing, organiser, loser_score=77)
    after = text_of(browser().get(url))
    assert renders == ["standings", "standings"]
    # The winner of table 1 had one match won; now two, and the first line of the table.
    assert next(line for line in after.splitlines() if name in line).startswith("1 ")
    assert before != after


def test_each_language_has_its_own_copy(playing: Tournament, renders: list[str]) -> None:
    url = reverse("tournaments:standings_pdf", args=[playing.slug])
    english = text_of(browser("en").get(url))
    swedish = text_of(browser("sv").get(url))
    assert renders == ["standings", "standings"]
    assert "Standings" in english
    assert "Ställning" in swedish


def test_the_same_reader_gets_a_304(playing: Tournament, renders: list[str]) -> None:
    client = browser()
    url = reverse("tournaments:crosstable_pdf", args=[playing.slug])
    first = client.get(url)
    assert client.get(url, headers={"If-None-Match": first["ETag"]}).status_code == 304


def test_everyone_gets_the_same_sheets_without_private_links(
    playing: Tournament, organiser: User, renders: list[str]
) -> None:
    """The score sheets lie on the table: no private link on anyone's copy, so one
    render serves visitors and organisers alike."""
    url = reverse("tournaments:scoresheets_pdf", args=[playing.slug, 2])
    public = browser().get(url)
    desk = browser()
    desk.force_login(organiser)
    organisers = desk.get(url)
    assert renders == ["scoresheets"]
    assert organisers.content == public.content
    text = text_of(public)
    for key in playing.entries.values_list("private_key", flat=True):
        assert key is not None
        assert key not in text
    assert "/p/" not in text


def test_a_revoked_link_renders_the_slips_afresh(
    playing: Tournament, organiser: User, renders: list[str]
) -> None:
    """The slips print the links: a cached copy must never hand out a revoked one."""
    desk = browser()
    desk.force_login(organiser)
    url = reverse("tournaments:slips_pdf", args=[playing.slug])
    entry = playing.entries.first()
    assert entry is not None
    key = entry.private_key
    assert key is not None
    assert key in text_of(desk.get(url))
    assert key in text_of(desk.get(url))
    links.entry_link_revoke(entry=entry)
    assert key not in text_of(desk.get(url))
    assert renders == ["slips", "slips"]


def test_a_visitor_who_renders_too_much_gets_the_429_page(
    playing: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cache, "VISITOR_RENDERS", "3/10m")  # the rule, not the number
    client = browser()
    numbers = ["1", "2"]
    limit = 3
    statuses = []
    for n in range(limit + 1):
        # A new document each time (a changed result would do the same): each is a render.
        tournament_changed(playing)
        url = reverse("tournaments:standings_pdf", args=[playing.slug])
        statuses.append(client.get(url, {"round": numbers[n % 2]}).status_code)
    assert statuses[:limit] == [200] * limit
    assert statuses[limit] == 429


def test_a_cached_pdf_is_served_even_past_the_limit(playing: Tournament) -> None:
    client = browser()
    url = reverse("tournaments:standings_pdf", args=[playing.slug])
    limit = int(cache.VISITOR_RENDERS.split("/")[0])
    for _ in range(limit + 5):
        assert client.get(url).status_code == 200


def test_a_closed_rounds_standings_stay_cached_while_the_next_round_is_reported(
    playing: Tournament, organiser: User, renders: list[str]
) -> None:
    client = browser()
    url = reverse("tournaments:standings_pdf", args=[playing.slug])
    first = client.get(url, {"round": "1"})
    settle_table_1(playing, organiser, loser_score=50)  # a result in round 2
    assert client.get(url, {"round": "1"}).content == first.content
    assert renders == ["standings"]

    # A correction to round 1 is a new document.
    match = Match.objects.get(round__tournament=playing, round__number=1, table=1)
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(1, 60)] * 2)
    assert client.get(url, {"round": "1"}).content != first.content
    assert renders == ["standings", "standings"]
