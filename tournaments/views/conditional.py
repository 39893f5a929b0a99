"""Conditional GETs for the tournament pages: an unchanged page costs a 304, not a render.

A page's *validators* are an ``ETag`` and a ``Last-Modified`` taken from the
tournament's results version (``Tournament.results_version`` and ``changed_at``,
moved by every service that changes what the pages show), hashed with what else the
page depends on for this reader: their language, their account or private link, the
CSRF cookie the page's forms carry, and which fragment htmx asks for. The browser
keeps the page (``Cache-Control: private, no-cache``) and asks again with
``If-None-Match``; polling fragments do the same, so an idle venue costs a query or two
a poll.

Organisers always get a fresh page: their desk counts the minutes since publication.
A page with a message waiting to be shown is fresh too, so the message is not lost.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import Count, Max, Sum
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date, quote_etag
from django.utils.translation import get_language

from club.roles import is_organiser
from tournaments import selectors
from tournaments.access import SESSION_KEY
from tournaments.models import Tournament
from tournaments.views.common import get_tournament, round_versions_of

View = Callable[..., HttpResponse]
Validators = tuple[str, datetime.datetime]


def _reader(request: HttpRequest, slug: str | None) -> list[str]:
    """What besides the tournament a page depends on for this reader."""
    user = getattr(request, "user", None)
    links = request.session.get(SESSION_KEY, {}) if slug else {}
    return [
        get_language() or "",
        str(user.pk) if user is not None and user.is_authenticated else "",
        str(links.get(slug, "")) if slug else "",
        request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""),
        request.headers.get("HX-Request", ""),
        request.headers.get("HX-Target", ""),
    ]


def _fresh_only(request: HttpRequest) -> bool:
    return is_organiser(getattr(request, "user", None)) or len(messages.get_messages(request)) > 0


def _etag(request: HttpRequest, slug: str | None, version: str) -> str:
    text = "|".join([version, *_reader(request, slug)])
    return quote_etag(hashlib.blake2b(text.encode(), digest_size=16).hexdigest())


def _validators(request: HttpRequest, slug: str | None, version: str, at: datetime.datetime) -> str:
    return _etag(request, slug, f"{version}|{at.isoformat()}")


def tournament_validators(request: HttpRequest, slug: str) -> Validators | None:
    """The validators of a page of the tournament ``slug`` for this reader (None: always fresh)."""
    if _fresh_only(request):
        return None
    tournament = get_tournament(slug, request)  # the view finds it on the request
    at = tournament.changed_at
    return _validators(request, slug, str(tournament.results_version), at), at


def _narrow(
    request: HttpRequest, slug: str, version_of: Callable[[Tournament], str | None]
) -> Validators | None:
    """Validators on a part of the tournament: ``version_of`` it, which (unlike the results
    version) a change elsewhere in the tournament need not move. ``Last-Modified`` stays
    the tournament's last change: a browser asks with the ETag, which decides."""
    if _fresh_only(request):
        return None
    tournament = get_tournament(slug, request)
    version = version_of(tournament)
    if version is None:
        return None  # the view answers 404
    return _etag(request, slug, version), tournament.changed_at


def listing_validators(request: HttpRequest) -> Validators | None:
    """The validators of a page that lists every tournament."""
    totals = Tournament.objects.aggregate(
        count=Count("pk"), versions=Sum("results_version"), at=Max("changed_at")
    )
    if totals["at"] is None or _fresh_only(request):
        return None
    version = f"{totals['count']}-{totals['versions']}"
    return _validators(request, None, version, totals["at"]), totals["at"]


def _mark(response: HttpResponse, validators: Validators) -> HttpResponse:
    etag, at = validators
    response.headers.setdefault("ETag", etag)
    response.headers.setdefault("Last-Modified", http_date(at.timestamp()))
    response["Cache-Control"] = "private, no-cache"
    return response


def conditional(validators_of: Callable[..., Validators | None]) -> Callable[[View], View]:
    """Answer GET and HEAD with 304 when the reader already has the page as it is now."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            validators = validators_of(request, *args, **kwargs)
            if validators is None or request.method not in ("GET", "HEAD"):
                response = view(request, *args, **kwargs)
            else:
                etag, at = validators
                response = get_conditional_response(
                    request, etag=etag, last_modified=int(at.timestamp())
                ) or view(request, *args, **kwargs)
                if response.status_code in (200, 304):
                    _mark(response, validators)
            patch_vary_headers(response, ("HX-Request", "HX-Target"))
            return response

        return wrapper

    return decorator


def on_tournament(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> Validators | None:
    return tournament_validators(request, slug)


def on_listing(request: HttpRequest, *args: Any, **kwargs: Any) -> Validators | None:
    return listing_validators(request)


def on_round(request: HttpRequest, slug: str, number: int, **kwargs: Any) -> Validators | None:
    """A round's page changes with a result in it (a report too: its row shows it), a
    correction in an earlier round (the records), any change that is not a result, and
    while it is played the rating list (the expected scores)."""
    return _narrow(request, slug, lambda t: "round|" + round_versions_of(request, t, number).page)


def on_final_results(request: HttpRequest, slug: str, **kwargs: Any) -> Validators | None:
    """The standings change with a final result, not with a report awaiting confirmation."""
    return _narrow(request, slug, lambda t: "standings|" + selectors.standings_version(t))


def on_match(request: HttpRequest, slug: str, pk: int, **kwargs: Any) -> Validators | None:
    """A match's page changes with that match, not with the other tables' reports."""
    return _narrow(request, slug, lambda t: _prefixed("match|", selectors.match_version(t, pk)))


def _prefixed(prefix: str, version: str | None) -> str | None:
    return None if version is None else prefix + version
