"""A NUL byte in the club's search box or forms is a form error, never a crash.

PostgreSQL refuses NUL in text, so these run on both databases.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from club.models import Player
from tests.club.test_invitations import invite
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

NUL = "\x00"
NO_NUL = "Null characters are not allowed."


def test_a_nul_in_the_member_search_is_an_error_not_a_crash(organiser_client: Client) -> None:
    PlayerFactory.create(name="Eva Berg", club="Gävle")
    address = reverse("player_list")
    for headers in ({}, {"HX-Request": "true", "HX-Target": "player-results"}):
        response = organiser_client.get(
            address, {"q": f"Eva{NUL}", "inactive": "on"}, headers=headers
        )
        assert response.status_code == 200
        assert NO_NUL in response.content.decode()
    assert "Eva Berg" in organiser_client.get(address, {"q": "Eva"}).content.decode()


@pytest.mark.parametrize("field", ["name", "club", "email"])
def test_a_nul_in_a_new_member_is_refused(organiser_client: Client, field: str) -> None:
    data = {"name": "Eva Berg", "club": "Gävle", "email": "eva@example.se", "add_anyway": "1"}
    response = organiser_client.post(reverse("player_add"), data | {field: f"x{NUL}"})
    assert response.status_code == 200
    assert NO_NUL in response.content.decode()
    assert not Player.objects.exists()


def test_a_nul_in_a_members_edit_is_refused(organiser_client: Client) -> None:
    player = PlayerFactory.create(name="Eva Berg", club="Gävle")
    response = organiser_client.post(
        reverse("player_edit", args=[player.pk]), {"name": "Eva Berg", "club": f"Gävle{NUL}"}
    )
    assert NO_NUL in response.content.decode()
    player.refresh_from_db()
    assert player.club == "Gävle"


@pytest.mark.parametrize("field", ["email", "password"])
def test_a_nul_in_the_account_email_form_is_refused(field: str) -> None:
    user = UserFactory.create(username="eva", email="eva@example.se")
    user.set_password("kn0bs-and-nibs-31")
    user.save()
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "en"
    data = {"email": "new@example.se", "password": "kn0bs-and-nibs-31"}
    response = client.post(reverse("account_email"), data | {field: f"new{NUL}@example.se"})
    assert response.status_code == 200
    assert NO_NUL in response.content.decode()
    user.refresh_from_db()
    assert user.email == "eva@example.se"


def test_a_nul_in_a_new_accounts_username_is_refused(organiser_client: Client) -> None:
    path = invite(organiser_client, PlayerFactory.create(name="Greta", email="greta@example.se"))
    visitor = Client()
    visitor.cookies["django_language"] = "en"
    password = "kn0bs-and-nibs-31"
    response = visitor.post(
        path, {"username": f"greta{NUL}", "password1": password, "password2": password}
    )
    assert response.status_code == 200
    assert NO_NUL in response.content.decode()
    assert not get_user_model().objects.filter(username__startswith="greta").exists()


def test_a_nul_in_the_login_form_is_refused(db: Any) -> None:
    visitor = Client()
    visitor.cookies["django_language"] = "en"
    response = visitor.post(reverse("login"), {"username": f"eva{NUL}", "password": "x"})
    assert response.status_code == 200
    assert NO_NUL in response.content.decode()
