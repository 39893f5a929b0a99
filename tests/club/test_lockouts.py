"""Login lockouts: an account after 5 failures, an address after 30, the login page saying
when to try again, and the organisers' page that lifts a lock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING
from unittest import mock

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import formats, timezone, translation
from pytest_django import Settings

from club.lockouts import Attempt, Kind, Lockout, current_lockouts, find_lockouts, lock_ends
from tests.factories import UserFactory

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

COOL_OFF = timedelta(minutes=15)
T0 = datetime(2026, 6, 6, 10, 0, tzinfo=UTC)
VENUE = "203.0.113.7"
ELSEWHERE = "198.51.100.20"


def at(minutes: int, failures: int = 1, *, username: str = "maja", address: str = VENUE) -> Attempt:
    return Attempt(
        username=username, address=address, at=T0 + timedelta(minutes=minutes), failures=failures
    )


@pytest.mark.parametrize(
    ("attempts", "limit", "ends"),
    [
        ([], 5, None),
        ([at(0, 4)], 5, None),
        ([at(0, 5)], 5, T0 + COOL_OFF),
        # The newest attempts reach the limit: the lock lasts until the one that got there expires.
        ([at(0, 3), at(2, 2)], 5, T0 + COOL_OFF),
        ([at(0, 3), at(2, 2), at(5, 4)], 5, T0 + timedelta(minutes=2) + COOL_OFF),
        ([at(5, 6), at(0, 1)], 5, T0 + timedelta(minutes=5) + COOL_OFF),
    ],
)
def test_a_lock_ends_when_the_attempt_reaching_the_limit_expires(
    attempts: list[Attempt], limit: int, ends: datetime | None
) -> None:
    assert lock_ends(attempts, limit=limit, cool_off=COOL_OFF) == ends


def test_an_account_locks_at_5_failures_and_an_address_at_30() -> None:
    players = [f"player{n}" for n in range(10)]
    # A venue: ten players mistype three times each, from one address, one account at five.
    attempts = [at(n, 3, username=name) for n, name in enumerate(players)]
    attempts += [at(1, 4, username="anna"), at(2, 1, username="anna", address=ELSEWHERE)]
    lockouts = find_lockouts(attempts, cool_off=COOL_OFF)
    assert lockouts == [
        Lockout(Kind.ACCOUNT, "anna", failures=5, ends=T0 + timedelta(minutes=1) + COOL_OFF),
        # Newest first, the venue's failures reach 30 with those of minute 1.
        Lockout(Kind.ADDRESS, VENUE, failures=34, ends=T0 + timedelta(minutes=1) + COOL_OFF),
    ]
    fewer = find_lockouts(attempts[:9], cool_off=COOL_OFF)
    assert fewer == []  # 27 failures from the venue, at most 3 on an account


def log_in(client: Client, username: str, password: str, address: str = VENUE) -> TestResponse:
    data = {"username": username, "password": password}
    return client.post(reverse("login"), data, REMOTE_ADDR=address)


@pytest.fixture
def maja(db: None) -> User:
    return UserFactory.create(username="maja")


@pytest.mark.django_db
def test_five_failures_lock_the_account_and_say_when_to_try_again(
    client: Client, maja: User, english: None
) -> None:
    for _ in range(4):
        refused = log_in(client, "maja", "wrong")
        assert refused.status_code == 200
        assert "Too many failed logins" not in refused.content.decode()
    locked = log_in(client, "maja", "wrong")
    assert locked.status_code == 429
    ends = AccessAttempt.objects.get(username="maja").attempt_time + COOL_OFF
    with translation.override("en"):
        time = formats.time_format(timezone.localtime(ends), "TIME_FORMAT")
    page = locked.content.decode()
    assert "Too many failed logins." in page
    assert f"At {time} you can try again." in page
    assert 0 < int(locked.headers["Retry-After"]) <= 15 * 60
    # The right password from another address is refused too, without checking it.
    with mock.patch.object(ModelBackend, "authenticate") as model_backend:
        again = log_in(client, "maja", "secret-pass-121", address=ELSEWHERE)
    assert again.status_code == 429
    model_backend.assert_not_called()
    assert "_auth_user_id" not in client.session
    # A refused login does not move the end of the lock.
    assert AccessAttempt.objects.get(username="maja").attempt_time + COOL_OFF == ends


def change_password(client: Client, old: str) -> TestResponse:
    data = {"old_password": old, "new_password1": "a-new-pass-29", "new_password2": "a-new-pass-29"}
    return client.post(reverse("password_change"), data, REMOTE_ADDR=VENUE)


def change_email(client: Client, password: str) -> TestResponse:
    data = {"email": "maja@example.org", "password": password}
    return client.post(reverse("account_email"), data, REMOTE_ADDR=VENUE)


@pytest.mark.django_db
@pytest.mark.parametrize("ask", [change_password, change_email])
def test_wrong_current_passwords_lock_the_account_as_failed_logins_do(
    client: Client, maja: User, english: None, ask: Callable[[Client, str], TestResponse]
) -> None:
    client.force_login(maja)
    for _ in range(4):
        refused = ask(client, "wrong")
        assert refused.status_code == 200
        assert "That is not your current password." in refused.content.decode()
    locked = ask(client, "wrong")
    assert locked.status_code == 429
    ends = AccessAttempt.objects.get(username="maja").attempt_time + COOL_OFF
    with translation.override("en"):
        time = formats.time_format(timezone.localtime(ends), "TIME_FORMAT")
    said = f"Too many wrong passwords: your account is locked. At {time} you can try again."
    assert said in locked.content.decode()
    assert 0 < int(locked.headers["Retry-After"]) <= 15 * 60
    # While locked, the right password changes nothing, and is not even checked.
    with mock.patch.object(ModelBackend, "authenticate") as model_backend:
        right = ask(client, "secret-pass-121")
    model_backend.assert_not_called()
    assert right.status_code == 429
    assert said in right.content.decode()
    maja.refresh_from_db()
    assert maja.check_password("secret-pass-121")
    assert maja.email != "maja@example.org"
    # The lock is the account's: logging in elsewhere is refused too.
    assert log_in(Client(), "maja", "secret-pass-121", address=ELSEWHERE).status_code == 429


@pytest.mark.django_db
def test_the_time_to_try_again_is_in_the_readers_language(client: Client, maja: User) -> None:
    for _ in range(5):
        locked = log_in(client, "maja", "wrong")
    ends = AccessAttempt.objects.get(username="maja").attempt_time + COOL_OFF
    with translation.override("sv"):
        time = formats.time_format(timezone.localtime(ends), "TIME_FORMAT")
    assert time == timezone.localtime(ends).strftime("%H:%M")
    assert time in locked.content.decode()
    assert '<html lang="sv">' in locked.content.decode()


@pytest.mark.django_db
def test_a_successful_login_forgives_the_accounts_failures(client: Client, maja: User) -> None:
    for _ in range(4):
        log_in(client, "maja", "wrong")
    log_in(client, "someone", "wrong")
    assert log_in(client, "maja", "secret-pass-121").status_code == 302
    assert not AccessAttempt.objects.filter(username="maja").exists()
    # The address's other failures still count.
    assert AccessAttempt.objects.filter(username="someone").exists()
    client.post(reverse("logout"))
    for _ in range(4):
        assert log_in(client, "maja", "wrong").status_code == 200
    assert log_in(client, "maja", "secret-pass-121").status_code == 302


@pytest.mark.django_db
def test_a_venue_sharing_one_address_is_locked_only_after_30_failures(
    client: Client, maja: User
) -> None:
    for n in range(29):
        assert log_in(client, f"player{n % 10}", "wrong").status_code == 200
    assert log_in(client, "maja", "secret-pass-121").status_code == 302
    client.post(reverse("logout"))
    log_in(client, "player0", "wrong")  # the 30th failure from the venue
    assert log_in(client, "maja", "secret-pass-121").status_code == 429
    assert log_in(client, "maja", "secret-pass-121", address=ELSEWHERE).status_code == 302


@pytest.mark.django_db
def test_failures_older_than_the_cool_off_no_longer_count(client: Client, maja: User) -> None:
    for _ in range(5):
        log_in(client, "maja", "wrong")
    assert log_in(client, "maja", "secret-pass-121").status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - COOL_OFF - timedelta(seconds=1))
    assert log_in(client, "maja", "secret-pass-121").status_code == 302


@pytest.mark.django_db
def test_the_address_comes_from_the_proxys_header_when_configured(
    client: Client, settings: Settings
) -> None:
    settings.CLIENT_IP_HEADER = "X-Forwarded-For"
    client.post(
        reverse("login"),
        {"username": "maja", "password": "wrong"},
        HTTP_X_FORWARDED_FOR="192.0.2.1, 198.51.100.9",
    )
    assert AccessAttempt.objects.get().ip_address == "198.51.100.9"


def lock_maja_and_the_venue() -> None:
    now = timezone.now()
    fields = {
        "user_agent": "test",
        "http_accept": "",
        "path_info": "/",
        "get_data": "",
        "post_data": "",
    }
    AccessAttempt.objects.create(
        username="maja", ip_address=ELSEWHERE, failures_since_start=5, attempt_time=now, **fields
    )
    for n in range(8):  # 32 failures from the venue, 4 for each account
        AccessAttempt.objects.create(
            username=f"player{n}", ip_address=VENUE, failures_since_start=4, **fields
        )


@pytest.mark.django_db
def test_organisers_see_the_locks_and_lift_one(
    organiser_client: Client, maja: User, english: None
) -> None:
    lock_maja_and_the_venue()
    assert {(lock.kind, lock.who) for lock in current_lockouts()} == {
        (Kind.ACCOUNT, "maja"),
        (Kind.ADDRESS, VENUE),
    }
    home = organiser_client.get(reverse("home")).content.decode()
    assert f'href="{reverse("lockouts")}"' in home
    page = organiser_client.get(reverse("lockouts")).content.decode()
    assert "Account <strong>maja</strong>" in page
    assert f"Address <strong>{VENUE}</strong>" in page
    lift = organiser_client.post(reverse("lockout_lift"), {"kind": "account", "who": "maja"})
    assert lift.headers["Location"] == reverse("lockouts")
    after = organiser_client.get(reverse("lockouts")).content.decode()
    assert "The account maja may log in again." in after
    assert "<strong>maja</strong>" not in after
    assert [(lock.kind, lock.who) for lock in current_lockouts()] == [(Kind.ADDRESS, VENUE)]
    assert log_in(Client(), "maja", "secret-pass-121", address=ELSEWHERE).status_code == 302

    organiser_client.post(reverse("lockout_lift"), {"kind": "address", "who": VENUE})
    assert current_lockouts() == []
    empty = organiser_client.get(reverse("lockouts")).content.decode()
    assert "No account or address is locked out." in empty


@pytest.mark.django_db
def test_lifting_needs_a_real_account_or_address(organiser_client: Client) -> None:
    lock_maja_and_the_venue()
    for data in ({"kind": "address", "who": "not an address"}, {"kind": "account", "who": ""}):
        organiser_client.post(reverse("lockout_lift"), data)
    assert len(current_lockouts()) == 2
    assert organiser_client.get(reverse("lockout_lift")).status_code == 405


@pytest.mark.django_db
def test_only_organisers_see_the_locks(client: Client, maja: User) -> None:
    anonymous = client.get(reverse("lockouts"))
    assert anonymous.headers["Location"].startswith(reverse("login"))
    client.force_login(maja)
    lock_maja_and_the_venue()
    assert client.get(reverse("lockouts")).status_code == 403
    refused = client.post(reverse("lockout_lift"), {"kind": "account", "who": "maja"})
    assert refused.status_code == 403
    assert len(current_lockouts()) == 2
    assert f'href="{reverse("lockouts")}"' not in client.get(reverse("home")).content.decode()
