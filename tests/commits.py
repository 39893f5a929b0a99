"""Announcements delivered in tests as they are on the site: when a service's transaction
ends (``ops.outbox``).

A test's database work runs inside transactions that never commit (pytest-django's, as
Django's ``TestCase``), so nothing registered with ``transaction.on_commit`` runs. On the
site the outbox delivers what a service announced once its outermost transaction
commits; here it does so once that transaction ends without error, when only the test's
own blocks are left open, the moment the site would commit. A service that failed rolled
its announcement back with it, as on the site. Other after-commit work (a review queued,
a push) is left to the tests that capture it (``django_capture_on_commit_callbacks``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

from django.db import connections, transaction

from ops import outbox

_exit = transaction.Atomic.__exit__
_delivering = False


def _exit_and_deliver(
    self: transaction.Atomic,
    exc_type: type[BaseException] | None,
    exc_value: BaseException | None,
    traceback: TracebackType | None,
) -> Any:
    result = _exit(self, exc_type, exc_value, traceback)
    connection = connections[self.using or "default"]
    outermost = all(getattr(block, "_from_testcase", False) for block in connection.atomic_blocks)
    if exc_type is None and connection.in_atomic_block and outermost:
        _deliver(connection)
    return result


def _deliver(connection: Any) -> None:
    global _delivering
    owed = [entry for entry in connection.run_on_commit if entry[1] is outbox.deliver]
    if _delivering or not owed:
        return
    connection.run_on_commit = [entry for entry in connection.run_on_commit if entry not in owed]
    _delivering = True
    try:
        outbox.deliver()
    finally:
        _delivering = False


@contextmanager
def delivered_at_the_end_of_services() -> Iterator[None]:
    transaction.Atomic.__exit__ = _exit_and_deliver  # type: ignore[method-assign]
    try:
        yield
    finally:
        transaction.Atomic.__exit__ = _exit  # type: ignore[method-assign]
