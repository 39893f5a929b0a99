"""A tournament page asked again, answered 304 from the cache before its session is loaded
or the database asked (the *early path* of ``views.conditional``), and the ETag both paths
compute alike.

Terms (the marks and entries are ``core.revalidation``'s):

- *page kind*: what a page's version is made of (``views.conditional``): ``tournament``
  (its results version: any change), ``standings`` (its setup and final results),
  ``round`` (the rounds up to it; while it is played, the expected scores too), ``match``
  (the match and the setup).
- *page entry*: one page's version and its tournament's last change (``Last-Modified``),
  stamped with the mark of the tournament's scope (``tournament:<slug>``, moved by
  ``services.changes`` with every change) and, for a round, the expected scores'.
- *reader*: whom a page is for, besides its address: the language, the *reader's facts*
  (the account and the private links in their session), the CSRF cookie the page's
  forms carry, and the fragment htmx asks for.
- *reader's entry*: the facts of the reader whose session cookie is ``S``, read by a page
  that loaded the session, stamped with the marks of ``S``'s session scope (moved by every
  save of the session, ``core.sessions``) and of the accounts (``readers``: roles,
  passwords, ``club.readers``); kept only for a reader who is not an organiser and has
  no message waiting.

The early path answers only a GET or HEAD with ``If-None-Match``, without a messages
cookie, whose page entry is good and whose reader is known without the session: no
session cookie (a visitor: no account, no link) or a good reader's entry. It computes the
ETag as the page would (``etag``) and answers 304 when the reader's copy has it;
otherwise the page is served as before (from the database), and what the cache did not
hold is kept for the next time. A reader without a copy (no ``If-None-Match``) is not
looked up at all: nothing could be answered from the cache. An organiser has no reader's
entry, so their pages are always computed (and always fresh); a page with a message
waiting is too.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language

from core import revalidation
from core.sessions import session_scope
from tournaments.access import SESSION_KEY
from tournaments.ports import EXPECTED_SCORES
from tournaments.services.changes import pages_scope

KEYED_BY = {"tournament": (), "standings": (), "round": ("number",), "match": ("pk",)}
"""Each page kind, and what of the address besides the tournament tells its pages apart."""


@dataclass(frozen=True)
class Version:
    """What a page's validators are made of: its version, and the last change's time."""

    version: str
    at: datetime.datetime


@dataclass(frozen=True)
class Page:
    """One page of the early path: its entry's key and the scopes it is stamped with."""

    key: str
    scopes: tuple[str, ...]


def page_of(kind: str | None, kwargs: Mapping[str, Any]) -> Page | None:
    """The page of kind ``kind`` at the address whose arguments are ``kwargs``."""
    if kind is None or "slug" not in kwargs:
        return None
    slug = str(kwargs["slug"])
    parts = [kind, slug, *(str(kwargs[name]) for name in KEYED_BY[kind])]
    scopes = (pages_scope(slug), EXPECTED_SCORES) if kind == "round" else (pages_scope(slug),)
    return Page("page:" + ":".join(parts), scopes)


def facts(user_pk: object, links: Mapping[str, str]) -> str:
    """The reader's facts: their account and the private links their session holds."""
    text = json.dumps(["" if user_pk is None else str(user_pk), sorted(links.items())])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


VISITOR = facts(None, {})
"""The facts of a reader without a session: no account, no link."""


def etag(request: HttpRequest, version: str, reader: str) -> str:
    """The page's ETag for ``reader`` (their facts); the same on either path."""
    parts = [
        version,
        get_language() or "",
        reader,
        request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""),
        request.headers.get("HX-Request", ""),
        request.headers.get("HX-Target", ""),
    ]
    digest = hashlib.blake2b("|".join(parts).encode(), digest_size=16).hexdigest()
    return f'"{digest}"'


def _session_cookie(request: HttpRequest) -> str:
    return request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")


def _reader_key(cookie: str) -> str:
    return "reader:" + session_scope(cookie)


@dataclass(frozen=True)
class Found:
    """What the cache holds for a page and its reader, read in one go before the session
    or the database is (``find``): the entries, and the marks they are checked against
    (and, if nothing is kept yet, stamped with)."""

    page: Page
    cookie: str  # the session cookie ("": none)
    reader_scopes: tuple[str, ...]  # the reader's entry's scopes (none: no entry kept)
    kept: revalidation.Kept

    def version(self) -> Version | None:
        entry = self.kept.good(self.page.key)
        if not isinstance(entry, dict):
            return None
        at = datetime.datetime.fromtimestamp(entry["at"], tz=datetime.UTC)
        return Version(str(entry["version"]), at)

    def reader(self) -> str | None:
        if not self.cookie:
            return VISITOR
        facts = self.kept.good(_reader_key(self.cookie)) if self.reader_scopes else None
        return facts if isinstance(facts, str) else None


def find(request: HttpRequest, page: Page) -> Found:
    """The page's and the reader's entries and their marks, in one read of the cache. A
    reader's entry is looked for only while their session is not loaded: the marks must be
    read before what the entry is made of."""
    cookie = _session_cookie(request)
    keys = [page.key]
    reader_scopes: tuple[str, ...] = ()
    if cookie and not request.session.accessed:
        keys.append(_reader_key(cookie))
        reader_scopes = (session_scope(cookie), revalidation.READERS)
    scopes = [*page.scopes, *reader_scopes]
    kept = revalidation.fetch(keys, scopes)
    if len(kept.marks) < len(scopes):  # made now, still before the data is read
        kept = revalidation.Kept(kept.entries, revalidation.stamp(scopes) or kept.marks)
    return Found(page, cookie, reader_scopes, kept)


def early_answer(request: HttpRequest, found: Found) -> tuple[HttpResponse, Version] | None:
    """The 304 for a reader whose copy is current, from what the cache holds alone; else
    None (the page is asked of the database)."""
    if "If-None-Match" not in request.headers or CookieStorage.cookie_name in request.COOKIES:
        return None
    version, reader = found.version(), found.reader()
    if version is None or reader is None:
        return None
    tag = etag(request, version.version, reader)
    response = get_conditional_response(request, etag=tag)
    if response is None or response.status_code != 304:
        return None
    response["ETag"] = tag
    return response, version


def remember(found: Found, version: Version, reader: str) -> None:
    """Keep the page's version and the reader's facts (read from the database and the
    session after ``found``) for the early path, where the cache does not hold them
    already. Only for a reader whose page has validators: not an organiser, no message
    waiting."""
    scopes = [*found.page.scopes, *found.reader_scopes]
    marks = found.kept.marks  # read before the data was: they stamp it
    if not all(scope in marks for scope in scopes):
        return  # the cache keeps nothing now (marks made now would postdate the data)
    if found.version() != version:
        entry = {"version": version.version, "at": version.at.timestamp()}
        revalidation.keep(found.page.key, entry, {s: marks[s] for s in found.page.scopes})
    if found.reader_scopes and found.reader() != reader:
        own = {scope: marks[scope] for scope in found.reader_scopes}
        revalidation.keep(_reader_key(found.cookie), reader, own)


def reader_of(request: HttpRequest) -> str:
    """The reader's facts, from their session (loading it)."""
    user = getattr(request, "user", None)
    pk = user.pk if user is not None and user.is_authenticated else None
    return facts(pk, request.session.get(SESSION_KEY, {}))
