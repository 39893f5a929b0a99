"""Accounts: password reset by e-mail, closing accounts, one's own e-mail address,
and the same-name check when adding a member (the e-mail settings:
tests/config/test_environment.py)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from club.models import Player
from tests.factories import PlayerFactory, UserFactory

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.usefixtures("english")

PASSWORD = "secret-pass-121"  # the factories' password
NEW_PASSWORD = "muggins-at-the-crib-29"


def visitor() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def can_log_in(username: str, password: str) -> bool:
    return Client().login(username=username, password=password)


# Password reset


def ask_for_reset(email: str) -> tuple[TestResponse, str]:
    """Ask for a reset link; return the response and the page's text, CSRF tokens left out."""
    client = visitor()
    response = client.post(reverse("password_reset"), {"email": email}, follow=True)
    html = response.content.decode()
    return response, re.sub(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"', "", html)


@pytest.mark.django_db
def test_the_login_page_offers_a_password_reset(client: Client) -> None:
    html = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in html
    assert "Forgot your password?" in html


@pytest.mark.django_db
def test_reset_mail_goes_to_a_known_address_and_an_unknown_one_looks_the_same() -> None:
    UserFactory.create(username="maja", email="maja@example.se")
    known, known_page = ask_for_reset("maja@example.se")
    unknown, unknown_page = ask_for_reset("nobody@example.se")
    assert known.redirect_chain == unknown.redirect_chain == [(reverse("password_reset_done"), 302)]
    assert "If an account has this address, we have sent a link" in known_page
    assert known_page == unknown_page
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["maja@example.se"]
    assert "Your username is maja" in mail.outbox[0].body


@pytest.fixture
def one_instant(monkeypatch: pytest.MonkeyPatch) -> None:
    """The throttles' clock stands still, so a burst cannot straddle two of their windows."""
    import django_ratelimit.core

    clock = type("Clock", (), {"time": staticmethod(lambda: 1_800_000_000.0)})
    monkeypatch.setattr(django_ratelimit.core, "time", clock)


@pytest.mark.django_db
@pytest.mark.usefixtures("one_instant")
def test_three_reset_mails_an_hour_reach_one_address_and_the_page_never_tells() -> None:
    UserFactory.create(username="maja", email="maja@example.se")
    pages = [ask_for_reset(email)[1] for email in ["maja@example.se"] * 3 + ["MAJA@example.se"]]
    assert len(mail.outbox) == 3
    _, unknown_page = ask_for_reset("nobody@example.se")
    assert pages[0] == pages[3] == unknown_page  # past the limit, the same answer
    UserFactory.create(username="bo", email="bo@example.se")
    ask_for_reset("bo@example.se")  # another address still gets its mail
    assert [message.to for message in mail.outbox[3:]] == [["bo@example.se"]]


@pytest.mark.django_db
@pytest.mark.usefixtures("one_instant")
def test_one_client_may_ask_for_ten_resets_in_ten_minutes() -> None:
    for n in range(11):
        UserFactory.create(username=f"player{n}", email=f"player{n}@example.se")
    answers = [ask_for_reset(f"player{n}@example.se")[0] for n in range(11)]
    assert len(mail.outbox) == 10
    assert {tuple(answer.redirect_chain) for answer in answers} == {
        ((reverse("password_reset_done"), 302),)
    }
    elsewhere = Client(REMOTE_ADDR="192.0.2.7")
    elsewhere.post(reverse("password_reset"), {"email": "player10@example.se"})
    assert mail.outbox[-1].to == ["player10@example.se"]


@pytest.mark.django_db
def test_the_reset_link_sets_a_new_password() -> None:
    UserFactory.create(username="maja", email="maja@example.se")
    ask_for_reset("maja@example.se")
    link = re.search(r"https?://\S+/accounts/password/reset/\S+/", str(mail.outbox[0].body))
    assert link
    client = visitor()
    form_page = client.get(urlsplit(link.group(0)).path, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert "Your new password is in use." in done.content.decode()
    assert can_log_in("maja", NEW_PASSWORD)
    assert not can_log_in("maja", PASSWORD)
    used_again = visitor().get(urlsplit(link.group(0)).path, follow=True)
    assert "This link does not work" in used_again.content.decode()


# Closing accounts


@pytest.mark.django_db
def test_a_closed_account_cannot_log_in_until_reopened(organiser_client: Client) -> None:
    player = PlayerFactory.create(name="Karin Wallén", user=UserFactory.create(username="karin"))
    url = reverse("player_account_set_active", args=[player.pk])
    closed = organiser_client.post(url, {"active": "0"}, follow=True)
    assert "is closed: they can no longer log in" in closed.content.decode()
    assert not can_log_in("karin", PASSWORD)
    refused = visitor().post(reverse("login"), {"username": "karin", "password": PASSWORD})
    assert refused.status_code == 200
    assert "Please enter a correct username and password" in refused.content.decode()
    ask_for_reset("karin@example.se")
    assert mail.outbox == []

    organiser_client.post(url, {"active": "1"})
    assert can_log_in("karin", PASSWORD)


@pytest.mark.django_db
def test_closing_an_account_logs_its_sessions_out(organiser_client: Client) -> None:
    account = UserFactory.create(username="karin")
    player = PlayerFactory.create(user=account)
    karin = visitor()
    karin.force_login(account)
    assert karin.get(reverse("account")).status_code == 200
    organiser_client.post(reverse("player_account_set_active", args=[player.pk]), {"active": "0"})
    assert karin.get(reverse("account")).status_code == 302  # to the login page


@pytest.mark.django_db
def test_deactivating_a_member_closes_their_account_when_ticked(organiser_client: Client) -> None:
    player = PlayerFactory.create(name="Nils Holm", user=UserFactory.create(username="nils"))
    page = organiser_client.get(reverse("player_detail", args=[player.pk])).content.decode()
    assert 'name="close_account" value="1" checked' in page
    url = reverse("player_set_active", args=[player.pk])
    done = organiser_client.post(url, {"active": "0", "close_account": "1"}, follow=True)
    assert "their account closed" in done.content.decode()
    assert not can_log_in("nils", PASSWORD)
    # Back on the register, the account stays closed until reopened on purpose.
    organiser_client.post(url, {"active": "1"})
    assert not can_log_in("nils", PASSWORD)
    page = organiser_client.get(reverse("player_detail", args=[player.pk])).content.decode()
    assert "Reopen account" in page


@pytest.mark.django_db
def test_deactivating_a_member_without_the_tick_leaves_the_account(
    organiser_client: Client,
) -> None:
    player = PlayerFactory.create(user=UserFactory.create(username="nils"))
    organiser_client.post(reverse("player_set_active", args=[player.pk]), {"active": "0"})
    assert can_log_in("nils", PASSWORD)


@pytest.mark.django_db
def test_an_organiser_cannot_close_their_own_account(
    organiser_client: Client, organiser: User
) -> None:
    player = PlayerFactory.create(user=organiser)
    url = reverse("player_account_set_active", args=[player.pk])
    refused = organiser_client.post(url, {"active": "0"}, follow=True)
    assert "You cannot close your own account." in refused.content.decode()
    assert can_log_in("olle", PASSWORD)


# One's own e-mail address


@pytest.mark.django_db
def test_a_player_changes_their_email_and_resets_go_there() -> None:
    user = UserFactory.create(username="anna", email="old@example.se")
    player = PlayerFactory.create(name="Anna Berg", email="old@example.se", user=user)
    client = visitor()
    client.force_login(user)
    page = client.get(reverse("account")).content.decode()
    assert 'value="old@example.se"' in page
    saved = client.post(
        reverse("account_email"), {"email": "anna@example.se", "password": PASSWORD}, follow=True
    )
    assert "Your e-mail address was saved." in saved.content.decode()
    player.refresh_from_db()
    user.refresh_from_db()
    assert player.email == user.email == "anna@example.se"
    ask_for_reset("anna@example.se")
    assert mail.outbox[0].to == ["anna@example.se"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"email": "anna@example.se", "password": "wrong"}, "That is not your current password."),
        ({"email": "anna-at-example", "password": PASSWORD}, "Enter a valid email address."),
    ],
)
def test_an_email_change_needs_the_password_and_a_real_address(
    data: dict[str, str], message: str
) -> None:
    user = UserFactory.create(username="anna", email="old@example.se")
    PlayerFactory.create(email="old@example.se", user=user)
    client = visitor()
    client.force_login(user)
    refused = client.post(reverse("account_email"), data)
    assert refused.status_code == 200
    assert message in refused.content.decode()
    user.refresh_from_db()
    assert user.email == "old@example.se"
    assert Player.objects.get().email == "old@example.se"


