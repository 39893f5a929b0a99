"""The site's sessions: Django's, in the database, each change announced to the pages'
validators (``core.revalidation``).

A page answered 304 without the database (``tournaments.revalidation``) knows its reader
by the session cookie alone: what the session held when the reader's facts were last
read from it is kept in the cache under the cookie's *session scope*. A session's
contents change under the same key (a private link opened, a message kept for the next
page), so every save and every deletion of a session moves that scope's mark, after the
write, and the kept facts are read again.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore

from core import revalidation


def session_scope(session_key: str) -> str:
    """The scope of the session ``session_key``: a keyed digest (a cache key never holds a
    session's key, which would let whoever reads the cache sign in as its owner)."""
    digest = hashlib.blake2b(
        session_key.encode(), key=settings.SECRET_KEY.encode()[:64], digest_size=16
    )
    return f"session:{digest.hexdigest()}"


class SessionStore(DatabaseSessionStore):
    def save(self, must_create: bool = False) -> None:
        super().save(must_create=must_create)
        if self.session_key:
            revalidation.moved(session_scope(self.session_key))

    def delete(self, session_key: str | None = None) -> None:
        key = session_key or self.session_key
        super().delete(session_key)
        if key:
            revalidation.moved(session_scope(key))
