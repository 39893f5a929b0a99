"""Settings of the real servers that tests/venue/test_two_servers.py starts.

The test settings (test-only secret, fast hashing, no static manifest), with what a site
on several servers has instead of the test process' own: the cache at ``CACHE_URL``
(Redis) and the task queue in the database, taken by a ``db_worker`` of its own.
"""

import os

from config.environment import cache_at
from config.test_settings import *  # noqa: F403
from config.test_settings import DATABASES

CACHES = {"default": cache_at(os.environ["CACHE_URL"], database=DATABASES["default"])}
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
