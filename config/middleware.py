"""Middleware of the site as a whole: an unreachable database answers 503, not 500."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from config.errors import database_unavailable
from core.outages import is_database_outage


class DatabaseUnavailableMiddleware:
    """A view that fails to reach the database answers the "try again in a minute" page.

    Failures outside a view (another middleware, a response being finished) reach
    ``config.errors.server_error`` instead, which answers the same page.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_database_outage(exception):
            return database_unavailable(request, exception)
        return None
