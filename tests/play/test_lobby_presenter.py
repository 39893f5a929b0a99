"""The lobby reads each challenge's rated note for all its challenges at once
(``play.lobby_presenter``): a page with four rated challenges of each kind costs the
queries of a page with one, as does the home page's summary of the challenges to answer."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from play.online import challenge_create
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

WAITING = "Rated: a player who has not moved for 72 hours loses the match if the other claims it."


def member(username: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=f"Player {username}", club="Umeå")
    return user


def challenges_around(anna: User, count: int, start: int) -> None:
    """``count`` rated challenges to ``anna``, ``count`` of hers, ``count`` open to anyone."""
    for number in range(start, start + count):
        challenge_create(challenger=member(f"to-{number}"), challenged=anna, rated=True)
        challenge_create(challenger=anna, challenged=member(f"by-{number}"), rated=True)
        challenge_create(challenger=member(f"open-{number}"), rated=True)


def logged_in(user: User) -> Client:
    browser = Client()
    browser.cookies["django_language"] = "en"
    browser.force_login(user)
    return browser


@pytest.mark.parametrize(("page", "notes"), [("play:lobby", 3), ("home", 0)])
def test_more_rated_challenges_cost_no_more_queries(
    page: str, notes: int, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    anna = member("anna")
    browser = logged_in(anna)
    challenges_around(anna, 1, start=0)
    with CaptureQueriesContext(connection) as few:
        shown = browser.get(reverse(page)).content.decode()
    assert shown.count(WAITING) == notes
    assert "Player to-0" in shown
    challenges_around(anna, 3, start=1)
    with django_assert_max_num_queries(len(few)):
        shown = browser.get(reverse(page)).content.decode()
    assert shown.count(WAITING) == 4 * notes
    assert "Player to-3" in shown
