"""An account given to another member takes no rated result along: a rated match between
members is theirs who sat down to it (``OnlineGame.player_0``/``player_1``, kept when the
game began), so the stored list stays what a recomputation gives, whichever way the account
is moved (the organiser's form, the admin) and whatever is recomputed afterwards."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from club.models import Player
from play.online import challenge_accept, challenge_create
from ratings.models import ListRating
from ratings.services import ratings_recompute
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.ratings.conftest import stored
from tests.ratings.test_online import member, play_out, started

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def organiser_client(client: Client) -> Client:
    client.force_login(OrganiserFactory.create(username="organiser"))
    return client


def on_the_list() -> dict[str, tuple[int, int]]:
    return {
        line.player.name: (line.matches, line.wins)
        for line in ListRating.objects.select_related("player")
    }


def give_away_by_form(client: Client, account: User, source: Player, target: Player) -> None:
    for player, user in ((source, ""), (target, account.pk)):
        form = {"name": player.name, "club": player.club, "email": player.email, "user": user}
        form["joined"] = player.joined.isoformat() if player.joined else ""
        saved = client.post(reverse("player_edit", args=[player.pk]), form)
        assert saved.status_code == 302, saved.context and saved.context["form"].errors


def give_away_in_admin(client: Client, account: User, source: Player, target: Player) -> None:
    for player, user in ((source, ""), (target, account.pk)):
        form = {"name": player.name, "club": player.club, "email": player.email, "user": user}
        form |= {"joined": player.joined.isoformat() if player.joined else "", "active": "on"}
        saved = client.post(reverse("admin:club_player_change", args=[player.pk]), form)
        assert saved.status_code == 302, saved.context and saved.context["form"].errors


@pytest.mark.parametrize("give_away", [give_away_by_form, give_away_in_admin])
def test_an_account_given_to_another_member_leaves_its_rated_matches_behind(
    organiser_client: Client, give_away: object
) -> None:
    game = play_out(started(rated=True, best_of=3))
    winner = game.pair[game.winner or 0]
    loser = game.pair[1 - (game.winner or 0)]
    winning, losing = winner.player.name, loser.player.name
    assert on_the_list() == {winning: (1, 1), losing: (1, 0)}

    newcomer = PlayerFactory.create(name="Cilla Nyberg", club="Lund")
    client = organiser_client
    if give_away is give_away_in_admin:
        client = Client()
        root = UserFactory.create(username="root", is_staff=True, is_superuser=True)
        client.force_login(root)
    source = Player.objects.get(user=winner)
    give_away(client, winner, source, newcomer)  # type: ignore[operator]
    newcomer.refresh_from_db()
    assert newcomer.user == winner

    before = stored()
    ratings_recompute()
    assert stored() == before  # the list is what a recomputation gives
    assert on_the_list() == {winning: (1, 1), losing: (1, 0)}  # Cilla has played nothing


def test_a_member_with_a_rated_match_is_not_deleted_and_one_without_is() -> None:
    game = play_out(started(rated=True))
    with pytest.raises(ProtectedError):
        Player.objects.get(user=game.seat_0).delete()
    cilla, dan = member("cilla"), member("dan")
    challenge = challenge_create(challenger=cilla, challenged=dan, rated=False)
    casual = play_out(challenge_accept(pk=challenge.pk, member=dan, seed=4))
    Player.objects.get(user=cilla).delete()
    casual.refresh_from_db()
    assert casual.player_0 is None
    assert casual.player_1 == dan.player
