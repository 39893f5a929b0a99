"""Settings for the test suite: the production settings with test-only secrets and fast hashing."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-not-for-any-real-site")
os.environ.setdefault("SECURE_SSL", "0")
# Backups are signed in the tests as on a real site; a test of unsigned ones says otherwise.
os.environ.setdefault("BACKUP_SIGNING_KEY", "tests-only-backup-signing-key-0123456789abcdef")

from config.environment import SiteEnv, site_cache  # noqa: E402
from config.settings import *  # noqa: E402,F403
from config.settings import DATABASES, STORAGES  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# One cache per test process, emptied before each test (tests/conftest.py).
CACHES = {
    "default": site_cache(SiteEnv.cache_url_config("locmemcache://"), database=DATABASES["default"])
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A test database in a file, not in memory: the browser tests' live server answers
    # a game's polls while a move is written, and in-memory SQLite (shared cache) fails
    # such a read at once ("table is locked") where a file in write-ahead mode lets it
    # read. pytest-django gives each xdist worker a file of its own.
    import tempfile

    DATABASES["default"]["TEST"] = {
        "NAME": os.path.join(tempfile.gettempdir(), f"club-tests-{os.getpid()}.sqlite3")
    }

# Tasks run at once, inside the request or service that enqueues them (no worker): a test
# of the queue itself says otherwise with ``override_settings``.
TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
