"""A round's pairings page reads its table in the view (``tournaments.pairing_table``), in
as many queries for 32 players as for 8: nothing is read a row at a time, by the view or
by ``{% pairing_rows %}``, which only draws what it is given."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tests.tournaments.conftest import account, make_tournament, play_round, seats
from tournaments.models import Match, Tournament
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

Reader = Callable[[Tournament], Client]


def second_round_in_play(players: int, organiser: User) -> Tournament:
    """Round 1 played and closed (records beside the names, ratings for the expected
    scores), round 2 published with every match unplayed."""
    tournament = make_tournament(players, name=f"Open of {players}")
    play_round(tournament, organiser)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    return tournament


def english() -> Client:
    browser = Client()
    browser.cookies["django_language"] = "en"
    return browser


def spectator(tournament: Tournament) -> Client:
    return english()


def player(tournament: Tournament) -> Client:
    """The player in seat 0 at table 1: their own row is marked."""
    match = Match.objects.get(round__tournament=tournament, round__number=2, table=1)
    browser = english()
    browser.force_login(account(seats(match)[0]))
    return browser


def organiser_of(tournament: Tournament) -> Client:
    browser = english()
    browser.force_login(User.objects.get(username="organiser"))
    return browser


def page_queries(tournament: Tournament, reader: Reader) -> tuple[int, str]:
    """The queries of round 2's page read with nothing cached, and the page."""
    url = reverse("tournaments:round", args=[tournament.slug, 2])
    browser = reader(tournament)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = browser.get(url)
    assert response.status_code == 200
    return len(queries), response.content.decode()


@pytest.mark.parametrize("reader", [spectator, player, organiser_of])
def test_the_round_page_reads_as_much_for_16_tables_as_for_4(
    organiser: User, reader: Reader, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    few, small = page_queries(second_round_in_play(8, organiser), reader)
    assert small.count("expected ") == 4  # each unplayed match's expected scores
    many = second_round_in_play(32, organiser)
    url = reverse("tournaments:round", args=[many.slug, 2])
    browser = reader(many)
    cache.clear()
    with django_assert_max_num_queries(few):
        page = browser.get(url).content.decode()
    assert page.count("expected ") == 16
    assert page.count('class="mine"') == (1 if reader is player else 0)
