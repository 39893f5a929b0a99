"""A page asked again is answered 304 from the cache, without a query, while its version
and its reader are unchanged; any change a reader would see gives them the fresh page."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from django.contrib import admin, messages
from django.contrib.auth.models import Group, User
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries, DjangoCaptureOnCommitCallbacks, Settings

from config.environment import cache_at
from config.settings import DATABASES
from core import revalidation
from ratings.services import ratings_recompute
from tests.tournaments.conftest import account, make_tournament, seats
from tournaments.access import Actor
from tournaments.admin import TournamentAdmin
from tournaments.models import Match, Tournament
from tournaments.services import results

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db


def visitor(language: str = "en") -> Client:
    """A browser that has been on the site before (it holds the CSRF cookie the pages set)."""
    browser = Client()
    browser.cookies["django_language"] = language
    browser.get(reverse("home"))
    return browser


def pages(tournament: Tournament) -> dict[str, str]:
    match = a_match(tournament)
    return {
        "standings": reverse("tournaments:standings", args=[tournament.slug]),
        "round": reverse("tournaments:round", args=[tournament.slug, 2]),
        "match": reverse("tournaments:match", args=[tournament.slug, match.pk]),
        "tournament": reverse("tournaments:detail", args=[tournament.slug]),
    }


def a_match(tournament: Tournament) -> Match:
    return Match.objects.filter(round__tournament=tournament, round__number=2, is_bye=False)[0]


def again(browser: Client, url: str, copy: TestResponse) -> TestResponse:
    return browser.get(url, headers={"If-None-Match": copy["ETag"]})


def kept_copy(browser: Client, url: str) -> TestResponse:
    """The page as the browser keeps it, after the site has kept its version."""
    first = browser.get(url)
    assert first.status_code == 200
    assert again(browser, url, first).status_code == 304
    return first


@pytest.mark.parametrize("page", ["standings", "round", "match", "tournament"])
def test_an_unchanged_page_is_answered_without_a_query(
    playing: Tournament, page: str, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    browser = visitor()
    url = pages(playing)[page]
    copy = kept_copy(browser, url)
    with django_assert_num_queries(0):
        answer = again(browser, url, copy)
    assert answer.status_code == 304
    assert answer["ETag"] == copy["ETag"]
    assert answer["Last-Modified"] == copy["Last-Modified"]
    assert answer["Cache-Control"] == "private, no-cache"
    assert "Cookie" in answer["Vary"]
    assert "HX-Request" in answer["Vary"]


def test_a_confirmed_result_gives_the_new_standings(
    playing: Tournament, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    browser = visitor()
    url = pages(playing)["standings"]
    copy = kept_copy(browser, url)
    match = a_match(playing)
    first, second = seats(match)
    with django_capture_on_commit_callbacks(execute=True):
        results.match_report_result(
            match=match, by=Actor(user=account(first)), first_dealer=0, games=[(0, 90), (0, 80)]
        )
    assert again(browser, url, copy).status_code == 304  # a report: not in the standings yet
    match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        results.match_confirm(
            match=match, by=Actor(user=account(second)), version=match.report_version
        )
    fresh = again(browser, url, copy)
    assert fresh.status_code == 200
    winner = first.entry.player.name
    assert f">{winner}</a>" in fresh.content.decode()
    row = fresh.content.decode().split(f">{winner}</a>")[1].split("</tr>")[0]
    assert '<td class="num">2-0</td>' in row  # round 1 and now round 2 won


def test_a_report_gives_the_round_page_that_shows_it(playing: Tournament) -> None:
    browser = visitor()
    url = pages(playing)["round"]
    copy = kept_copy(browser, url)
    match = a_match(playing)
    first, _second = seats(match)
    results.match_report_result(
        match=match, by=Actor(user=account(first)), first_dealer=0, games=[(0, 90), (0, 80)]
    )
    fresh = again(browser, url, copy)
    assert fresh.status_code == 200
    assert again(browser, url, fresh).status_code == 304


def test_a_version_kept_before_the_commit_is_not_trusted_after_it(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """A reader that read the data before a change committed (and the marks after its
    first, immediate move) keeps an entry the commit's own move makes out of date."""
    with django_capture_on_commit_callbacks(execute=False) as commits:
        revalidation.moved("tournament:open")
        marks = revalidation.stamp(["tournament:open"])
        revalidation.keep("page", "before the change", marks)
        assert revalidation.fetch(["page"], ["tournament:open"]).good("page") is not None
    for commit in commits:
        commit()
    assert revalidation.fetch(["page"], ["tournament:open"]).good("page") is None


def test_the_other_language_is_another_page(playing: Tournament) -> None:
    browser = visitor("en")
    url = pages(playing)["standings"]
    english = kept_copy(browser, url)
    browser.cookies["django_language"] = "sv"
    swedish = again(browser, url, english)
    assert swedish.status_code == 200
    assert "Ställning" in swedish.content.decode()


