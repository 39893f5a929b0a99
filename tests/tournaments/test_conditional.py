"""An unchanged page costs a 304; a change anywhere on it gives the fresh page at once."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.services import player_update
from tests.factories import PlayerFactory
from tests.tournaments.conftest import account, make_tournament
from tournaments.models import Match, Tournament
from tournaments.services import results
from tournaments.services import tournaments as services

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db


def client(language: str = "en") -> Client:
    """A browser that has been on the site before (it holds the CSRF cookie the pages set)."""
    browser = Client()
    browser.cookies["django_language"] = language
    browser.get(reverse("home"))
    return browser


def standings_url(tournament: Tournament) -> str:
    return reverse("tournaments:standings", args=[tournament.slug])


def again(browser: Client, url: str, first: TestResponse, **headers: str) -> TestResponse:
    """The same address asked again with the validators of ``first``."""
    return browser.get(url, headers={"If-None-Match": first["ETag"], **headers})


def test_an_unchanged_page_answers_304_without_a_body(playing: Tournament) -> None:
    browser = client()
    url = standings_url(playing)
    first = browser.get(url)
    assert first.status_code == 200
    assert first["Cache-Control"] == "private, no-cache"
    assert first.has_header("Last-Modified")
    second = again(browser, url, first)
    assert second.status_code == 304
    assert second.content == b""
    assert second["ETag"] == first["ETag"]
    assert browser.head(url, headers={"If-None-Match": first["ETag"]}).status_code == 304


def test_a_reported_result_gives_the_fresh_page(playing: Tournament, organiser: User) -> None:
    browser = client()
    url = reverse("tournaments:round", args=[playing.slug, 2])
    first = browser.get(url)
    match = Match.objects.filter(round__number=2, round__tournament=playing, is_bye=False)[0]
    assert "121–80" not in first.content.decode()
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 80), (0, 70)])
    fresh = again(browser, url, first)
    assert fresh.status_code == 200
    assert fresh["ETag"] != first["ETag"]
    assert "121–80" in fresh.content.decode()
    assert again(browser, url, fresh).status_code == 304


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(
            lambda t: player_update(player=t.entries.first().player, name="Renamed Person"),
            id="a player's name",
        ),
        pytest.param(lambda t: services.entry_withdraw(entry=t.entries.first()), id="a withdrawal"),
        pytest.param(
            lambda t: services.tournament_update(tournament=t, venue="Folkets hus"), id="the venue"
        ),
    ],
)
def test_every_change_the_pages_show_is_a_new_version(
    playing: Tournament, change: Callable[[Tournament], object]
) -> None:
    browser = client()
    url = reverse("tournaments:detail", args=[playing.slug])
    first = browser.get(url)
    change(playing)
    assert again(browser, url, first).status_code == 200


def test_a_late_entry_is_a_new_version(playing: Tournament) -> None:
    browser = client()
    url = reverse("tournaments:detail", args=[playing.slug])
    first = browser.get(url)
    services.entry_add(tournament=playing, player=PlayerFactory.create(name="Late Comer"))
    fresh = again(browser, url, first)
    assert fresh.status_code == 200
    assert "Late Comer" in fresh.content.decode()


def test_the_other_language_is_another_page(playing: Tournament) -> None:
    browser = client("en")
    url = standings_url(playing)
    english = browser.get(url)
    browser.cookies["django_language"] = "sv"
    swedish = again(browser, url, english)
    assert swedish.status_code == 200
    assert "Ställning" in swedish.content.decode()


def test_the_polled_fragment_has_validators_of_its_own(playing: Tournament) -> None:
    browser = client()
    url = reverse("tournaments:round", args=[playing.slug, 2])
    page = browser.get(url)
    poll = {"HX-Request": "true", "HX-Target": "pairings"}
    fragment = browser.get(url, headers=poll)
    assert fragment.status_code == 200
    assert fragment["ETag"] != page["ETag"]
    assert "HX-Request" in fragment["Vary"]
    assert again(browser, url, fragment, **poll).status_code == 304
    assert again(browser, url, fragment).status_code == 200  # the whole page is not the fragment


def test_organisers_always_get_the_live_page(playing: Tournament, organiser: User) -> None:
    browser = client()
    browser.force_login(organiser)
    response = browser.get(reverse("tournaments:round", args=[playing.slug, 2]))
    assert response.status_code == 200
    assert not response.has_header("ETag")


def test_a_player_signed_in_sees_their_own_table_not_a_cached_visitors_page(
    playing: Tournament,
) -> None:
    browser = client()
    url = reverse("tournaments:detail", args=[playing.slug])
    visitor = browser.get(url)
    seat = Match.objects.filter(round__number=2, is_bye=False)[0].seats.get(seat=0)
    browser.force_login(account(seat))
    mine = again(browser, url, visitor)
    assert mine.status_code == 200
    assert mine["ETag"] != visitor["ETag"]


def test_the_tournament_list_changes_with_any_tournament(playing: Tournament) -> None:
    browser = client()
    url = reverse("tournaments:list")
    first = browser.get(url)
    assert again(browser, url, first).status_code == 304
    make_tournament(2, name="Another Open")
    assert again(browser, url, first).status_code == 200


def test_a_new_visitor_gets_the_table_rendered_for_the_last_one(playing: Tournament) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("tournaments:round", args=[playing.slug, 2])
    with CaptureQueriesContext(connection) as first:
        assert client().get(url).status_code == 200
    with CaptureQueriesContext(connection) as second:
        assert client().get(url).status_code == 200
    assert len(second) < len(first)


def test_a_player_still_finds_their_own_table_marked(playing: Tournament) -> None:
    url = reverse("tournaments:round", args=[playing.slug, 2])
    assert 'class="mine' not in client().get(url).content.decode()
    seat = Match.objects.filter(round__number=2, is_bye=False)[0].seats.get(seat=0)
    browser = client()
    browser.force_login(account(seat))
    assert 'class="mine' in browser.get(url).content.decode()


def test_a_round_number_in_other_digits_is_ignored_not_a_500(playing: Tournament) -> None:
    for name in ("tournaments:standings", "tournaments:standings_csv"):
        response = client().get(reverse(name, args=[playing.slug]), {"round": "²"})
        assert response.status_code == 200


def test_the_standings_table_is_rendered_once_per_version(
    playing: Tournament, organiser: User
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = standings_url(playing)
    with CaptureQueriesContext(connection) as first:
        client().get(url)
    with CaptureQueriesContext(connection) as second:
        before = client().get(url).content.decode()
    assert len(second) < len(first)
    match = Match.objects.filter(round__number=2, round__tournament=playing, is_bye=False)[0]
    winner = match.seats.get(seat=1).entry.player.name
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(1, 5), (1, 9)])
    after = client().get(url).content.decode()
    assert wins_of(winner, after) == wins_of(winner, before) + 1


def wins_of(name: str, page: str) -> int:
    """The matches ``name`` has won, from their line of the standings table."""
    line = re.search(rf">{re.escape(name)}</a>.*?</tr>", page, re.DOTALL)
    assert line is not None
    cells = re.findall(r'<td class="num">([^<]*)</td>', line.group(0))
    return int(cells[0].split("-")[0])  # the W-L column
