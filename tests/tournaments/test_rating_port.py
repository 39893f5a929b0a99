"""What the tournaments ask of a rating list goes through one declared port
(``tournaments.ports.RatingList``, chosen by ``TOURNAMENTS_RATING_LIST``): the tournaments
run without one, and whatever list the setting names is the one asked."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from tests.tournaments.test_seeded_round_one import rated_members, tournament_of
from tournaments.models import Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


class FixedRatings:
    """A rating list of its own: each player's id as their rating, version 7."""

    def ratings_now(self, players: Iterable[int]) -> dict[int, float]:
        return {player: 1000.0 + player for player in players}

    def expected_scores(self, pairs: Mapping[int, tuple[int, int]]) -> dict[int, float]:
        return dict.fromkeys(pairs, 0.25)

    def version(self) -> int:
        return 7


def round_page(round_: Round) -> str:
    client = Client()
    client.cookies["django_language"] = "en"
    address = reverse("tournaments:round", args=[round_.tournament.slug, round_.number])
    return client.get(address).content.decode()


def test_without_a_rating_list_round_one_by_rating_has_no_ratings_and_no_expected_scores(
    organiser: User, settings: Settings
) -> None:
    tournament = tournament_of(rated_members(organiser))  # rated on the club's list
    del settings.TOURNAMENTS_RATING_LIST
    round_ = rounds.round_propose(tournament=tournament)
    assert [line["rating"] for line in round_.explanation["seeding"]] == [None] * 9
    rounds.round_publish(round=round_)
    assert "expected" not in round_page(round_)


def test_the_rating_list_the_setting_names_is_the_one_asked(
    organiser: User, settings: Settings
) -> None:
    tournament = tournament_of(rated_members(organiser))
    settings.TOURNAMENTS_RATING_LIST = f"{__name__}.FixedRatings"
    round_ = rounds.round_propose(tournament=tournament)
    seeding = round_.explanation["seeding"]
    players = dict(tournament.entries.values_list("pk", "player_id"))
    assert [line["rating"] for line in seeding] == [
        1000.0 + players[line["player"]] for line in seeding
    ]
    assert [line["rating"] for line in seeding] == sorted(
        (line["rating"] for line in seeding), reverse=True
    )
    rounds.round_publish(round=round_)
    assert round_page(round_).count("expected 25–75 %") == 4
