"""A player's home page shows their match now: table, opponent and the report button."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.conftest import account, make_tournament, play_round, seats
from tournaments.models import Match, Tournament
from tournaments.services import playoff, results, rounds

pytestmark = pytest.mark.django_db


def english(user: User | None = None) -> Client:
    browser = Client(headers={"Accept-Language": "en"})
    if user is not None:
        browser.force_login(user)
    return browser


def published(tournament: Tournament) -> Match:
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    return round_.matches.filter(is_bye=False).order_by("table").first()  # type: ignore[return-value]


def test_a_player_sees_their_match_now_on_the_home_page(tournament: Tournament) -> None:
    match = published(tournament)
    me, them = seats(match)
    home = english(account(me)).get(reverse("home")).content.decode()
    assert f"Your match now: {tournament.name}, round 1" in home
    assert f"Table {match.table} · against {them.entry.player.name}" in home
    assert reverse("tournaments:match", args=[tournament.slug, match.pk]) in home
    assert "Report or confirm the result" in home


def test_the_match_now_is_in_swedish_on_a_swedish_page(tournament: Tournament) -> None:
    match = published(tournament)
    me, _them = seats(match)
    browser = Client()
    browser.force_login(account(me))
    home = browser.get(reverse("home")).content.decode()
    assert f"Din match nu: {tournament.name}, rond 1" in home
    assert f"Bord {match.table}" in home


def test_a_private_link_opened_in_this_visit_shows_the_match_too() -> None:
    tournament = make_tournament(accounts=False)
    match = published(tournament)
    me, _them = seats(match)
    browser = english()
    browser.get(reverse("private_link", kwargs={"key": me.entry.private_key}))
    home = browser.get(reverse("home")).content.decode()
    assert f"Table {match.table}" in home
    assert "Your match now" in home


def test_nobody_else_sees_a_match_now(tournament: Tournament) -> None:
    published(tournament)
    assert "Your match now" not in english().get(reverse("home")).content.decode()
    stranger = UserFactory.create()
    assert "Your match now" not in english(stranger).get(reverse("home")).content.decode()


def test_a_match_now_only_while_its_round_is_being_played(
    tournament: Tournament, organiser: User
) -> None:
    round_ = rounds.round_propose(tournament=tournament)
    me = seats(round_.matches.filter(is_bye=False).first())[0]  # type: ignore[arg-type]
    browser = english(account(me))
    assert "Your match now" not in browser.get(reverse("home")).content.decode()
    rounds.round_publish(round=round_)
    assert "Your match now" in browser.get(reverse("home")).content.decode()
    for match in round_.matches.filter(is_bye=False):
        results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 90)] * 2)
    rounds.round_close(round=round_)
    assert "Your match now" not in browser.get(reverse("home")).content.decode()  # between rounds
    while tournament.rounds.count() < tournament.swiss_rounds:
        play_round(tournament, organiser)
    playoff.tournament_finish(tournament=tournament)
    assert "Your match now" not in browser.get(reverse("home")).content.decode()
