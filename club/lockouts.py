"""Login lockouts: who may not try to log in for a while, and lifting a lock.

django-axes records each failed login as an *attempt* (an account name, the address it
came from, when, and how many failures). A *lock* is on an **account** once its failures
from anywhere reach ``LOCKOUT_ACCOUNT_FAILURES``, or on an **address** once the failures
from it, for any accounts, reach ``LOCKOUT_ADDRESS_FAILURES`` (higher: a whole venue may
share one address). Failures count for the *cool-off* (``AXES_COOLOFF_TIME``) after the
attempt's latest one; a lock ends when too few are left, or when an organiser lifts it.

A member's *current password*, asked for again on the account pages (a new password, a
new e-mail address), is checked as a login is (``current_password_check``): a wrong one
counts toward the lock, and while the account is locked even the right one is refused.

Axes compares one number, the larger of the account's and the address's failures, with
one limit; ``failure_limit`` picks the limit that makes that comparison mean "either
count has reached its own limit".

django-axes is used through what its documentation names: its settings (``AXES_*``,
callables included), its standalone backend, its ``AccessAttempt`` model and
``axes.utils.reset``. pyproject.toml pins its minor release, and
tests/club/test_lockouts_axes_api.py checks the parts of its API this module stands on.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.contrib.auth import authenticate, user_logged_in
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q, Sum
from django.http import HttpRequest
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.clients import client_ip

logger = logging.getLogger(__name__)


class Kind(models.TextChoices):
    ACCOUNT = "account", _("Account")
    ADDRESS = "address", pgettext_lazy("network", "Address")


@dataclass(frozen=True)
class Attempt:
    """Failed logins of one account from one address, the latest at ``at``."""

    username: str | None
    address: str | None
    at: datetime
    failures: int


@dataclass(frozen=True)
class Lockout:
    kind: Kind
    who: str
    failures: int
    ends: datetime


def cool_off() -> timedelta:
    period = getattr(settings, "AXES_COOLOFF_TIME", None)
    if not isinstance(period, timedelta):
        raise ValueError("AXES_COOLOFF_TIME must be a timedelta: every lock ends by itself.")
    return period


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The account name a login tried: from the credentials, else the login form."""
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    if credentials and credentials.get(field):
        return str(credentials[field])
    return request.POST.get(field) or None


def limit(kind: Kind) -> int:
    if kind is Kind.ACCOUNT:
        return int(settings.LOCKOUT_ACCOUNT_FAILURES)
    return int(settings.LOCKOUT_ADDRESS_FAILURES)


def lock_ends(attempts: Iterable[Attempt], *, limit: int, cool_off: timedelta) -> datetime | None:
    """When a lock on these attempts ends, or None if they are too few to lock.

    Attempts drop out newest last: the lock holds until the newest attempts alone no
    longer reach the limit, that is until the attempt that brings them to it expires.
    """
    total = 0
    for attempt in sorted(attempts, key=lambda attempt: attempt.at, reverse=True):
        total += attempt.failures
        if total >= limit:
            return attempt.at + cool_off
    return None


def find_lockouts(attempts: Iterable[Attempt], *, cool_off: timedelta) -> list[Lockout]:
    """The locks these attempts (all within the cool-off) put on accounts and addresses."""
    groups: dict[tuple[Kind, str], list[Attempt]] = defaultdict(list)
    for attempt in attempts:
        if attempt.username:
            groups[Kind.ACCOUNT, attempt.username].append(attempt)
        if attempt.address:
            groups[Kind.ADDRESS, attempt.address].append(attempt)
    lockouts = []
    for (kind, who), group in groups.items():
        ends = lock_ends(group, limit=limit(kind), cool_off=cool_off)
        if ends is not None:
            failures = sum(attempt.failures for attempt in group)
            lockouts.append(Lockout(kind=kind, who=who, failures=failures, ends=ends))
    return sorted(lockouts, key=lambda lockout: (lockout.ends, lockout.kind, lockout.who))


