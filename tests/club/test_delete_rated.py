"""A member with results on the rating list is never deleted, in the admin or anywhere: the
database refuses it and the admin says what to do instead (club/admin.py), so the list
stays what its results give."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from club.models import Player
from play.models import OnlineGame
from play.online import challenge_accept, challenge_create, online_resign
from ratings.models import ListRating
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.conftest import stored
from tests.ratings.test_online import until_both_played

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

WHAT_TO_DO = "Deactivate the member in the register instead (or close the account)"


def member(username: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=username.title(), club="Lund")
    return user


def rated_match(*, both_played: bool = True) -> OnlineGame:
    anna, bo = member("anna"), member("bo")
    challenge = challenge_create(challenger=anna, challenged=bo, rated=True)
    game = challenge_accept(pk=challenge.pk, member=bo, seed=4)
    if both_played:
        game = until_both_played(game)
    return online_resign(pk=game.pk, member=bo)


def admin_client() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    client.force_login(User.objects.create_superuser("root", "root@example.org", "pw-12345678"))
    return client


def test_deleting_an_account_with_rated_matches_is_refused_and_the_list_stays() -> None:
    game = rated_match()
    before = stored()
    assert ListRating.objects.count() == 2
    with pytest.raises(ProtectedError):
        game.pair[1].delete()
    assert stored() == before
    assert OnlineGame.objects.filter(pk=game.pk).exists()


def test_the_admin_refuses_to_delete_a_rated_member_and_says_what_to_do() -> None:
    game = rated_match()
    before = stored()
    client = admin_client()
    for url in (
        reverse("admin:auth_user_delete", args=[game.pair[1].pk]),
        reverse("admin:club_player_delete", args=[game.pair[1].player.pk]),
    ):
        page = client.get(url).content.decode()
        assert "would require deleting the following protected related objects" in page
        assert WHAT_TO_DO in page
        client.post(url, {"post": "yes"})
    # The bulk action of the list page too.
    client.post(
        reverse("admin:auth_user_changelist"),
        {"action": "delete_selected", "_selected_action": [game.pair[1].pk], "post": "yes"},
    )
    assert User.objects.filter(pk=game.pair[1].pk).exists()
    assert Player.objects.filter(pk=game.pair[1].player.pk).exists()
    assert stored() == before


def test_an_account_whose_rated_match_was_not_rated_may_be_deleted() -> None:
    game = rated_match(both_played=False)
    assert not ListRating.objects.exists()
    game.pair[1].delete()
    assert not OnlineGame.objects.filter(pk=game.pk).exists()
