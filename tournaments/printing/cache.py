"""Rendered PDFs kept in Django's cache, rendered by a worker, never inside a request.

A PDF's cache key names the document, its options (round, sheets a page, the links'
host), the reader's language and the tournament's results version
(``Tournament.results_version`` and ``changed_at``, moved by every service that changes
what the documents show). A changed result is a new version and so a new key: no PDF is
ever served from before the change, and the old ones age out of the cache.

A request for a document version that is not rendered yet enqueues one render task
(``printing.tasks.render_pdf``) and answers at once with a page that says the document
is being prepared and reloads itself until it is there (``printing.state`` keeps the
markers that make many readers, or one reader's burst, enqueue it once). Only the
request that enqueues a render counts against the reader's rate limit
(``render_refused``): readers of a document already rendered or queued cost nothing.
"""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.crypto import get_random_string
from django.utils.translation import get_language
from django_ratelimit import ALL
from django_ratelimit.core import is_ratelimited
from django_ratelimit.exceptions import Ratelimited

from club.roles import is_organiser
from core.clients import client_ip
from tournaments.models import Tournament
from tournaments.printing import state, tasks
from tournaments.printing.state import Rendered
from tournaments.printing.tasks import JSON

# New documents a reader may have rendered (documents rendered or queued already are
# never counted): by address for visitors, where one address may be a whole venue behind
# the club's router (docs/operating.md, "Rate limits"); by account for members;
# organisers print what they need.
VISITOR_RENDERS = "60/10m"
MEMBER_RENDERS = "60/10m"
# How often the "being prepared" page looks again.
REFRESH_SECONDS = 2
# The query parameter of "Try again" after a failed render.
RETRY = "retry"

__all__ = ["Rendered", "cache_key", "pdf_response", "render_refused"]


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


def _enqueued(request: HttpRequest, key: str, builder: str, arguments: dict[str, JSON]) -> None:
    """Enqueue the render unless it is queued already; a reader past their limit gets 429."""
    if not state.mark_queued(key):
        return
    try:
        if render_refused(request):
            raise Ratelimited
        tasks.render_pdf.enqueue(
            key=key, builder=builder, arguments=arguments, language=get_language() or ""
        )
    except BaseException:
        state.render_finished(key)  # nothing is queued: let the next reader try
        raise


def _again(request: HttpRequest, *, retry: bool) -> str:
    """This document's address, asking to try a failed render again or not."""
    query = request.GET.copy()
    query.pop(RETRY, None)
    if retry:
        query[RETRY] = "1"
    encoded = urlencode(sorted(query.items()))
    return f"{request.path}?{encoded}" if encoded else request.path


def _status_page(request: HttpRequest, *, ready: bool, failed: bool) -> HttpResponse:
    context = {
        "url": _again(request, retry=False),
        "retry_url": _again(request, retry=True),
        "ready": ready,
        "failed": failed,
        "refresh_seconds": REFRESH_SECONDS,
        "polling": bool(request.headers.get("HX-Request")),
    }
    if context["polling"]:
        status = 200 if ready or failed else 202
        return render(request, "printing/preparing.html#status", context, status=status)
    response = render(request, "printing/preparing.html", context)
    # Its own validator, never the document's: a browser that keeps this page must not be
    # told "304, still the same" once the PDF is there (views.conditional keeps an ETag
    # that is already set).
    response["ETag"] = f'"preparing-{get_random_string(12)}"'
    return response


def pdf_response(request: HttpRequest, key: str, builder: str, **arguments: JSON) -> HttpResponse:
    """The PDF at ``key`` if it is rendered; else the page saying it is being prepared
    (after enqueueing its render, ``builder(**arguments)``) or that its render failed.

    Under a backend that runs tasks at once (the tests' ImmediateBackend) the render is
    done when it is enqueued, and the PDF is served at once.
    """
    if request.GET.get(RETRY) and state.is_failed(key):
        state.forget_failure(key)
    if state.rendered(key) is None and not state.is_failed(key):
        _enqueued(request, key, builder, arguments)
    done = state.rendered(key)
    if done is None:
        return _status_page(request, ready=False, failed=state.is_failed(key))
    if request.headers.get("HX-Request"):
        return _status_page(request, ready=True, failed=False)
    response = HttpResponse(done.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{done.filename}"'
    return response
