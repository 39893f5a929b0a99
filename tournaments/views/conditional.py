"""Conditional GETs for the tournament pages: an unchanged page costs a 304, not a render.

A page's *validators* are an ``ETag`` and a ``Last-Modified`` taken from the
tournament's results version (``Tournament.results_version`` and ``changed_at``,
moved by every service that changes what the pages show), or a narrower version of the
part of it the page shows, hashed with what else the page depends on for this reader
(``tournaments.revalidation.etag``): their language, their account and private links,
the CSRF cookie the page's forms carry, and which fragment htmx asks for. The browser
keeps the page (``Cache-Control: private, no-cache``) and asks again with
``If-None-Match``; polling fragments do the same.

A page asked again whose version has not moved is answered from the cache first
(``tournaments.revalidation``, the early path): no session, no query. When the cache
cannot say (a miss, a change since, a reader it does not know, the cache down), the
version is read from the database as before, and kept for the next time.

Organisers always get a fresh page: their desk counts the minutes since publication.
A page with a message waiting to be shown is fresh too, so the message is not lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.db.models import Count, Max, Sum
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date

from club.roles import is_organiser
from tournaments import revalidation, selectors
from tournaments.models import Tournament
from tournaments.revalidation import Version
from tournaments.views.common import get_tournament, round_versions_of

View = Callable[..., HttpResponse]
VersionOf = Callable[..., Version | None]


@dataclass(frozen=True)
class Validators:
    """How the version of a page is read from the database (``version_of(request, *args,
    **kwargs)``, None: none, the page answers 404) and, for the early path, its page kind
    (``revalidation.KEYED_BY``; None: the page has no early path)."""

    version_of: VersionOf
    kind: str | None = None


def _fresh_only(request: HttpRequest) -> bool:
    return is_organiser(getattr(request, "user", None)) or len(messages.get_messages(request)) > 0


def _tournament_version(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> Version:
    tournament = get_tournament(slug, request)  # the view finds it on the request
    at = tournament.changed_at
    return Version(f"{tournament.results_version}|{at.isoformat()}", at)


def _narrow(
    request: HttpRequest, slug: str, version_of: Callable[[Tournament], str | None]
) -> Version | None:
    """The version of a part of the tournament: ``version_of`` it, which (unlike the
    results version) a change elsewhere in the tournament need not move. ``Last-Modified``
    stays the tournament's last change: a browser asks with the ETag, which decides."""
    tournament = get_tournament(slug, request)
    version = version_of(tournament)
    if version is None:
        return None  # the view answers 404
    return Version(version, tournament.changed_at)


def _listing_version(request: HttpRequest, *args: Any, **kwargs: Any) -> Version | None:
    totals = Tournament.objects.aggregate(
        count=Count("pk"), versions=Sum("results_version"), at=Max("changed_at")
    )
    if totals["at"] is None:
        return None
    at = totals["at"]
    return Version(f"{totals['count']}-{totals['versions']}|{at.isoformat()}", at)


def _mark(response: HttpResponse, version: Version) -> HttpResponse:
    response.headers.setdefault("Last-Modified", http_date(version.at.timestamp()))
    response["Cache-Control"] = "private, no-cache"
    return response


def conditional(validators: Validators) -> Callable[[View], View]:
    """Answer GET and HEAD with 304 when the reader already has the page as it is now."""

    def decorator(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in ("GET", "HEAD"):
                return _vary(view(request, *args, **kwargs))
            page = revalidation.page_of(validators.kind, kwargs)
            # A reader without a copy (a new visitor) gets the page: the cache is asked,
            # and kept, by the reader who asks again.
            asks_again = "If-None-Match" in request.headers
            found = revalidation.find(request, page) if page and asks_again else None
            if found is not None:
                early = revalidation.early_answer(request, found)
                if early is not None:
                    return _vary(_mark(*early))
            fresh = _fresh_only(request)
            version = None if fresh else validators.version_of(request, *args, **kwargs)
            if version is None:
                return _vary(view(request, *args, **kwargs))
            reader = revalidation.reader_of(request)
            etag = revalidation.etag(request, version.version, reader)
            if found is not None:
                revalidation.remember(found, version, reader)
            response = get_conditional_response(
                request, etag=etag, last_modified=int(version.at.timestamp())
            ) or view(request, *args, **kwargs)
            if response.status_code in (200, 304):
                response.headers.setdefault("ETag", etag)
                _mark(response, version)
            return _vary(response)

        return wrapper

    return decorator


def _vary(response: HttpResponse) -> HttpResponse:
    # Cookie: the reader's session, CSRF token and language are cookies (the early path
    # never touches the session, which would say so itself).
    patch_vary_headers(response, ("Cookie", "HX-Request", "HX-Target"))
    return response


on_tournament = Validators(_tournament_version, kind="tournament")
"""A page that shows anything of the tournament: its results version."""

on_listing = Validators(_listing_version)
"""A page that lists every tournament (no early path: a new tournament moves it)."""


def _round_version(request: HttpRequest, slug: str, number: int, **kwargs: Any) -> Version | None:
    """A round's page changes with a result in it (a report too: its row shows it), a
    correction in an earlier round (the records), any change that is not a result, and
    while it is played the rating list (the expected scores)."""
    return _narrow(request, slug, lambda t: "round|" + round_versions_of(request, t, number).page)


on_round = Validators(_round_version, kind="round")


def _standings_version(request: HttpRequest, slug: str, **kwargs: Any) -> Version | None:
    """The standings change with a final result, not with a report awaiting confirmation."""
    return _narrow(request, slug, lambda t: "standings|" + selectors.standings_version(t))


on_final_results = Validators(_standings_version, kind="standings")


def _match_version(request: HttpRequest, slug: str, pk: int, **kwargs: Any) -> Version | None:
    """A match's page changes with that match, not with the other tables' reports."""
    return _narrow(request, slug, lambda t: _prefixed("match|", selectors.match_version(t, pk)))


on_match = Validators(_match_version, kind="match")


def _prefixed(prefix: str, version: str | None) -> str | None:
    return None if version is None else prefix + version
