"""One rule of who may see a game between members (``play.online_selectors.seen_by``): its
two players, and anyone a championship match played on the site. The game's page, its
poll and its review all answer by it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.urls import reverse

from play.models import OnlineGame
from play.online import challenge_accept, challenge_create
from play.online_selectors import online_version, seen_by
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def member(username: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=username.title(), club="Umeå")
    return user


def test_a_game_between_members_is_seen_by_its_two_players_alone() -> None:
    anna, bo, cilla = member("anna"), member("bo"), member("cilla")
    challenge = challenge_create(challenger=anna, challenged=bo)
    game = challenge_accept(pk=challenge.pk, member=bo, seed=5)
    for reader, sees in ((anna, True), (bo, True), (cilla, False), (AnonymousUser(), False)):
        assert OnlineGame.objects.filter(seen_by(reader), pk=game.pk).exists() is sees
        assert (online_version(game.pk, reader) is not None) is sees
        client = Client()
        if isinstance(reader, User):
            client.force_login(reader)
        answer = client.get(reverse("play:online_game", args=[game.pk]))
        if sees:
            assert answer.status_code == 200
        elif isinstance(reader, User):
            assert answer.status_code == 404
        else:
            assert answer.status_code == 302  # sent to log in
        poll = client.get(reverse("play:online_table", args=[game.pk]))
        assert (poll.status_code == 200) is sees
