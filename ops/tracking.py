"""Errors to an error tracker (Sentry), when ``SENTRY_DSN`` says where; personal data off.

sentry-sdk's Django integration reports unhandled errors of requests, and its logging
integration every ERROR line (a task that raised, the worker cut off from the
database). Its ``data_collection`` is off for personal data (no user's address, no
cookies, no request bodies or query strings, no local variables), and ``scrubbed`` goes
through every event before it leaves, for what the site's own data would still carry:
- private links, invitation links and password reset links: their keys written ``…``;
- e-mail addresses anywhere in the text: ``[e-mail]``;
- any value under a name that says password, secret, token, key, cookie, session,
  csrf or authorization: ``[filtered]``.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import sentry_sdk
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.integrations.logging import LoggingIntegration

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")
PRIVATE_PATHS = [
    (re.compile(r"/p/[^/\s?#]+"), "/p/…"),
    (re.compile(r"/accounts/invitation/(\d+)/[^/\s?#]+"), r"/accounts/invitation/\1/…"),
    (re.compile(r"/accounts/password/reset/[^/\s?#]+/[^/\s?#]+"), "/accounts/password/reset/…/…"),
]
SECRET_NAMES = re.compile(
    r"pass|secret|token|(^|_)key$|cookie|session|csrf|authorization|private", re.IGNORECASE
)


def scrubbed(value: Any, name: str = "") -> Any:
    """``value`` (an event, or any part of it) without private keys and addresses."""
    if name and SECRET_NAMES.search(name):
        return "[filtered]"
    if isinstance(value, dict):
        return {key: scrubbed(item, str(key)) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [scrubbed(item) for item in value]
    if isinstance(value, str):
        for pattern, replacement in PRIVATE_PATHS:
            value = pattern.sub(replacement, value)
        return EMAIL.sub("[e-mail]", value)
    return value


def before_send(event: Any, hint: Any) -> Any:
    return scrubbed(event)


def start_tracking(dsn: str, *, environment: str, release: str, **options: Any) -> None:
    """Report errors to the tracker at ``dsn`` (called by the settings when it is set)."""
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        # Personal data off: no user, cookies, bodies, query strings or local variables.
        data_collection={
            "user_info": False,
            "cookies": {"mode": "off"},
            "http_bodies": [],
            "url_query_params": {"mode": "off"},
            "stack_frame_variables": False,
        },
        before_send=before_send,
        before_breadcrumb=lambda crumb, hint: scrubbed(crumb),
        integrations=[DjangoIntegration(), LoggingIntegration(event_level=logging.ERROR)],
        traces_sample_rate=0.0,
        **options,
    )
