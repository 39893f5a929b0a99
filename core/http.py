"""The requests views are annotated with: what the site's middleware adds to Django's.

``HtmxMiddleware`` gives every request ``htmx`` (django-htmx's details, false when the
request is not htmx's); behind ``login_required`` or ``organiser_required`` the user is
a logged-in account, never the anonymous one. These classes are for the type checker
only: Django still makes plain ``HttpRequest`` objects.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    user: User