def current_lockouts(
    *, now: datetime | None = None, username: str | None = None, address: str | None = None
) -> list[Lockout]:
    """Locks in force at ``now``: all of them, or those on this account or address."""
    now = now or timezone.now()
    period = cool_off()
    rows = AccessAttempt.objects.filter(attempt_time__gte=now - period)
    if username is not None or address is not None:
        rows = rows.filter(Q(username=username) | Q(ip_address=address or None))
    attempts = [
        Attempt(username=name, address=ip, at=at, failures=failures)
        for name, ip, at, failures in rows.values_list(
            "username", "ip_address", "attempt_time", "failures_since_start"
        )
    ]
    lockouts = find_lockouts(attempts, cool_off=period)
    if username is None and address is None:
        return lockouts
    mine = {(Kind.ACCOUNT, username), (Kind.ADDRESS, address)}
    return [lockout for lockout in lockouts if (lockout.kind, lockout.who) in mine]


def lockout_lift(*, kind: Kind, who: str, by: User) -> int:
    """Forget the failures behind a lock on an account or an address; how many attempts went."""
    if not who:
        raise ValueError("Name the account or address to unlock.")
    count: int = reset(username=who) if kind is Kind.ACCOUNT else reset(ip=who)
    logger.info("%s lifted the lock on %s %s (%d attempts forgotten).", by, kind.value, who, count)
    return count


def current_password_check(request: HttpRequest, *, user: User, password: str) -> None:
    """Raise ``ValidationError`` unless ``password`` is the logged-in ``user``'s own.

    Checked by the authentication backends, as a login is (docs/operating.md, Throttles):
    a wrong password counts as a failed login of the account, and a locked account is
    refused before the password is hashed; the message then says until when.
    """
    username = user.get_username()
    checked = authenticate(request, username=username, password=password)
    if checked is not None and checked.pk == user.pk:
        return
    locks = current_lockouts(username=username, address=client_ip(request))
    if not locks:
        raise ValidationError(_("That is not your current password."), code="wrong_password")
    ends = timezone.localtime(max(lock.ends for lock in locks))
    locked = _("Too many wrong passwords: your account is locked. At %(time)s you can try again.")
    raise ValidationError(
        locked % {"time": formats.time_format(ends, "TIME_FORMAT")}, code="locked_out"
    )


def failure_limit(request: HttpRequest, credentials: dict[str, Any] | None) -> int:
    """AXES_FAILURE_LIMIT: the account's limit once the account has reached it, else the address's.

    Axes locks when max(account failures, address failures) reaches this limit. With the
    account below its (lower) limit, that maximum reaches the address limit only by the
    address's failures; with the account at its limit, the maximum is at least that.
    """
    username = attempted_username(request, credentials)
    since = timezone.now() - cool_off()
    account = AccessAttempt.objects.filter(username=username, attempt_time__gte=since)
    failures = account.aggregate(total=Sum("failures_since_start"))["total"] or 0
    if failures >= limit(Kind.ACCOUNT):
        return limit(Kind.ACCOUNT)
    return limit(Kind.ADDRESS)


class LockoutBackend(AxesStandaloneBackend):  # type: ignore[misc]  # django-axes: untyped
    """Refuses a locked-out login before the next backend hashes its password.

    A login without a request (the test client's ``login``, a shell) comes from no
    address and is not counted; axes itself would refuse it with an error.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)  # type: ignore[no-any-return]


def forgive_account(sender: object, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    """On ``user_logged_in``: a successful login forgives that account's failures only.

    Axes' own reset on success (``AXES_RESET_ON_SUCCESS``, off) would also forget every
    failure from the address: at a venue one player's login would wipe the count of
    everyone else's (and a stranger's) attempts there.
    """
    reset(username=user.get_username())


user_logged_in.connect(forgive_account, dispatch_uid="club.lockouts.forgive_account")
