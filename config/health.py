"""``/ping/``: the cheapest page of the stack, for health checks and the load test.

"ok" says that this process answers, not that the database does (a page that needs the
database says so with its own 503). It reads nothing.

``PingMiddleware``, first in ``MIDDLEWARE``, answers ``/ping/`` before any other
middleware: before the HTTPS redirect (a probe inside the container speaks plain HTTP;
``SECURE_REDIRECT_EXEMPT`` says the same) and before the host is checked against
``ALLOWED_HOSTS`` (a probe asks for ``localhost`` or the container's address, not the
club's name). The image's HEALTHCHECK asks it (docs/operating.md, The Docker image).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.utils.cache import add_never_cache_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

PING_PATH = "/ping/"


@never_cache
@require_safe
def ping(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")


class PingMiddleware:
    """Answers ``/ping/`` at once, whatever the Host and the scheme."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != PING_PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        response = HttpResponse("ok", content_type="text/plain; charset=utf-8")
        add_never_cache_headers(response)
        return response
