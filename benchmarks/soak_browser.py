"""What the soak test's people browse with (``benchmarks/soak_people.py``): HTTP only.

Terms:
- A *browser* is one person's: their cookies (the session a private link opens, the CSRF
  cookie) and their address, sent as ``X-Forwarded-For`` as the club's proxy would pass
  it on (the site runs with ``CLIENT_IP_HEADER``), so each phone is throttled as one.
  It follows no redirect: a redirect is an answer of its own (a saved report is a 302).
- An *answer* is a status code, or 0 when none came (connection refused or cut, timed
  out). The *tally* counts every answer by the kind of request and keeps when each 5xx
  or missing answer came, to set it beside the faults.
"""

from __future__ import annotations

import http.client
import itertools
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from dataclasses import dataclass
from email.message import Message
from http.cookiejar import CookieJar
from typing import Any

TIMEOUT = 30.0


@dataclass
class Answer:
    status: int  # 0: no answer
    headers: Message
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Tally:
    """Every answer, by the kind of request; when each 5xx or missing one came."""

    def __init__(self, began: float) -> None:
        self.began = began
        self.lock = threading.Lock()
        self.counts: dict[str, Counter[int]] = {}
        self.troubles: list[tuple[float, str, int]] = []

    def count(self, name: str, status: int) -> None:
        with self.lock:
            self.counts.setdefault(name, Counter())[status] += 1
            if status == 0 or status >= 500:
                self.troubles.append((time.monotonic() - self.began, name, status))


class _Unfollowed(urllib.request.HTTPRedirectHandler):
    """Redirects are answers of their own (a saved report is a 302), not followed."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_addresses = itertools.count(1)


class Browser:
    def __init__(self, base: str, tally: Tally) -> None:
        self.base = base
        self.tally = tally
        n = next(_addresses)
        self.headers = {
            "X-Forwarded-For": f"10.{n // 250}.{n % 250}.1",
            "Accept-Language": "sv",
        }
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()), _Unfollowed()
        )

    def get(self, path: str, name: str, headers: dict[str, str] | None = None) -> Answer:
        request = urllib.request.Request(
            self.base + path, headers={**self.headers, **(headers or {})}
        )
        return self._send(request, name)

    def post(
        self, path: str, name: str, data: dict[str, Any], headers: dict[str, str] | None = None
    ) -> Answer:
        body = urllib.parse.urlencode(data, doseq=True).encode()
        request = urllib.request.Request(
            self.base + path, data=body, headers={**self.headers, **(headers or {})}
        )
        return self._send(request, name)

    def _send(self, request: urllib.request.Request, name: str) -> Answer:
        try:
            with self.opener.open(request, timeout=TIMEOUT) as response:
                answer = Answer(response.status, response.headers, response.read())
        except urllib.error.HTTPError as error:  # 3xx, 4xx, 5xx: answers all the same
            answer = Answer(error.code, error.headers, error.read())
        except (OSError, http.client.HTTPException):
            answer = Answer(0, Message(), b"")
        self.tally.count(name, answer.status)
        return answer


def failed(answer: Answer) -> bool:
    """No answer, a 5xx, or a form token refused (403): a person tries again."""
    return answer.status == 0 or answer.status >= 500 or answer.status == 403
