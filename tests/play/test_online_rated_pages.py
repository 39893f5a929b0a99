"""What the pages of games between members say about rated matches (docs/rating.md): the
waiting time on the challenge, a fourth rated match in a month, and resigning before both
have taken part."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from play.online import challenge_accept, challenge_create, online_resign
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.test_online import until_both_played

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

WAITING = "Rated: a player who has not moved for 72 hours loses the match if the other claims it."


def member(username: str, name: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=name, club="Umeå")
    return user


def logged_in(user: User) -> Client:
    browser = Client()
    browser.cookies["django_language"] = "en"
    browser.force_login(user)
    return browser


def test_a_rated_challenge_shows_the_waiting_time_to_both() -> None:
    anna, bertil = member("anna", "Anna Ek"), member("bertil", "Bertil Ås")
    challenge_create(challenger=anna, challenged=bertil, rated=True)
    for user in (anna, bertil):
        page = logged_in(user).get(reverse("play:lobby")).content.decode()
        assert WAITING in page
    form = logged_in(anna).get(reverse("play:lobby")).content.decode()
    assert "claimed after 72 hours without a move (a loss for who stopped answering)" in form
    assert "At most 3 rated matches against the same member count in a month" in form


def test_the_lobby_says_a_fourth_rated_match_in_a_month_would_not_count() -> None:
    anna, bertil = member("anna", "Anna Ek"), member("bertil", "Bertil Ås")
    for seed in range(3):
        challenge = challenge_create(challenger=anna, challenged=bertil, rated=True)
        game = until_both_played(challenge_accept(pk=challenge.pk, member=bertil, seed=seed))
        online_resign(pk=game.pk, member=bertil)
    challenge_create(challenger=anna, rated=True)  # open to anyone: bertil sees it
    page = logged_in(bertil).get(reverse("play:lobby")).content.decode()
    assert "You and Anna Ek have 3 rated matches this month" in page
    response = logged_in(bertil).post(
        reverse("play:challenge"), {"opponent": anna.pk, "best_of": 1, "rated": "on"}
    )
    assert response.status_code == 400
    assert "You and Anna Ek have 3 rated matches this month" in response.content.decode()


def test_the_resign_area_says_whether_resigning_is_rated() -> None:
    anna, bertil = member("anna", "Anna Ek"), member("bertil", "Bertil Ås")
    challenge = challenge_create(challenger=anna, challenged=bertil, rated=True, best_of=3)
    game = challenge_accept(pk=challenge.pk, member=bertil, seed=5)
    url = reverse("play:online_game", args=[game.pk])
    page = logged_in(anna).get(url).content.decode()
    assert "Not rated yet: resigned before the first hand has been shown" in page
    until_both_played(game)
    page = logged_in(anna).get(url).content.decode()
    assert "Rated: resigning counts as a lost match on the rating list." in page
    assert "Not rated yet" not in page
