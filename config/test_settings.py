"""Settings for the test suite: the production settings with test-only secrets and fast hashing."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-not-for-any-real-site")
os.environ.setdefault("SECURE_SSL", "0")

from config.settings import *  # noqa: E402,F403
from config.settings import STORAGES  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# One cache per test process, emptied before each test (tests/conftest.py).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
