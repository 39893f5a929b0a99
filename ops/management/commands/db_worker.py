"""``manage.py db_worker``: django-tasks-db's worker command, running ``ops.worker``'s
worker, which waits out database outages, beats and sweeps (docs/operating.md)."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import CommandError
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker

from ops.worker import SupervisedWorker


class Command(db_worker.Command):
    help = (
        "Run the task worker: it waits for the database when it cannot be reached, and "
        "runs again the tasks a lost worker left unfinished (docs/operating.md)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.configure_logging(options["verbosity"])
        reload = options["reload"] and not options["batch"]
        queue_names = options["queue_name"].split(",")
        excluded = options["exclude_queues"].split(",") if options["exclude_queues"] else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = SupervisedWorker(
            queue_names=queue_names,
            interval=options["interval"],
            batch=options["batch"],
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
            excluded_queue_names=excluded,
        )
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
