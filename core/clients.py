"""Who a request comes from, for the throttles (rate limits and login lockouts).

Behind a proxy the connection's address is the proxy's: set ``CLIENT_IP_HEADER`` to the
header the proxy writes (``X-Forwarded-For``) and the last address in it, the one the
proxy itself added, is the client's. Addresses further left could be written by anyone.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    header = getattr(settings, "CLIENT_IP_HEADER", "")
    if header:
        meta_key = "HTTP_" + header.upper().replace("-", "_")
        written: str = request.META.get(meta_key, "")
        forwarded = [part.strip() for part in written.split(",")]
        if forwarded and forwarded[-1]:
            return forwarded[-1]
    return str(request.META.get("REMOTE_ADDR", ""))
