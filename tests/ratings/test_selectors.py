"""Reads of the rating list: the list by club, members' ratings now, a member's history."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from club.models import Player
from ratings import selectors
from tests.tournaments.conftest import make_tournament, play_round

pytestmark = pytest.mark.django_db


def test_a_clubs_members_keep_their_rank_on_the_whole_list(organiser: User) -> None:
    tournament = make_tournament(4)
    for _ in range(2):
        play_round(tournament, organiser)
    everyone = selectors.rating_list()
    assert [line.rank for line in everyone] == [1, 2, 3, 4]
    lund = everyone[1].player
    Player.objects.filter(pk=lund.pk).update(club="Lund")
    only_lund = selectors.rating_list(club="Lund")
    assert [(line.rank, line.player.pk) for line in only_lund] == [(2, lund.pk)]


def test_ratings_now_leave_the_unrated_out(organiser: User) -> None:
    tournament = make_tournament(4)
    play_round(tournament, organiser)
    newcomer = Player.objects.create(name="Ny Spelare", club="Lund")
    players = [entry.player_id for entry in tournament.entries.all()]
    now = selectors.ratings_now([*players, newcomer.pk])
    assert set(now) == set(players)


def test_a_members_history_has_a_point_for_each_round_they_played(organiser: User) -> None:
    tournament = make_tournament(5)
    for _ in range(3):
        play_round(tournament, organiser)
    line = selectors.rating_list()[0]
    history = selectors.rating_history(player=line.player)
    assert [point.tournament for point in history] == ["Test Open"] * len(history)
    assert [point.matches for point in history] == list(range(1, len(history) + 1))
    assert history[-1].rating.rating == line.rating.rating
    numbers = [point.round or 0 for point in history]
    assert numbers == sorted(numbers)
    assert selectors.latest_position() == 3
    assert selectors.list_version() > 0


def test_a_new_rating_is_provisional(organiser: User) -> None:
    play_round(make_tournament(4), organiser)
    assert all(line.provisional for line in selectors.rating_list())
