"""Rendered PDFs kept in Django's cache, so a document is laid out once per change.

A PDF's cache key names the document, its options (round, sheets a page, the links'
host), the reader's language and the tournament's results version
(``Tournament.results_version`` and ``changed_at``, moved by every service that changes
what the documents show). A changed result is a new version and so a new key: no PDF is
ever served from before the change, and the old ones age out of the cache.

Only a render costs: when a render is needed it is counted against the reader's rate
limit (``render_refusal``), and readers who ask for the same new document at the same
moment wait for the one render instead of each starting their own.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language
from django_ratelimit import ALL
from django_ratelimit.core import is_ratelimited
from django_ratelimit.exceptions import Ratelimited

from club.roles import is_organiser
from config.caching import computed_once
from config.clients import client_ip
from tournaments.models import Tournament
from tournaments.printing import documents
from tournaments.printing.documents import Document

# How long a rendered PDF is kept (a new version makes it unreachable long before).
KEEP_SECONDS = 24 * 60 * 60
# How long readers wait for someone else's render of the same document before their own.
WAIT_SECONDS = 15.0
# Renders a reader may start (cached copies are never counted): a visitor by address,
# a member by account; organisers print what they need.
VISITOR_RENDERS = "20/10m"
MEMBER_RENDERS = "60/10m"


@dataclass(frozen=True)
class Rendered:
    filename: str
    content: bytes


def cache_key(
    kind: str, tournament: Tournament, *options: object, version: str | None = None
) -> str:
    """The document's key: its kind, options, language and the tournament's version.

    ``version``: what the document shows is at that version (``selectors.rounds_version``
    of the rounds it prints), which results in later rounds do not move.
    """
    parts = [
        kind,
        str(tournament.pk),
        version or f"{tournament.results_version}|{tournament.changed_at.isoformat()}",
        get_language() or "",
        *(str(option) for option in options),
    ]
    digest = hashlib.blake2b("|".join(parts).encode(), digest_size=16).hexdigest()
    return f"pdf:{kind}:{digest}"


def _reader(group: str, request: HttpRequest) -> str:
    user = request.user
    return f"user:{user.pk}" if user.is_authenticated else f"ip:{client_ip(request)}"


def _rate(group: str, request: HttpRequest) -> str | None:
    if is_organiser(request.user):
        return None
    return MEMBER_RENDERS if request.user.is_authenticated else VISITOR_RENDERS


def render_refused(request: HttpRequest) -> bool:
    """Count one render against the reader; True when they have used up their renders."""
    refused: bool = is_ratelimited(  # django-ratelimit: untyped
        request, group="pdf-render", key=_reader, rate=_rate, method=ALL, increment=True
    )
    return refused


def cached_pdf(
    key: str, build: Callable[[], Document], *, refused: Callable[[], bool]
) -> Rendered | None:
    """The PDF at ``key``, rendered by ``build`` if nobody has yet; None if ``refused()``."""

    def render() -> Rendered | None:
        if refused():
            return None
        document = build()
        return Rendered(document.filename, documents.render_pdf(document))

    return computed_once(key, render, timeout=KEEP_SECONDS, wait=WAIT_SECONDS)


def pdf_response(request: HttpRequest, key: str, build: Callable[[], Document]) -> HttpResponse:
    """The PDF at ``key`` from the cache, or rendered by ``build`` and kept; a reader who
    has started too many renders gets the 429 page."""
    rendered = cached_pdf(key, build, refused=lambda: render_refused(request))
    if rendered is None:
        raise Ratelimited
    response = HttpResponse(rendered.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{rendered.filename}"'
    return response
