"""Addresses on paper: the players' private links and the public match pages.

A private link is an absolute address (``https://club.example/p/<key>/``): its scheme
and host are the request's when a view prints it (``base_url_of``), ``--base-url``
in the commands. It is printed only where its player alone gets it: their login
slip, and ``manage.py player_links`` for an organiser to pass on. A table's score
sheet, which both players share, carries the public address of their match's page
instead (``printed_match_page``): anyone may open it, and a player reports from it
only when logged in or with their own private link (docs/printing.md). The *short
link* is an address without the scheme, what a player types into a browser (which
adds the scheme back). On paper a link comes with its QR code (``qr``).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from django.http import HttpRequest
from django.urls import reverse

from printing import qr
from tournaments.models import Entry, Match

DEFAULT_BASE_URL = "http://127.0.0.1:8000"


def base_url_of(request: HttpRequest) -> str:
    """The scheme and host the reader reached the site by, e.g. ``https://club.example/``."""
    return request.build_absolute_uri("/")


def checked_base_url(value: str) -> str:
    """``value`` if it is an http(s) scheme and host with no path; else ValueError."""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        raise ValueError(f"{value!r} is not a scheme and host like {DEFAULT_BASE_URL}")
    return value


def private_url(base_url: str, key: str) -> str:
    """The absolute address of the private link with ``key``, under ``base_url``."""
    return base_url.rstrip("/") + reverse("private_link", kwargs={"key": key})


def match_page_url(base_url: str, slug: str, match: Match) -> str:
    """The absolute address of the public page of ``match`` (of the tournament ``slug``)."""
    return base_url.rstrip("/") + reverse("tournaments:match", args=[slug, match.pk])


def short_url(url: str) -> str:
    """``url`` without its scheme: ``club.example/p/<key>/``."""
    return url.split("://", 1)[-1]


@dataclass(frozen=True)
class PrintedLink:
    """An address on paper: its QR code and the short link to type."""

    code: qr.Code
    short: str


def printed_link(
    entry: Entry, base_url: str, *, spot: str, size: float, offset: float = 0
) -> PrintedLink | None:
    """``entry``'s private link under ``base_url``, its code drawn at ``spot``; None if revoked."""
    if not entry.private_key:
        return None
    url = private_url(base_url, entry.private_key)
    return PrintedLink(qr.Code(url, spot=spot, size=size, offset=offset), short_url(url))


def printed_match_page(
    match: Match, slug: str, base_url: str, *, spot: str, size: float
) -> PrintedLink:
    """The public page of ``match`` under ``base_url``, its code drawn at ``spot``."""
    url = match_page_url(base_url, slug, match)
    return PrintedLink(qr.Code(url, spot=spot, size=size), short_url(url))