def test_another_reader_does_not_get_a_visitors_copy(playing: Tournament) -> None:
    url = pages(playing)["round"]
    copy = kept_copy(visitor(), url)
    player = visitor()
    player.force_login(account(seats(a_match(playing))[0]))
    mine = again(player, url, copy)
    assert mine.status_code == 200
    assert 'class="mine' in mine.content.decode()


def test_a_private_link_opened_in_the_session_gives_the_page_with_the_players_table(
    playing: Tournament, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    """The session's key stays the same when a link is opened; its facts do not."""
    browser = visitor()
    browser.force_login(User.objects.create_user("member"))
    url = pages(playing)["round"]
    copy = kept_copy(browser, url)
    with django_assert_num_queries(0):
        assert again(browser, url, copy).status_code == 304  # a member, from the cache
    session = browser.cookies["sessionid"].value
    browser.get(reverse("private_link", args=[seats(a_match(playing))[0].entry.private_key]))
    assert browser.cookies["sessionid"].value == session
    fresh = again(browser, url, copy)
    assert fresh.status_code == 200
    assert 'class="mine' in fresh.content.decode()


def test_a_reader_made_an_organiser_gets_the_live_page(playing: Tournament) -> None:
    browser = visitor()
    member = User.objects.create_user("member")
    browser.force_login(member)
    url = pages(playing)["round"]
    copy = kept_copy(browser, url)
    member.groups.add(Group.objects.get_or_create(name="organisers")[0])
    live = again(browser, url, copy)
    assert live.status_code == 200
    assert not live.has_header("ETag")


def test_organisers_always_get_the_live_page(playing: Tournament, organiser: User) -> None:
    browser = visitor()
    browser.force_login(organiser)
    url = pages(playing)["standings"]
    first = browser.get(url)
    assert not first.has_header("ETag")
    assert browser.get(url, headers={"If-None-Match": '"anything"'}).status_code == 200


def message_cookie(text: str) -> str:
    """The cookie a page sets for a message to be shown on the next one."""
    storage = CookieStorage(HttpRequest())
    storage.add(messages.SUCCESS, text)
    response = HttpResponse()
    storage.update(response)
    return response.cookies[CookieStorage.cookie_name].value


def test_a_page_with_a_message_waiting_shows_it(playing: Tournament) -> None:
    browser = visitor()
    url = pages(playing)["standings"]
    copy = kept_copy(browser, url)
    browser.cookies[CookieStorage.cookie_name] = message_cookie("Your result is saved.")
    shown = again(browser, url, copy)
    assert shown.status_code == 200
    assert "Your result is saved." in shown.content.decode()


def test_the_polled_fragment_is_not_the_page(playing: Tournament) -> None:
    browser = visitor()
    url = pages(playing)["round"]
    page = kept_copy(browser, url)
    poll = {"HX-Request": "true", "HX-Target": "pairings"}
    assert browser.get(url, headers={"If-None-Match": page["ETag"], **poll}).status_code == 200


@pytest.mark.parametrize(
    "cache",
    [
        pytest.param(lambda: cache_at("dummycache://", database=DATABASES["default"]), id="none"),
        pytest.param(
            lambda: cache_at("redis://127.0.0.1:9/0", database=DATABASES["default"]),
            id="redis down",
        ),
    ],
)
def test_without_a_cache_the_pages_are_as_correct(
    playing: Tournament, settings: Settings, cache: Callable[[], dict[str, object]]
) -> None:
    settings.CACHES = {"default": cache()}
    browser = visitor()
    url = pages(playing)["round"]
    copy = browser.get(url)
    assert again(browser, url, copy).status_code == 304  # from the database
    match = a_match(playing)
    first, _second = seats(match)
    results.match_report_result(
        match=match, by=Actor(user=account(first)), first_dealer=0, games=[(0, 90), (0, 80)]
    )
    assert again(browser, url, copy).status_code == 200


def test_a_new_rating_list_gives_the_round_in_play_its_new_expected_scores(
    playing: Tournament, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    """The round's rows show expected scores from the list; the standings do not."""
    browser = visitor()
    round_page, standings = pages(playing)["round"], pages(playing)["standings"]
    round_copy, standings_copy = kept_copy(browser, round_page), kept_copy(browser, standings)
    ratings_recompute()
    assert again(browser, round_page, round_copy).status_code == 200
    with django_assert_num_queries(0):
        assert again(browser, standings, standings_copy).status_code == 304


def test_a_tournament_deleted_in_the_admin_is_gone_not_a_kept_copy(organiser: User) -> None:
    empty = make_tournament(0, name="Cancelled Open")  # one with entries cannot be deleted
    browser = visitor()
    url = reverse("tournaments:detail", args=[empty.slug])
    copy = kept_copy(browser, url)
    request = HttpRequest()
    request.user = organiser
    TournamentAdmin(Tournament, admin.site).delete_model(request, empty)
    assert again(browser, url, copy).status_code == 404
