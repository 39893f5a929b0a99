"""Rendered PDFs kept in Django's cache, rendered by a worker, never inside a request.

A PDF's cache key (``cache_key``) names the document, its options, the reader's
language and the *version* of what it shows, which the app that owns the document
computes (a tournament's moves with every result: docs/operating.md, "PDFs, rendered
by the worker"). A
changed result is a new version and so a new key: no PDF is ever served from before
the change, and the old ones age out of the cache.

A request for a document version that is not rendered yet enqueues one render task
(``printing.tasks.render_pdf``) and answers at once with a page that says the document
is being prepared and reloads itself until it is there (after 2 s, then a second
longer each time, at most 10 s; ``printing.state`` keeps the
markers that make many readers, or one reader's burst, enqueue it once). Only the
request that enqueues a render counts against the reader's rate limit
(``render_refused``): readers of a document already rendered or queued cost nothing,
and readers the caller says are ``exempt`` (the organisers) are never limited.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.crypto import get_random_string
from django.utils.translation import get_language
from django_ratelimit.exceptions import Ratelimited

from core.clients import client_ip
from core.throttles import over_limit
from printing import state, tasks
from printing.builders import JSON
from printing.state import Rendered

# New documents a reader may have rendered (documents rendered or queued already are
# never counted): by address for visitors, where one address may be a whole venue behind
# the club's router (docs/operating.md, "Rate limits"); by account for members; the
# readers a view calls exempt (organisers) print what they need.
VISITOR_RENDERS = "60/10m"
MEMBER_RENDERS = "60/10m"
# When the "being prepared" page looks again: after REFRESH_SECONDS, then a second longer
# each time up to MAX_REFRESH_SECONDS (a document alone is ready in a few seconds; behind
# a queue of renders a reader's tabs would otherwise ask every 2 s for a minute).
REFRESH_SECONDS = 2
MAX_REFRESH_SECONDS = 10
# The query parameters of "Try again" after a failed render, and of how many times the
# page has looked again.
RETRY = "retry"
WAITED = "waited"

__all__ = ["Rendered", "cache_key", "pdf_response", "render_refused"]


def cache_key(kind: str, *options: object, version: str) -> str:
    """The document's key: its kind, options, the reader's language and ``version``.

    ``version`` is that of what the document shows: a new one is a new key.
    """
    parts = [kind, version, get_language() or "", *(str(option) for option in options)]
    digest = hashlib.blake2b("|".join(parts).encode(), digest_size=16).hexdigest()
    return f"pdf:{kind}:{digest}"


# Given the request's user, True when they render without limit (the apps pass
# club.roles.is_organiser).
Exempt = Callable[[Any], bool]


def nobody(user: Any) -> bool:
    """No reader is exempt."""
    return False


def _reader(group: str, request: HttpRequest) -> str:
    user = request.user
    return f"user:{user.pk}" if user.is_authenticated else f"ip:{client_ip(request)}"


def _rate(exempt: Exempt, group: str, request: HttpRequest) -> str | None:
    if exempt(request.user):
        return None
    return MEMBER_RENDERS if request.user.is_authenticated else VISITOR_RENDERS


def render_refused(request: HttpRequest, *, exempt: Exempt = nobody) -> bool:
    """Count one render against the reader; True when they have used up their renders.

    Fails open: a render is queued once per document whatever the count (its marker), so
    a count the cache cannot keep lets it through rather than refuse a reader for the
    cache's fault. While the cache is down no render is queued anyway: the marker cannot
    be added, and the reader is told the document is being prepared.
    """
    return over_limit(
        request, group="pdf-render", key=_reader, rate=partial(_rate, exempt), fail_open=True
    )


def _enqueued(
    request: HttpRequest, key: str, builder: str, arguments: dict[str, JSON], exempt: Exempt
) -> None:
    """Enqueue the render unless it is queued already; a reader past their limit gets 429."""
    if not state.mark_queued(key):
        return
    try:
        if render_refused(request, exempt=exempt):
            raise Ratelimited
        tasks.render_pdf.enqueue(
            key=key, builder=builder, arguments=arguments, language=get_language() or ""
        )
    except BaseException:
        state.render_finished(key)  # nothing is queued: let the next reader try
        raise


def _waited(request: HttpRequest) -> int:
    """How many times the reader's page has looked again (0 for a bad value)."""
    value = request.GET.get(WAITED, "")
    return min(int(value), MAX_REFRESH_SECONDS) if value.isascii() and value.isdigit() else 0


def _again(request: HttpRequest, *, retry: bool = False, waited: int | None = None) -> str:
    """This document's address, asking to try a failed render again or not, and counting
    the page's looks (``waited``) or not."""
    query = request.GET.copy()
    query.pop(RETRY, None)
    query.pop(WAITED, None)
    if retry:
        query[RETRY] = "1"
    if waited:
        query[WAITED] = str(waited)
    encoded = urlencode(sorted(query.items()))
    return f"{request.path}?{encoded}" if encoded else request.path


def _status_page(request: HttpRequest, *, title: str, ready: bool, failed: bool) -> HttpResponse:
    waited = _waited(request)
    context = {
        "title": title,
        "url": _again(request),
        "look_again_url": _again(request, waited=waited + 1),
        "retry_url": _again(request, retry=True),
        "ready": ready,
        "failed": failed,
        "refresh_seconds": min(REFRESH_SECONDS + waited, MAX_REFRESH_SECONDS),
        "polling": bool(request.headers.get("HX-Request")),
    }
    # Rendered without the request (no context processors: no session, user nor query):
    # one reader's burst of tabs asks for this page many times a second.
    if context["polling"]:
        status = 200 if ready or failed else 202
        fragment = render_to_string("printing/preparing.html#status", context)
        return HttpResponse(fragment, status=status)
    response = HttpResponse(render_to_string("printing/preparing.html", context))
    # Its own validator, never the document's: a browser that keeps this page must not be
    # told "304, still the same" once the PDF is there (views.conditional keeps an ETag
    # that is already set).
    response["ETag"] = f'"preparing-{get_random_string(12)}"'
    return response


def pdf_response(
    request: HttpRequest,
    key: str,
    builder: str,
    *,
    title: str,
    exempt: Exempt = nobody,
    **arguments: JSON,
) -> HttpResponse:
    """The PDF at ``key`` if it is rendered; else the page, headed by the document's
    ``title`` (which document: its kind, round and tournament), saying it is being prepared
    (after enqueueing its render, the builder registered as ``builder`` given
    ``arguments``: ``printing.builders``) or that its render failed. A reader ``exempt``
    says yes to is never refused a render.

    Under a backend that runs tasks at once (the tests' ImmediateBackend) the render is
    done when it is enqueued, and the PDF is served at once.
    """
    if request.GET.get(RETRY) and state.is_failed(key):
        state.forget_failure(key)
    if state.rendered(key) is None and not state.is_failed(key):
        _enqueued(request, key, builder, arguments, exempt)
    done = state.rendered(key)
    if done is None:
        return _status_page(request, title=title, ready=False, failed=state.is_failed(key))
    if request.headers.get("HX-Request"):
        return _status_page(request, title=title, ready=True, failed=False)
    response = HttpResponse(done.content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{done.filename}"'
    return response
