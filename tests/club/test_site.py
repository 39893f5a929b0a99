"""The site as a whole: languages, accounts, layout and the demo data."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from club.models import Player
from play.models import Challenge
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_swedish_is_the_default_and_english_is_one_switch_away(client: Client) -> None:
    home = client.get(reverse("home"))
    assert '<html lang="sv">' in home.content.decode()
    assert "Medlemmar" in client.get(reverse("player_list")).content.decode()
    switched = client.post(reverse("set_language"), {"language": "en", "next": "/club/"})
    assert switched.headers["Location"] == "/club/"
    page = client.get("/club/").content.decode()
    assert '<html lang="en">' in page
    assert "Members" in page


def test_navigation_offers_the_club_and_log_in(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("player_list")}"' in html
    assert "Logga in" in html


def test_login_and_password_change(client: Client) -> None:
    from tests.factories import UserFactory

    UserFactory.create(username="maja")
    response = client.post(reverse("login"), {"username": "maja", "password": "secret-pass-121"})
    assert response.status_code == 302
    changed = client.post(
        reverse("password_change"),
        {
            "old_password": "secret-pass-121",
            "new_password1": "a-much-longer-pass-29",
            "new_password2": "a-much-longer-pass-29",
        },
    )
    assert changed.headers["Location"] == reverse("password_change_done")
    client.post(reverse("logout"))
    again = client.post(reverse("login"), {"username": "maja", "password": "a-much-longer-pass-29"})
    assert again.status_code == 302


def test_wrong_password_is_refused_with_a_message(client: Client) -> None:
    response = client.post(reverse("login"), {"username": "nobody", "password": "x"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()


def test_htmx_is_served_from_the_project_not_a_cdn(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert "/static/django_htmx/htmx" in html
    # Every script and stylesheet comes from this site: no address with a host in it.
    sources = re.findall(r'<(?:script|link)[^>]*(?:src|href)="([^"]+)"', html)
    assert sources
    assert all(source.startswith("/") and not source.startswith("//") for source in sources)


def test_seed_demo_is_idempotent(demo: str) -> None:
    """Seeding again where the demo is (``demo``: seeded once per test worker) adds nothing."""
    count = Player.objects.count()
    proposals = Challenge.objects.filter(match__isnull=False).count()
    call_command("seed_demo")
    assert count == Player.objects.count() >= 24
    # one championship match played on the site, one of Anna's to answer
    assert proposals == Challenge.objects.filter(match__isnull=False).count() == 2
    anna = Player.objects.get(name="Anna Berg").user
    assert anna is not None
    assert anna.username == "anna"


def test_the_demo_championships_are_played_at_swedish_venues(demo: str) -> None:
    venues = set(Tournament.objects.values_list("venue", flat=True))
    assert venues == {"Folkets hus, Uppsala", "Medborgarhuset, Örebro"}
    page = Client().get("/t/").content.decode()  # Swedish, the site's language
    assert "Simulation" not in page
