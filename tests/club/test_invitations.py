"""Invitations: an organiser gives a player on the register a link; the player makes an account."""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model, password_validation
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings

from club import invitations
from club.models import Player
from tests.factories import PlayerFactory, UserFactory

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

NEW_PASSWORD = "kn0bs-and-nibs-31"


def invite(organiser_client: Client, player: Player) -> str:
    """Press "Invite" (or "New link") on the player's page; return the link it shows."""
    response = organiser_client.post(reverse("player_invite", args=[player.pk]), follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    found = re.search(r'<code class="invitation-link"[^>]*>([^<]+)</code>', html)
    assert found, "the player's page shows the link"
    return urlsplit(found.group(1)).path


def visitor() -> Client:
    """Someone not logged in, reading English."""
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def accept(path: str, username: str = "greta", password: str = NEW_PASSWORD) -> TestResponse:
    data = {"username": username, "password1": password, "password2": password}
    return visitor().post(path, data)


def can_log_in(username: str, password: str) -> bool:
    return Client().login(username=username, password=password)


def in_days(days: int) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(days=days)


@pytest.fixture
def greta() -> Player:
    return PlayerFactory.create(name="Greta Garbo", club="Stockholm", email="greta@example.se")


def test_invited_player_makes_an_account_and_is_logged_in(
    organiser_client: Client, greta: Player
) -> None:
    path = invite(organiser_client, greta)
    player = visitor()
    page = player.get(path)
    assert page.status_code == 200
    assert "Welcome, Greta Garbo" in page.content.decode()

    made = player.post(
        path, {"username": "greta", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD}
    )
    assert made.headers["Location"] == reverse("account")
    account_page = player.get(reverse("account")).content.decode()
    assert "Your account is ready and you are logged in" in account_page
    assert "greta" in account_page
    greta.refresh_from_db()
    assert greta.user is not None
    assert (greta.user.username, greta.user.email) == ("greta", "greta@example.se")
    assert can_log_in("greta", NEW_PASSWORD)


def test_the_link_works_once(organiser_client: Client, greta: Player) -> None:
    path = invite(organiser_client, greta)
    assert accept(path).status_code == 302
    again = visitor().get(path)
    assert again.status_code == 410
    assert "has been used already" in again.content.decode()
    assert "log in with the username and password you chose" in again.content.decode()
    second = accept(path, username="someone-else")
    assert second.status_code == 410
    assert not get_user_model().objects.filter(username="someone-else").exists()


@pytest.mark.parametrize(("days", "works"), [(13, True), (15, False)])
def test_the_link_expires_after_14_days(
    organiser_client: Client,
    greta: Player,
    monkeypatch: pytest.MonkeyPatch,
    days: int,
    works: bool,
) -> None:
    path = invite(organiser_client, greta)
    monkeypatch.setattr(invitations, "_now", lambda: in_days(days))
    page = visitor().get(path)
    if works:
        assert page.status_code == 200
        assert accept(path).status_code == 302
    else:
        assert page.status_code == 410
        assert "This invitation link has expired" in page.content.decode()
        assert "Ask one of the club's organisers for a new invitation link" in page.content.decode()
        assert accept(path).status_code == 410
        assert not get_user_model().objects.filter(username="greta").exists()


def test_a_new_invitation_ends_the_old_link(organiser_client: Client, greta: Player) -> None:
    old = invite(organiser_client, greta)
    new = invite(organiser_client, greta)
    assert old != new
    refused = visitor().get(old)
    assert refused.status_code == 404
    assert "a newer invitation may have replaced it" in refused.content.decode()
    assert accept(old).status_code == 404
    assert accept(new).status_code == 302


def test_a_link_signed_before_the_secret_key_was_rotated_still_works(
    organiser_client: Client, greta: Player, settings: Settings
) -> None:
    """A new SECRET_KEY with the old one among SECRET_KEY_FALLBACKS keeps the links given out."""
    path = invite(organiser_client, greta)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-" + "x" * 40
    assert visitor().get(path).status_code == 200
    settings.SECRET_KEY_FALLBACKS = []
    assert visitor().get(path).status_code == 404


def test_one_players_link_does_not_open_anothers(organiser_client: Client, greta: Player) -> None:
    other = PlayerFactory.create(name="Olle Annan")
    token = invite(organiser_client, greta).rstrip("/").rsplit("/", 1)[1]
    other_path = reverse("invitation_accept", args=[other.pk, token])
    invite(organiser_client, other)
    assert visitor().get(other_path).status_code == 404
    assert accept(other_path, username="olle-new").status_code == 404
    assert not get_user_model().objects.filter(username="olle-new").exists()


def test_a_link_of_the_old_form_says_to_ask_for_it_again(
    organiser_client: Client, greta: Player
) -> None:
    """Links made before the tokens were Django signatures (a reset token's form)."""
    invite(organiser_client, greta)
    old = reverse("invitation_accept", args=[greta.pk, "ct5x1a-0123456789abcdef0123"])
    page = visitor().get(old)
    assert page.status_code == 410
    assert "made before an update of the site" in page.content.decode()
    assert "an organiser can show or send you again" in page.content.decode()


def test_a_made_up_or_mangled_link_gets_the_same_clear_page(greta: Player) -> None:
    for path in (
        reverse("invitation_accept", args=[greta.pk, "abc-123"]),
        reverse("invitation_accept", args=[greta.pk, "nonsense"]),
        reverse("invitation_accept", args=[99999, "abc-123"]),
    ):
        page = visitor().get(path)
        assert page.status_code == 404
        assert "This invitation link does not work" in page.content.decode()


def test_deactivating_the_player_ends_their_invitation(
    organiser_client: Client, greta: Player
) -> None:
    path = invite(organiser_client, greta)
    organiser_client.post(reverse("player_set_active", args=[greta.pk]), {"active": "0"})
    assert visitor().get(path).status_code == 404
    page = organiser_client.get(reverse("player_detail", args=[greta.pk])).content.decode()
    assert "Make the player active again to invite them" in page


def test_an_invitation_stays_ended_when_the_player_comes_back(
    organiser_client: Client, greta: Player
) -> None:
    old = invite(organiser_client, greta)
    set_active = reverse("player_set_active", args=[greta.pk])
    organiser_client.post(set_active, {"active": "0"})
    organiser_client.post(set_active, {"active": "1"})
    refused = visitor().get(old)
    assert refused.status_code == 404
    assert "This invitation link does not work" in refused.content.decode()
    assert accept(old).status_code == 404
    greta.refresh_from_db()
    assert greta.user is None
    page = organiser_client.get(reverse("player_detail", args=[greta.pk])).content.decode()
    assert 'class="invitation-link"' not in page  # no open invitation to hand out
    new = invite(organiser_client, greta)
    assert new != old
    assert accept(new).status_code == 302
    assert can_log_in("greta", NEW_PASSWORD)


def test_an_invitation_stays_ended_when_the_admin_brings_the_player_back(
    organiser_client: Client, greta: Player
) -> None:
    old = invite(organiser_client, greta)
    root = Client()
    root.force_login(UserFactory.create(username="root", is_staff=True, is_superuser=True))
    change = reverse("admin:club_player_change", args=[greta.pk])
    fields = {"name": greta.name, "club": greta.club, "email": greta.email, "user": ""}
    for active in ("", "on"):
        form = {**fields, "joined": greta.joined.isoformat() if greta.joined else ""}
        saved = root.post(change, {**form, **({"active": active} if active else {})})
        assert saved.status_code == 302, saved.content.decode()[:2000]
        greta.refresh_from_db()
        assert greta.active is bool(active)
    assert visitor().get(old).status_code == 404
    assert accept(old).status_code == 404


def test_a_taken_username_is_refused_clearly(organiser_client: Client, greta: Player) -> None:
    UserFactory.create(username="greta")
    path = invite(organiser_client, greta)
    refused = accept(path, username="Greta")
    assert refused.status_code == 200
    assert "The username Greta is taken; choose another." in refused.content.decode()
    greta.refresh_from_db()
    assert greta.user is None
    assert accept(path, username="greta.g").status_code == 302


def test_a_username_taken_while_accepting_is_refused_clearly(
    organiser_client: Client, greta: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = invite(organiser_client, greta)
    validate = password_validation.validate_password

    def someone_else_takes_the_name_meanwhile(password: str, user: object = None) -> None:
        # Another player's invitation makes "greta" after this one checked the name.
        UserFactory.create(username="greta")
        validate(password, user)  # type: ignore[arg-type]

    monkeypatch.setattr(
        password_validation, "validate_password", someone_else_takes_the_name_meanwhile
    )
    refused = accept(path, username="greta")
    assert refused.status_code == 200
    assert "The username greta is taken; choose another." in refused.content.decode()
    greta.refresh_from_db()
    assert greta.user is None


def test_the_password_validators_apply(organiser_client: Client, greta: Player) -> None:
    path = invite(organiser_client, greta)
    refused = accept(path, password="12345678")
    assert refused.status_code == 200
    assert "This password is too common." in refused.content.decode()
    mismatch = visitor().post(
        path, {"username": "greta", "password1": NEW_PASSWORD, "password2": "other-pass-99"}
    )
    assert "didn’t match" in mismatch.content.decode()
    assert not get_user_model().objects.filter(username="greta").exists()


def test_someone_logged_in_is_asked_to_log_out_first(
    organiser_client: Client, greta: Player
) -> None:
    path = invite(organiser_client, greta)
    page = organiser_client.get(path).content.decode()
    assert "You are logged in as olle" in page
    assert 'name="password1"' not in page
    greta.refresh_from_db()
    assert greta.user is None


def test_the_invitation_is_sent_by_email(organiser_client: Client, greta: Player) -> None:
    path = invite(organiser_client, greta)
    page = organiser_client.get(reverse("player_detail", args=[greta.pk])).content.decode()
    assert "Send by e-mail to greta@example.se" in page
    sent = organiser_client.post(reverse("player_invitation_send", args=[greta.pk]), follow=True)
    assert "The invitation was sent to greta@example.se (" in sent.content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["greta@example.se"]
    assert "invitation" in message.subject
    assert "Hello Greta Garbo" in message.body
    assert f"http://testserver{path}" in message.body


def test_no_email_button_and_no_mail_without_an_address(organiser_client: Client) -> None:
    player = PlayerFactory.create(name="Nils Holm", email="")
    invite(organiser_client, player)
    page = organiser_client.get(reverse("player_detail", args=[player.pk])).content.decode()
    assert "Send by e-mail" not in page
    assert "Print invitation" in page
    sent = organiser_client.post(reverse("player_invitation_send", args=[player.pk]), follow=True)
    assert "has no e-mail address" in sent.content.decode()
    assert mail.outbox == []


def test_the_printed_invitation_has_the_name_link_and_a_qr_code(
    organiser_client: Client, greta: Player
) -> None:
    path = invite(organiser_client, greta)
    page = organiser_client.get(reverse("player_invitation_print", args=[greta.pk]))
    html = page.content.decode()
    assert "Greta Garbo" in html
    assert f"http://testserver{path}" in html
    assert '<svg viewBox="' in html
    assert 'class="qr-code"' in html
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "no inline scripts"


def test_printing_without_an_open_invitation_says_so(
    organiser_client: Client, greta: Player
) -> None:
    page = organiser_client.get(reverse("player_invitation_print", args=[greta.pk]))
    assert "There is no open invitation to print" in page.content.decode()


@pytest.mark.parametrize(
    ("method", "name"),
    [
        ("post", "player_invite"),
        ("post", "player_invitation_send"),
        ("get", "player_invitation_print"),
        ("post", "player_account_set_active"),
    ],
)
def test_only_organisers_invite_and_close_accounts(
    client: Client, greta: Player, method: str, name: str
) -> None:
    url = reverse(name, args=[greta.pk])
    assert getattr(client, method)(url).status_code == 302  # to the login page
    client.force_login(UserFactory.create(username="anna"))
    assert getattr(client, method)(url).status_code == 403
    greta.refresh_from_db()
    assert greta.invited_at is None
    assert mail.outbox == []


def test_visitors_do_not_see_the_invitation(organiser_client: Client, greta: Player) -> None:
    invite(organiser_client, greta)
    page = visitor().get(reverse("player_detail", args=[greta.pk])).content.decode()
    assert "invitation-link" not in page
    assert "/accounts/invitation/" not in page
