"""Rate limits counted in the cache, each saying what it does when the cache cannot count.

django-ratelimit counts each request in the cache (``add``, then ``incr``). When the
cache cannot be reached (``core.cache``) there is no count, and each limit chooses
(docs/operating.md, "Throttles"): *fail open* lets the request through uncounted, *fail
closed* refuses it as if past the limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django_ratelimit import ALL
from django_ratelimit.core import is_ratelimited

from core.cache import unanswered

# django-ratelimit's key: a name it knows ("ip") or a function of the group and request.
Key = str | Callable[[str, HttpRequest], str]
# Its rate: "30/m", or a function of the group and request (None: not limited).
Rate = str | Callable[[str, HttpRequest], str | None]


def over_limit(request: HttpRequest, *, group: str, key: Key, rate: Rate, fail_open: bool) -> bool:
    """Count this request in ``group``; True when it is past ``rate`` per ``key``.

    When the cache cannot count it: False if ``fail_open``, else True.
    """
    before = unanswered()
    limited: Any = is_ratelimited(  # django-ratelimit: untyped
        request, group=group, key=key, rate=rate, method=ALL, increment=True
    )
    if unanswered() != before:
        return not fail_open
    return bool(limited)
