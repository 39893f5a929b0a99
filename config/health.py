"""``/ping/``: the cheapest page of the stack, for load balancers and the load test.

It goes through every middleware like any page but reads nothing: "ok" says that
this process answers, not that the database does (a page that needs the database
says so with its own 503).
"""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def ping(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")
