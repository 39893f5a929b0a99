"""A member who cannot log in (a forgotten password, or an account made for them with none)
is given a link to choose a new one by an organiser, from the member's page: shown to copy,
print or scan, or sent to the account's e-mail address. It works once."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from club.models import Player
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "kn0bs-and-nibs-31"
LINK = re.compile(r'<code class="invitation-link" id="password-link">([^<]+)</code>')


@pytest.fixture
def bjorn() -> Player:
    """A member whose account was made for him, without a password he knows."""
    user = UserFactory.create(username="bjorn", email="bjorn@example.se")
    user.set_unusable_password()
    user.save()
    return PlayerFactory.create(name="Björn Åkesson", club="Göteborg", user=user)


def reading(client: Client, language: str) -> Client:
    client.cookies["django_language"] = language
    return client


def choose_password(path: str) -> None:
    """What the member does with the link: open it, choose a password."""
    member = Client()
    opened = member.get(path, follow=True)
    assert opened.status_code == 200
    form = opened.redirect_chain[-1][0] if opened.redirect_chain else path
    done = member.post(form, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302, done.content.decode()[:1000]


@pytest.mark.parametrize(
    ("language", "offer", "heading"),
    [
        ("sv", "Visa en lösenordslänk", "Lösenordslänk för Björn Åkesson"),
        ("en", "Show a password link", "Password link for Björn Åkesson"),
    ],
)
def test_an_organiser_hands_a_member_a_link_and_the_member_logs_in_with_it(
    organiser_client: Client, bjorn: Player, language: str, offer: str, heading: str
) -> None:
    client = reading(organiser_client, language)
    page = client.get(reverse("player_detail", args=[bjorn.pk])).content.decode()
    assert offer in page
    shown = client.get(reverse("player_password_link", args=[bjorn.pk])).content.decode()
    assert heading in shown
    assert "bjorn" in shown  # the username to log in with
    found = LINK.search(shown)
    assert found is not None
    path = urlsplit(found.group(1)).path
    choose_password(path)
    assert Client().login(username="bjorn", password=NEW_PASSWORD)
    used = Client().get(path, follow=True).content.decode()
    assert 'name="new_password1"' not in used  # it worked once


@pytest.mark.usefixtures("english")
def test_the_link_is_sent_to_the_accounts_address(organiser_client: Client, bjorn: Player) -> None:
    sent = organiser_client.post(reverse("player_password_link_send", args=[bjorn.pk]), follow=True)
    assert "A link to choose a new password is on its way to bjorn@example.se." in (
        sent.content.decode()
    )
    (letter,) = mail.outbox
    assert letter.to == ["bjorn@example.se"]
    assert "Your username is bjorn." in letter.body
    url = re.search(r"http://testserver(/accounts/password/reset/\S+)", str(letter.body))
    assert url is not None
    choose_password(url.group(1))
    assert Client().login(username="bjorn", password=NEW_PASSWORD)


def test_only_organisers_make_links_and_only_for_open_accounts(
    organiser_client: Client, bjorn: Player
) -> None:
    member = Client()
    member.force_login(UserFactory.create(username="someone"))
    assert member.get(reverse("player_password_link", args=[bjorn.pk])).status_code in (302, 403)
    assert member.post(reverse("player_password_link_send", args=[bjorn.pk])).status_code in (
        302,
        403,
    )
    assert mail.outbox == []
    user = bjorn.user
    assert isinstance(user, User)
    user.is_active = False
    user.save()
    page = organiser_client.get(reverse("player_password_link", args=[bjorn.pk]))
    assert LINK.search(page.content.decode()) is None
    organiser_client.post(reverse("player_password_link_send", args=[bjorn.pk]))
    assert mail.outbox == []