@pytest.mark.django_db
def test_an_organiser_correcting_the_address_corrects_the_account_too(
    organiser_client: Client,
) -> None:
    user = UserFactory.create(username="anna", email="old@example.se")
    player = PlayerFactory.create(
        name="Anna Berg", club="Uppsala", email="old@example.se", user=user
    )
    organiser_client.post(
        reverse("player_edit", args=[player.pk]),
        {
            "name": "Anna Berg",
            "club": "Uppsala",
            "email": "anna@example.se",
            "joined": "2020-01-01",
            "user": str(user.pk),
        },
    )
    user.refresh_from_db()
    assert user.email == "anna@example.se"


# No silent twins


@pytest.mark.django_db
def test_adding_a_member_with_a_known_name_asks_first(organiser_client: Client) -> None:
    johan = PlayerFactory.create(name="Johan Andersson", club="Uppsala")
    form = {"name": "johan andersson", "club": "Luleå", "email": "", "joined": "2024-03-01"}
    asked = organiser_client.post(reverse("player_add"), form)
    html = asked.content.decode()
    assert asked.status_code == 200
    assert "Is this the same person?" in html
    assert f'href="{reverse("player_detail", args=[johan.pk])}"' in html
    assert "Uppsala" in html
    assert Player.objects.count() == 1

    added = organiser_client.post(reverse("player_add"), {**form, "add_anyway": "1"})
    new = Player.objects.get(club="Luleå")
    assert added.headers["Location"] == reverse("player_detail", args=[new.pk])
    assert Player.objects.count() == 2


@pytest.mark.django_db
def test_a_new_name_is_added_without_questions(organiser_client: Client) -> None:
    PlayerFactory.create(name="Johan Andersson", club="Uppsala")
    form = {"name": "Johan Anders", "club": "Luleå", "email": "", "joined": "2024-03-01"}
    assert organiser_client.post(reverse("player_add"), form).status_code == 302
