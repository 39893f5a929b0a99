"""What counts as an outage of the database: an error reaching it, not a refusal by it.

Django maps the driver's errors to ``OperationalError`` (a server gone, a connection
refused or cut, a deadlock or a serialisation failure) and ``InterfaceError`` (a
connection already closed). Either may arrive as the cause of another error. The web
side answers such a request with the 503 page (``config.middleware``); the task worker
waits and reconnects (``ops.worker``). Both ask here.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError


def is_database_outage(error: BaseException | None) -> bool:
    """True for an error reaching the database, itself or as the cause of another."""
    while error is not None:
        if isinstance(error, OperationalError | InterfaceError):
            return True
        error = error.__cause__
    return False
