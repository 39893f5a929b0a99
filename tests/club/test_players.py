"""The club register as organisers and visitors use it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Player
from tests.factories import PlayerFactory, UserFactory

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db


def add_player(client: Client, **data: str) -> TestResponse:
    form = {"name": "Greta Garbo", "club": "Stockholm", "email": "", "joined": "2024-03-01"}
    form.update(data)
    return client.post(reverse("player_add"), form)


def test_organiser_adds_a_player_and_lands_on_their_page(organiser_client: Client) -> None:
    response = add_player(organiser_client, name="  Åsa Öberg ", club="Umeå")
    player = Player.objects.get()
    assert (player.name, player.club) == ("Åsa Öberg", "Umeå")
    assert response.headers["Location"] == reverse("player_detail", args=[player.pk])
    page = organiser_client.get(response.headers["Location"])
    assert "Åsa Öberg" in page.content.decode()


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"name": ""}, "name", "Detta fält måste fyllas i."),
        ({"name": "   "}, "name", "Detta fält måste fyllas i."),
        ({"club": ""}, "club", "Detta fält måste fyllas i."),
        ({"email": "anna-at-example"}, "email", "Fyll i en giltig e-postadress."),
    ],
)
def test_bad_input_is_refused_next_to_the_field_and_nothing_saved(
    organiser_client: Client, data: dict[str, str], field: str, message: str
) -> None:
    response = add_player(organiser_client, **data)
    assert response.status_code == 200
    assert message in response.context["form"].errors[field]
    assert f'id="id_{field}_error"' in response.content.decode()
    assert not Player.objects.exists()


def test_an_account_links_to_one_player_only(organiser_client: Client) -> None:
    account = UserFactory.create(username="kalle")
    PlayerFactory.create(name="Kalle Anka", user=account)
    response = add_player(organiser_client, user=str(account.pk))
    assert response.status_code == 200
    assert response.context["form"].errors["user"]
    assert Player.objects.count() == 1


def test_two_members_may_share_a_name(organiser_client: Client) -> None:
    add_player(organiser_client, name="Johan Andersson", club="Uppsala")
    add_player(organiser_client, name="Johan Andersson", club="Luleå", add_anyway="1")
    listing = organiser_client.get(reverse("player_list"), {"q": "johan andersson"})
    assert [p.club for p in listing.context["players"]] == ["Luleå", "Uppsala"]


def test_organiser_edits_and_deactivates_and_the_page_still_works(organiser_client: Client) -> None:
    player = PlayerFactory.create(name="Nils Holm", club="Lund")
    organiser_client.post(
        reverse("player_edit", args=[player.pk]),
        {
            "name": "Nils Holmgren",
            "club": "Lund",
            "email": "nils@example.se",
            "joined": "2020-01-01",
        },
    )
    organiser_client.post(reverse("player_set_active", args=[player.pk]), {"active": "0"})
    player.refresh_from_db()
    assert (player.name, player.email, player.active) == ("Nils Holmgren", "nils@example.se", False)
    public = Client().get(reverse("player_detail", args=[player.pk]))
    assert public.status_code == 200
    assert "Nils Holmgren" in public.content.decode()
    members = Client().get(reverse("player_list")).context["players"]
    assert player not in members


@pytest.mark.parametrize("query", ["östlund", "OSTLUND", "Östl", "lund öst", "Gävle"])
def test_search_ignores_case_and_accents_and_matches_club(client: Client, query: str) -> None:
    wanted = PlayerFactory.create(name="Örjan Östlund", club="Gävle")
    PlayerFactory.create(name="Anna Berg", club="Uppsala")
    response = client.get(reverse("player_list"), {"q": query})
    assert list(response.context["players"]) == [wanted]


def test_search_as_you_type_returns_only_the_results_fragment(client: Client) -> None:
    PlayerFactory.create(name="Sofia Ångström", club="Växjö")
    response = client.get(
        reverse("player_list"),
        {"q": "sofia"},
        headers={"HX-Request": "true", "HX-Target": "player-results"},
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="player-results"')
    assert "Sofia Ångström" in html
    assert "<html" not in html


@pytest.mark.parametrize(
    ("method", "name", "args"),
    [
        ("get", "player_add", []),
        ("post", "player_add", []),
        ("get", "player_edit", [1]),
        ("post", "player_set_active", [1]),
    ],
)
def test_visitors_and_players_cannot_change_the_register(
    client: Client, method: str, name: str, args: list[int]
) -> None:
    PlayerFactory.create(pk=1, name="Anna Berg")
    url = reverse(name, args=args)
    anonymous = getattr(client, method)(url, {"name": "X", "club": "Y", "active": "0"})
    assert anonymous.status_code == 302
    assert anonymous.headers["Location"].startswith(reverse("login"))
    client.force_login(UserFactory.create())
    logged_in = getattr(client, method)(url, {"name": "X", "club": "Y", "active": "0"})
    assert logged_in.status_code == 403
    assert Player.objects.get().name == "Anna Berg"
    assert Player.objects.get().active


def test_unknown_pages_get_the_styled_404(client: Client) -> None:
    response = client.get("/club/players/999999/")
    assert response.status_code == 404
    assert "Sidan finns inte" in response.content.decode()
    assert 'class="site-header"' in response.content.decode()


def test_the_database_refuses_a_nameless_player() -> None:
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="", club="Lund")
