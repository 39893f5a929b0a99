"""Settings of the real task workers that tests/ops/test_worker_faults.py starts and kills.

The test settings, with the queue in the database and the cache where the test process
reads it (``CACHE_URL``), and the worker's beat, lease and sweep a hundred times quicker
than a site's (``TASK_WORKER``), so a lost worker is found in seconds, not a minute.
"""

import os

from config.environment import cache_at
from config.test_settings import *  # noqa: F403
from config.test_settings import DATABASES

CACHES = {
    "default": cache_at(
        os.environ.get("CACHE_URL", "locmemcache://"), database=DATABASES["default"]
    )
}
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
TASK_WORKER = {"BEAT_SECONDS": 0.2, "LEASE_SECONDS": 1.5, "SWEEP_SECONDS": 0.5}
