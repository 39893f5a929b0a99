"""config/settings.py read under an environment of the test's own: each variable the
README lists, through the parser and default its line names, as a deployment sets it; a
value the site cannot work with stops it with an error that starts with the variable's
name. The settings module is run afresh each time (``runpy``), never Django's settings."""

from __future__ import annotations

import re
import runpy
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.cache import database_partition
from tests.first_party import SITE

ROOT = Path(__file__).resolve().parent.parent.parent
SETTINGS = ROOT / "config" / "settings.py"
# Every variable the settings read: each is read by one of env's parsers, by name.
VARIABLES = sorted(set(re.findall(r'env\.\w+\(\s*"([A-Z_]+)"', SETTINGS.read_text())))


@pytest.fixture
def read(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``read(**variables)``: the settings (Django's: upper case) under exactly these
    variables."""

    def read(**variables: str) -> dict[str, Any]:
        for name in VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in variables.items():
            monkeypatch.setenv(name, value)
        module = runpy.run_path(str(SETTINGS))
        return {name: value for name, value in module.items() if name.isupper()}

    return read


def test_a_checkout_without_any_variable(read: Any) -> None:
    settings = read()
    database = settings["DATABASES"]["default"]
    assert (database["ENGINE"], database["NAME"]) == (
        "django.db.backends.sqlite3",
        str(ROOT / "db.sqlite3"),
    )
    assert (database["CONN_MAX_AGE"], database["CONN_HEALTH_CHECKS"]) == (0, True)
    part = database_partition(database)
    assert settings["CACHES"]["default"] == {
        "BACKEND": "core.cache.ResilientFileCache",
        "LOCATION": str(ROOT / "var" / "cache" / part),
        "KEY_PREFIX": part,
        "OPTIONS": {"MAX_ENTRIES": 3000},
    }
    assert (settings["DEBUG"], settings["SECRET_KEY"]) == (False, "")
    assert settings["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]
    assert settings["CSRF_TRUSTED_ORIGINS"] == []
    assert (settings["SECURE_SSL_REDIRECT"], settings["SECURE_HSTS_SECONDS"]) == (True, 31536000)
    assert settings["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert "EMAIL_HOST" not in settings  # Django's default: localhost:25
    assert settings["DEFAULT_FROM_EMAIL"] == settings["SERVER_EMAIL"] == "webmaster@localhost"
    assert settings["TASKS"]["default"]["BACKEND"] == "django_tasks_db.DatabaseBackend"
    assert settings["STATIC_ROOT"] == ROOT / "staticfiles"
    assert settings["PUSH_REDIS_URL"] is None
    assert settings["PUSH_LONG_POLL"] is False
    assert (settings["BACKUP_SIGNING_KEY"], settings["BACKUP_VERIFY_KEYS"]) == ("", [])
    assert (settings["CLIENT_IP_HEADER"], settings["ADMINS"]) == ("", [])
    assert (settings["LOG_FORMAT"], settings["LOGGING"]["root"]["level"]) == ("text", "INFO")


def test_empty_variables_are_unset(read: Any) -> None:
    assert read(**dict.fromkeys(VARIABLES, "")) == read()


def test_debug_on_a_checkout(read: Any) -> None:
    settings = read(DEBUG="1")
    assert settings["DEBUG"] is True
    assert settings["SECRET_KEY"].startswith("django-insecure-")
    assert settings["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert "SECURE_SSL_REDIRECT" not in settings


def test_a_production_site_as_docs_operating_md_sets_it(read: Any) -> None:
    settings = read(
        DATABASE_URL="postgres://club:secret@db:5432/club",
        DATABASE_POOL="10",
        CACHE_URL="redis://cache:6379/0?key_prefix=club",
        SECRET_KEY="$a-long-random-string-that-starts-with-a-dollar",
        ALLOWED_HOSTS="club.example.se, www.club.example.se",
        CSRF_TRUSTED_ORIGINS="https://club.example.se",
        CLIENT_IP_HEADER="X-Forwarded-For",
        EMAIL_URL="smtp://club%40example.se:password@mail.example.se:587/?tls=1",
        DEFAULT_FROM_EMAIL="club@example.se",
        ADMINS="Kim Kassör <kim@example.se>, ops@example.se",
        BACKUP_VERIFY_KEYS="old-key-1,old-key-2",
        STATIC_ROOT="/srv/club/static",
        LOG_FORMAT="json",
        LOG_LEVEL="WARNING",
    )
    database = settings["DATABASES"]["default"]
    assert (database["HOST"], database["PORT"], database["NAME"]) == ("db", 5432, "club")
    assert database["CONN_MAX_AGE"] == 0
    assert database["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 10, "timeout": 10}
    cache = settings["CACHES"]["default"]
    assert cache["BACKEND"] == "core.cache.ResilientRedisCache"
    assert cache["KEY_PREFIX"] == f"club:{database_partition(database)}"
    assert settings["PUSH_REDIS_URL"] == "redis://cache:6379/0"
    assert settings["SECRET_KEY"] == "$a-long-random-string-that-starts-with-a-dollar"
    assert settings["ALLOWED_HOSTS"] == ["club.example.se", "www.club.example.se"]
    assert (settings["EMAIL_HOST"], settings["EMAIL_PORT"]) == ("mail.example.se", 587)
    assert settings["EMAIL_HOST_USER"] == "club@example.se"
    assert settings["SERVER_EMAIL"] == "club@example.se"
    assert settings["ADMINS"] == [
        ("Kim Kassör", "kim@example.se"),
        ("ops@example.se", "ops@example.se"),
    ]
    assert settings["BACKUP_VERIFY_KEYS"] == ["old-key-1", "old-key-2"]
    assert settings["STATIC_ROOT"] == Path("/srv/club/static")
    assert settings["LOGGING"]["handlers"]["console"]["formatter"] == "json"
    assert settings["LOGGING"]["root"]["level"] == "WARNING"


def test_conn_max_age_without_a_pool(read: Any) -> None:
    database = read(DATABASE_URL="postgres://club@db/club", CONN_MAX_AGE="30")["DATABASES"]
    assert database["default"]["CONN_MAX_AGE"] == 30
    assert "OPTIONS" not in database["default"]


def test_email_from_the_separate_variables(read: Any) -> None:
    settings = read(EMAIL_HOST="mail.example.se", EMAIL_USE_SSL="1", EMAIL_HOST_USER="club")
    assert (settings["EMAIL_HOST"], settings["EMAIL_PORT"], settings["EMAIL_USE_SSL"]) == (
        "mail.example.se",
        465,
        True,
    )
    settings = read(EMAIL_HOST="mail.example.se", EMAIL_PORT="2525", EMAIL_TIMEOUT="4")
    assert (settings["EMAIL_PORT"], settings["EMAIL_TIMEOUT"], settings["EMAIL_USE_TLS"]) == (
        2525,
        4,
        False,
    )


def test_email_url_wins_over_the_separate_variables(read: Any) -> None:
    settings = read(EMAIL_URL="console://", EMAIL_HOST="mail.example.se")
    assert settings["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert "EMAIL_HOST" not in settings


@pytest.mark.parametrize(
    ("variables", "push"),
    [
        ({"CACHE_URL": "redis://cache:6379/0"}, "redis://cache:6379/0"),
        ({"CACHE_URL": "redis://cache:6379/0", "PUSH_REDIS_URL": "off"}, None),
        ({"PUSH_REDIS_URL": "rediss://push:6380/1"}, "rediss://push:6380/1"),
        ({"CACHE_URL": "dbcache://"}, None),
    ],
)
def test_push_redis_url(read: Any, variables: dict[str, str], push: str | None) -> None:
    assert read(**variables)["PUSH_REDIS_URL"] == push


def test_secure_ssl_off_and_a_shorter_hsts(read: Any) -> None:
    assert "SECURE_SSL_REDIRECT" not in read(SECURE_SSL="0")
    assert read(SECURE_HSTS_SECONDS="60")["SECURE_HSTS_SECONDS"] == 60


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DATABASE_URL", "mysql://club:hunter2@db.example.se/club"),
        ("DATABASE_URL", "postgres://club:hunter2@db.example.se:port/club"),
        ("CONN_MAX_AGE", "soon"),
        ("DATABASE_POOL", "ten"),
        ("CACHE_URL", "memcached://:hunter2@cache.example.se"),
        ("CACHE_URL", "redis://:hunter2@cache.example.se/0?timeout=soon"),
        ("EMAIL_URL", "smtp://club:hunter2@mail.example.se:port"),
        ("EMAIL_URL", "smtp://club:hunter2@mail.example.se?tls=1&ssl=1"),
        ("SECURE_HSTS_SECONDS", "a year"),
        ("PUSH_REDIS_URL", "http://push.example.se"),
        ("LOG_FORMAT", "xml"),
    ],
)
def test_a_bad_value_stops_the_site_naming_the_variable(
    read: Any, variable: str, value: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"^{variable}: ") as raised:
        read(**{variable: value})
    assert "hunter2" not in str(raised.value)


@pytest.mark.parametrize(
    ("variables", "named"),
    [
        ({"EMAIL_HOST": "mail.example.se", "EMAIL_PORT": "smtp"}, "EMAIL_PORT"),
        ({"EMAIL_HOST": "mail.example.se", "EMAIL_TIMEOUT": "soon"}, "EMAIL_TIMEOUT"),
        (
            {"EMAIL_HOST": "mail.example.se", "EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"},
            "EMAIL_USE_TLS and EMAIL_USE_SSL",
        ),
    ],
)
def test_a_bad_separate_email_variable_names_itself(
    read: Any, variables: dict[str, str], named: str
) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"^{named}: "):
        read(**variables)


def test_the_readme_lists_every_variable_the_settings_read() -> None:
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Configuration") : readme.index("## In production")]
    first_cells = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    listed = {name for cell in first_cells for name in re.findall(r"`([A-Z_]+)`", cell)}
    # WEB_CONCURRENCY is for make serve and the image's entrypoint (gunicorn's workers).
    assert listed - {"WEB_CONCURRENCY"} == set(VARIABLES)


# Where the site's code may read the environment: the settings (config/environment.py),
# what names the settings module (DJANGO_SETTINGS_MODULE) and the test settings' defaults;
# db_worker reads DJANGO_AUTORELOAD_ENV, the mark Django's autoreloader sets on the
# process it restarts (as runserver reads it), not an operator's setting.
ENVIRONMENT_READS = re.compile(r"os\.environ|os\.getenv|getenv\(")
ALLOWED = {
    "config/environment.py": "given = os.environ",
    "config/test_settings.py": "os.environ.setdefault(",
    "ops/management/commands/db_worker.py": "os.environ.get(DJANGO_AUTORELOAD_ENV)",
}


def test_only_the_settings_read_the_environment() -> None:
    files = [ROOT / name for name in SITE if name.endswith(".py")]
    files += [
        path for name in SITE if (ROOT / name).is_dir() for path in (ROOT / name).rglob("*.py")
    ]
    reads = []
    for path in files:
        name = str(path.relative_to(ROOT))
        for line in path.read_text().splitlines():
            if not ENVIRONMENT_READS.search(line):
                continue
            if 'setdefault("DJANGO_SETTINGS_MODULE"' in line or ALLOWED.get(name, "\0") in line:
                continue
            reads.append(f"{name}: {line.strip()}")
    assert reads == []
