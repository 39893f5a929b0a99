"""``manage.py db_worker`` whose re-rates and PDF renders dawdle, so a test can kill it in
the middle of one: ``python -m tests.ops.slow_worker SECONDS [db_worker options]``.

A re-rate waits inside its transaction, after it has taken the pending announcements
and before it rates (``ratings.services._rebuild``); a render waits before it lays the
document out. Everything else is the real worker.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import django


def dawdling(function: Callable[..., Any], seconds: float) -> Callable[..., Any]:
    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return function(*args, **kwargs)

    return slow


def main() -> None:
    seconds = float(sys.argv[1])
    django.setup()
    from django.core.management import call_command

    from printing import documents
    from ratings import services

    services._rebuild = dawdling(services._rebuild, seconds)
    documents.render_pdf = dawdling(documents.render_pdf, seconds)
    call_command("db_worker", *sys.argv[2:])


if __name__ == "__main__":
    main()
