"""The parts of django-axes that club.lockouts stands on (pyproject.toml pins its minor release).

A new release of axes that moves any of them fails here, by name, before a login misbehaves.
"""

from __future__ import annotations

import inspect
from importlib.metadata import version

import pytest
from axes import conf
from axes.backends import AxesStandaloneBackend
from axes.models import AccessAttempt
from axes.utils import reset
from django.test import RequestFactory

from club.lockouts import LockoutBackend


def test_the_installed_axes_is_the_pinned_minor_release() -> None:
    assert version("django-axes").split(".")[:2] == ["8", "3"]


@pytest.mark.django_db
def test_the_backend_subclass_passes_a_login_on_to_axes(rf: RequestFactory) -> None:
    """Axes' standalone backend takes (request, username, password) and lets an unlocked
    login through to the next backend (None); ours skips a login without a request."""
    assert issubclass(LockoutBackend, AxesStandaloneBackend)
    request = rf.post("/accounts/login/", {"username": "maja", "password": "wrong"})
    backend = LockoutBackend()
    # Neither raises (axes refuses a locked login by raising); both leave the answer to
    # the next backend (they return nothing).
    backend.authenticate(request, "maja", "wrong")
    backend.authenticate(None, "maja", "wrong")


def test_reset_forgets_by_account_or_by_address() -> None:
    assert {"ip", "username"} <= set(inspect.signature(reset).parameters)


def test_the_attempts_have_the_fields_the_lockouts_read() -> None:
    fields = {field.name for field in AccessAttempt._meta.get_fields()}
    assert {"username", "ip_address", "attempt_time", "failures_since_start"} <= fields


def test_axes_knows_every_setting_the_site_gives_it() -> None:
    for name in [
        "AXES_LOCKOUT_PARAMETERS",
        "AXES_FAILURE_LIMIT",
        "AXES_COOLOFF_TIME",
        "AXES_RESET_ON_SUCCESS",
        "AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT",
        "AXES_CLIENT_IP_CALLABLE",
        "AXES_LOCKOUT_CALLABLE",
        "AXES_DISABLE_ACCESS_LOG",
        "AXES_VERBOSE",
        "AXES_USERNAME_FORM_FIELD",
    ]:
        assert hasattr(conf.settings, name), name
