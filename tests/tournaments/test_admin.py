"""The Django admin shows results but cannot change them around the engine and the result log."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.conftest import make_tournament, play_round
from tournaments.models import Game, Match, ResultChange, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(UserFactory.create(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def played(organiser: User) -> Tournament:
    tournament = make_tournament(4, swiss_rounds=1)
    play_round(tournament, organiser)
    return tournament


def admin_url(model: type[Model], action: str, *args: Any) -> str:
    return reverse(f"admin:tournaments_{model._meta.model_name}_{action}", args=args)


@pytest.mark.parametrize("model", [Round, Match, Game, ResultChange])
def test_a_result_can_be_read_but_not_added_changed_or_deleted(
    admin_client: Client, played: Tournament, model: type[Model]
) -> None:
    shown = model._default_manager.first()
    assert shown is not None
    page = admin_client.get(admin_url(model, "change", shown.pk))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert admin_client.get(admin_url(model, "add")).status_code == 403
    assert admin_client.post(admin_url(model, "change", shown.pk), {}).status_code == 403
    assert (
        admin_client.post(admin_url(model, "delete", shown.pk), {"post": "yes"}).status_code == 403
    )
    assert model._default_manager.filter(pk=shown.pk).exists()


def test_a_game_keeps_its_score_whatever_the_admin_is_sent(
    admin_client: Client, played: Tournament
) -> None:
    game = Game.objects.filter(match__round__tournament=played).first()
    assert game is not None
    sent = {"match": game.match_id, "number": 1, "dealer": 0, "winner": 1, "loser_score": 3}
    assert admin_client.post(admin_url(Game, "change", game.pk), sent).status_code == 403
    match = game.match
    page = admin_client.get(admin_url(Match, "change", match.pk)).content.decode()
    assert 'name="games-0-loser_score"' not in page  # the match's games are not a form either
    before = (game.winner, game.loser_score, match.winner, match.status)
    game.refresh_from_db()
    match.refresh_from_db()
    assert (game.winner, game.loser_score, match.winner, match.status) == before


def test_a_tournament_is_edited_but_its_status_and_champion_are_the_rounds(
    admin_client: Client, played: Tournament
) -> None:
    page = admin_client.get(admin_url(Tournament, "change", played.pk)).content.decode()
    assert 'name="name"' in page
    assert 'name="status"' not in page
    assert 'name="champion"' not in page
