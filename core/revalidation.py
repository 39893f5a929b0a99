"""What a page's validators were made of, kept in the cache, and told apart from what has
moved since, so that an unchanged page is answered 304 without the database.

Terms:

- *scope*: a named part of the site's data whose every change is announced here
  (``moved``): a tournament's pages (``tournament:<slug>``), the rating list's expected
  scores, the accounts (``readers``: a login's roles and passwords), one session.
- *mark*: a scope's current token in the cache, random and new at each change (never a
  counter: a mark that was evicted and made again is not an old one come back). A scope
  without a mark gets one when it is first read (``stamp``).
- *entry*: what a page's validators (or a reader's facts) were computed from, kept with
  the marks of the scopes it depends on, read *before* the data was. It is good while
  each of those marks is still the same (``Kept.good``).

Why a good entry is never stale: a change moves the marks of its scopes after its
transaction commits (and once more at once, for a transaction that ends otherwise: a
test's). An entry made from data read before the commit was stamped with marks read
before that, which the commit's new marks replace; an entry made from data read after
the commit may carry the old marks only if the new ones were not written yet, and they
are written right after. So an entry is good only while its data is current, as long as
the cache takes the new marks. If it cannot (the cache unreachable from the process that
made the change, reachable from the others), an entry may be served until its mark
expires: every mark lives ``MARK_SECONDS`` at most, the one bound on that case. A cache
that cannot be read is a miss: the page is computed from the database, as before.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction

# The longest an entry can be trusted after a change whose new mark was lost, and how
# long a page's or a reader's entry is kept.
MARK_SECONDS = 120
PREFIX = "revalidation"

READERS = "readers"
"""The accounts: a change to any (roles, password, deletion) is a change of reader."""


def _mark_key(scope: str) -> str:
    return f"{PREFIX}:mark:{scope}"


def _entry_key(key: str) -> str:
    return f"{PREFIX}:entry:{key}"


def _move(scopes: tuple[str, ...]) -> None:
    cache.set_many({_mark_key(scope): secrets.token_hex(8) for scope in scopes}, MARK_SECONDS)


def moved(*scopes: str) -> None:
    """Every entry stamped with a mark of ``scopes`` is out of date: new marks now and
    after the transaction commits (at once outside one)."""
    if not scopes:
        return
    _move(scopes)
    transaction.on_commit(lambda: _move(scopes))


def stamp(scopes: Iterable[str]) -> dict[str, str] | None:
    """The marks of ``scopes`` now, made where missing; read before the data an entry is
    made of. None when the cache does not keep them (then nothing is kept)."""
    wanted = {scope: _mark_key(scope) for scope in scopes}
    found = cache.get_many(list(wanted.values()))
    for key in wanted.values():
        if key not in found:
            cache.add(key, secrets.token_hex(8), MARK_SECONDS)
    if len(found) < len(wanted):
        found = cache.get_many(list(wanted.values()))
        if len(found) < len(wanted):
            return None
    return {scope: str(found[key]) for scope, key in wanted.items()}


def keep(key: str, value: Any, marks: Mapping[str, str] | None) -> None:
    """Keep ``value``, computed after ``marks`` were read (``stamp``), under ``key``."""
    if marks is not None:
        cache.set(_entry_key(key), {"marks": dict(marks), "value": value}, MARK_SECONDS)


@dataclass(frozen=True)
class Kept:
    """What one read of the cache found: the entries asked for and the marks now."""

    entries: dict[str, Any]
    marks: dict[str, str]

    def good(self, key: str) -> Any | None:
        """The value kept under ``key`` if every mark it was stamped with is current."""
        entry = self.entries.get(key)
        if not isinstance(entry, dict) or not entry.get("marks"):
            return None
        marks: dict[str, str] = entry["marks"]
        if any(self.marks.get(scope) != mark for scope, mark in marks.items()):
            return None
        return entry["value"]


def fetch(keys: Iterable[str], scopes: Iterable[str]) -> Kept:
    """The entries under ``keys`` and the marks of ``scopes``, in one read of the cache."""
    entry_keys = {_entry_key(key): key for key in keys}
    mark_keys = {_mark_key(scope): scope for scope in scopes}
    found = cache.get_many([*entry_keys, *mark_keys])
    return Kept(
        entries={key: found[name] for name, key in entry_keys.items() if name in found},
        marks={scope: str(found[name]) for name, scope in mark_keys.items() if name in found},
    )
