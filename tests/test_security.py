"""The site under pressure: a strict Content-Security-Policy on every page and nothing
inline for it to refuse, the 429 page of a rate limit, and the 503 page when the
database cannot be reached (from a view or from a middleware), each in the reader's
language."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import TYPE_CHECKING
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path, reverse
from django_ratelimit.decorators import ratelimit
from pytest_django import Settings

from config.urls import urlpatterns as site_urlpatterns
from tests.factories import OrganiserFactory, PlayerFactory
from tests.play.factories import PracticeGameFactory, owner_of
from tests.tournaments.conftest import make_tournament, play_round
from tournaments.models import Round, Tournament
from tournaments.services import rounds

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db


# A tiny site for these tests: the real one, a rate-limited page and a failing one.
@ratelimit(key="ip", rate="2/m", block=True)  # type: ignore[untyped-decorator]  # django-ratelimit: untyped
def limited(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


urlpatterns = [
    path("limited/", limited),
    path("broken/", broken),
    *site_urlpatterns,
]
handler404 = "club.views.page_not_found"
handler500 = "config.errors.server_error"


class InlineCode(HTMLParser):
    """Everything in a page that a CSP without 'unsafe-inline' refuses."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "style":
            self.found.append("<style>")
        if tag == "script" and "src" not in names:
            self.found.append("<script> without src")
        self.found += [f"{tag} {name}=" for name in names if name == "style"]
        self.found += [f"{tag} {name}=" for name in names if name.startswith("on")]
        self.found += [f"{tag} {name}" for name in names if name in ("hx-on", "hx-vars")]
        self.found += [
            f"{tag} {name}={value}"
            for name, value in attrs
            if value and value.strip().startswith(("javascript:", "js:"))
        ]


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def assert_strict_policy(response: TestResponse) -> None:
    policy = response.headers["Content-Security-Policy"]
    directives = dict(
        (part.split(" ", 1) + [""])[:2] for part in (d.strip() for d in policy.split(";"))
    )
    assert directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["base-uri"] == "'self'"
    assert directives["form-action"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
    # Scripts and styles fall under default-src.
    assert "script-src" not in directives
    assert "style-src" not in directives


@dataclass(frozen=True)
class Championship:
    """A tournament with round 1 played and round 2 published, and its organiser."""

    organiser: User
    tournament: Tournament
    round: Round


@pytest.fixture
def championship() -> Championship:
    organiser = OrganiserFactory.create(username="olle")
    tournament = make_tournament(8)
    play_round(tournament, organiser)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    return Championship(organiser=organiser, tournament=tournament, round=round_)


def site_pages(championship: Championship) -> list[str]:
    slug = championship.tournament.slug
    round_ = championship.round
    player = PlayerFactory.create()
    match = round_.matches.filter(is_bye=False).first()
    assert match is not None
    return [
        reverse("home"),
        reverse("player_list"),
        reverse("player_detail", args=[player.pk]),
        reverse("login"),
        reverse("password_reset"),
        reverse("tournaments:list"),
        reverse("tournaments:detail", args=[slug]),
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:round", args=[slug, 1]),
        reverse("tournaments:round", args=[slug, round_.number]),
        reverse("tournaments:match", args=[slug, match.pk]),
        reverse("play:index"),
        "/no-such-page/",
    ]


def organiser_pages(championship: Championship) -> list[str]:
    slug = championship.tournament.slug
    player = PlayerFactory.create()
    return [
        reverse("lockouts"),
        reverse("account"),
        reverse("player_add"),
        reverse("player_detail", args=[player.pk]),
        reverse("player_invitation_print", args=[player.pk]),
        reverse("tournaments:edit", args=[slug]),
        reverse("tournaments:entries", args=[slug]),
        reverse("tournaments:private_links", args=[slug]),
        reverse("tournaments:round", args=[slug, championship.round.number]),
    ]


def test_every_page_has_the_policy_and_nothing_inline_for_it_to_refuse(
    client: Client, championship: Championship
) -> None:
    for address in site_pages(championship):
        response = client.get(address)
        assert response.status_code in (200, 404), address
        assert_strict_policy(response)
        assert inline_code(response.content.decode()) == [], address
    client.force_login(championship.organiser)
    for address in organiser_pages(championship):
        response = client.get(address)
        assert response.status_code == 200, address
        assert_strict_policy(response)
        assert inline_code(response.content.decode()) == [], address


def test_the_practice_board_draws_its_pegs_without_styles(client: Client) -> None:
    practice = PracticeGameFactory.create()
    client.force_login(owner_of(practice))
    html = client.get(reverse("play:game", args=[practice.pk])).content.decode()
    assert 'data-peg="0-front"' in html
    assert 'transform="translate(' in html
    assert inline_code(html) == []


def test_htmx_neither_adds_a_style_nor_evaluates_code(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    found = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", html)
    assert found is not None
    config = json.loads(found.group(1))
    assert config["includeIndicatorStyles"] is False
    assert config["allowEval"] is False
    # An unchanged poll's empty 304 is not swapped in (a game's page polls with its ETag).
    assert {"code": "304", "swap": False} in config["responseHandling"]


def test_403_and_the_expired_form_page_satisfy_the_policy(client: Client) -> None:
    user = get_user_model().objects.create_user("maja", password="secret-pass-121")
    client.force_login(user)
    denied = client.get(reverse("lockouts"))
    assert denied.status_code == 403
    assert inline_code(denied.content.decode()) == []
    strict = Client(enforce_csrf_checks=True)
    strict.cookies["django_language"] = "en"
    expired = strict.post(reverse("login"), {"username": "maja", "password": "x"})
    assert expired.status_code == 403
    assert "The form has expired" in expired.content.decode()
    assert inline_code(expired.content.decode()) == []


@pytest.mark.urls("tests.test_security")
def test_too_many_requests_get_the_429_page_in_the_readers_language(client: Client) -> None:
    client.cookies["django_language"] = "en"
    assert client.get("/limited/").status_code == 200
    assert client.get("/limited/").status_code == 200
    refused = client.get("/limited/")
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) > 0
    html = refused.content.decode()
    assert '<html lang="en">' in html
    assert "Too many requests from your address; try again in a few minutes." in html
    assert inline_code(html) == []
    assert_strict_policy(refused)
    # Another address is not refused.
    assert client.get("/limited/", REMOTE_ADDR="192.0.2.44").status_code == 200


@pytest.mark.urls("tests.test_security")
def test_a_bug_gets_the_500_page_in_the_readers_language(client: Client) -> None:
    client.raise_request_exception = False
    client.cookies["django_language"] = "en"
    response = client.get("/broken/")
    assert response.status_code == 500
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "The server ran into an error." in html
    assert inline_code(html) == []
    assert_strict_policy(response)
    swedish = Client(raise_request_exception=False).get("/broken/").content.decode()
    assert '<html lang="sv">' in swedish


def database_down(error: type[Exception] = OperationalError) -> AbstractContextManager[object]:
    failure = error("could not connect to server: Connection refused")
    return mock.patch.object(BaseDatabaseWrapper, "ensure_connection", side_effect=failure)


OUTAGE = {
    "en": "The site cannot reach its data just now. Please try again in a minute.",
    "sv": "Webbplatsen når inte sina uppgifter just nu. Försök igen om en minut.",
}


def assert_outage_page(response: TestResponse, *, language: str = "en") -> None:
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "60"
    assert "no-store" in response.headers["Cache-Control"]
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert OUTAGE[language] in html
    assert inline_code(html) == []


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_an_anonymous_page_without_its_database_answers_503(
    client: Client, error: type[Exception], caplog: pytest.LogCaptureFixture
) -> None:
    client.cookies["django_language"] = "en"
    with database_down(error), caplog.at_level(logging.ERROR, logger="config.errors"):
        response = client.get(reverse("home"))
    assert_outage_page(response)
    assert_strict_policy(response)
    logged = [record for record in caplog.records if record.name == "config.errors"]
    assert [record.levelno for record in logged] == [logging.ERROR]
    assert "could not connect to server" in logged[0].getMessage()


def test_the_outage_page_is_in_swedish_by_default(client: Client) -> None:
    with database_down():
        response = client.get(reverse("tournaments:list"))
    assert_outage_page(response, language="sv")


def test_a_page_reading_the_session_without_its_database_answers_503(client: Client) -> None:
    user = get_user_model().objects.create_user("maja", password="secret-pass-121")
    client.force_login(user)
    client.cookies["django_language"] = "en"
    with database_down():
        response = client.get(reverse("player_list"))
    assert_outage_page(response)


class QueryingMiddleware:
    """Stands for any middleware that reads the database before the view."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        get_user_model().objects.exists()
        return self.get_response(request)


@pytest.mark.urls("tests.test_security")
def test_a_middleware_without_its_database_answers_503_too(
    client: Client, settings: Settings
) -> None:
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.test_security.QueryingMiddleware"]
    client.raise_request_exception = False
    client.cookies["django_language"] = "en"
    with database_down():
        response = client.get("/limited/")
    assert_outage_page(response)
