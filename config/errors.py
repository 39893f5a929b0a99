"""The error pages that must work when little else does: 429, 500 and 503.

They are rendered without the request's context: no context processor runs, so
nothing reads the session or the user, and the pages need no database. They are in
the language of the reader's cookie or browser all the same.

- 429: a rate limit (django-ratelimit, ``RATELIMIT_VIEW``) refused the request.
- 503: the database cannot be reached. A view's failure is caught by
  ``config.middleware.DatabaseUnavailableMiddleware``; a failure in a middleware
  reaches ``server_error`` (``handler500``), which answers 503 for it too.
- 500: anything else.
"""

from __future__ import annotations

import logging
import sys

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import add_never_cache_headers

from core.outages import is_database_outage

logger = logging.getLogger(__name__)

# Seconds a refused client is asked to wait: the site's rate limits count over windows
# of minutes, and the 429 page says "a few minutes"; the 503 page says "a minute".
RATE_LIMITED_RETRY_AFTER = 120
DATABASE_RETRY_AFTER = 60


def error_page(request: HttpRequest | None, template: str, *, status: int) -> HttpResponse:
    """``template`` in the reader's language, rendered without the request's context."""
    language = translation.get_language_from_request(request) if request else None
    with translation.override(language or translation.get_language()):
        response = HttpResponse(render_to_string(template), status=status)
    add_never_cache_headers(response)
    return response


def too_many_requests(request: HttpRequest, exception: Exception) -> HttpResponse:
    response = error_page(request, "429.html", status=429)
    response["Retry-After"] = str(RATE_LIMITED_RETRY_AFTER)
    return response


def database_unavailable(request: HttpRequest, error: BaseException) -> HttpResponse:
    logger.error(
        "Database unavailable, answered 503 to %s %s: %s: %s",
        request.method,
        request.path,
        type(error).__name__,
        error,
    )
    response = error_page(request, "503.html", status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the 503 page when the database is the cause, else the 500 page."""
    error = sys.exc_info()[1]
    if is_database_outage(error):
        return database_unavailable(request, error)  # type: ignore[arg-type]
    return error_page(request, "500.html", status=500)
