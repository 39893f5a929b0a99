"""config/environment.py: every variable read by django-environ's parsers, and what the
site adds to them (the module's docstring): each URL scheme the README documents (and the
names documented before django-environ's), the database's pool, the cache's partition and
backends, the mail server's port and timeout, and a clear error naming the variable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.environment import SiteEnv, cache_at, site_database, site_email
from core.cache import database_partition

SITE = {"ENGINE": "django.db.backends.postgresql", "HOST": "db", "PORT": 5432, "NAME": "club"}
PART = database_partition(SITE)
SQLITE_OPTIONS = {
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def database(url: str, *, conn_max_age: int = 60, pool: int = 0) -> dict[str, Any]:
    """The database ``DATABASE_URL=url`` gives the site."""
    config = SiteEnv({"DATABASE_URL": url}).db_url("DATABASE_URL")
    return site_database(config, conn_max_age=conn_max_age, pool=pool)


def email(url: str) -> dict[str, object]:
    """The mail settings ``EMAIL_URL=url`` gives the site."""
    return site_email(SiteEnv({"EMAIL_URL": url}).email_url("EMAIL_URL"))


# Reading a variable


def test_an_empty_variable_is_unset_and_a_value_is_read_without_spaces_around_it() -> None:
    env = SiteEnv({"DEBUG": "  ", "CACHE_URL": "", "CONN_MAX_AGE": " 30 ", "LOG_LEVEL": " WARNING"})
    assert env.bool("DEBUG", default=True) is True
    assert "CACHE_URL" not in env
    assert env.int("CONN_MAX_AGE", default=60) == 30
    assert env.str("LOG_LEVEL", default="INFO") == "WARNING"


def test_a_value_that_starts_with_a_dollar_is_itself_not_another_variable() -> None:
    # django-environ's own Env would read SECRET_KEY=$abc as the variable abc: here, unset.
    env = SiteEnv({"SECRET_KEY": "$abc-key", "BACKUP_VERIFY_KEYS": "$old,$older"})
    assert env.str("SECRET_KEY", default="") == "$abc-key"
    assert env.list("BACKUP_VERIFY_KEYS", default=[]) == ["$old", "$older"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("true", True), ("yes", True), ("on", True), ("TRUE", True),
     ("0", False), ("false", False), ("no", False), ("off", False), ("", False)],
)  # fmt: skip
def test_booleans(value: str, expected: bool) -> None:
    assert SiteEnv({"DEBUG": value}).bool("DEBUG", default=False) is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("club.example.se", ["club.example.se"]),
        ("club.example.se, www.club.example.se", ["club.example.se", "www.club.example.se"]),
        ("a.se,,b.se, ", ["a.se", "b.se"]),
        ("", ["localhost"]),
    ],
)
def test_lists_are_comma_separated_without_spaces_or_empty_items(
    value: str, expected: list[str]
) -> None:
    assert (
        SiteEnv({"ALLOWED_HOSTS": value}).list("ALLOWED_HOSTS", default=["localhost"]) == expected
    )


@pytest.mark.parametrize("value", ["soon", "1.5", "ten"])
def test_a_number_that_is_not_one_names_the_variable_and_the_value(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"^CONN_MAX_AGE: '{value}' is not a whole"):
        SiteEnv({"CONN_MAX_AGE": value}).int("CONN_MAX_AGE", default=60)


def test_a_required_variable_that_is_unset_names_it() -> None:
    with pytest.raises(ImproperlyConfigured, match="^EMAIL_HOST: not set"):
        SiteEnv({"EMAIL_HOST": " "}).str("EMAIL_HOST")


def test_a_path_is_absolute() -> None:
    env = SiteEnv({"STATIC_ROOT": "/srv/club/static"})
    assert str(env.path("STATIC_ROOT", default="/nowhere")) == "/srv/club/static"
    assert str(SiteEnv({}).path("STATIC_ROOT", default=Path("/srv/x"))) == "/srv/x"


# DATABASE_URL, CONN_MAX_AGE, DATABASE_POOL


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "postgres://club:p%40ss@db.example.se:5432/club?sslmode=require",
            {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": "club",
                "USER": "club",
                "PASSWORD": "p@ss",
                "HOST": "db.example.se",
                "PORT": 5432,
                "OPTIONS": {"sslmode": "require"},
                "CONN_MAX_AGE": 60,
                "CONN_HEALTH_CHECKS": True,
            },
        ),
        ("postgresql://club@localhost/club", {"ENGINE": "django.db.backends.postgresql"}),
        ("pgsql://club@localhost/club", {"ENGINE": "django.db.backends.postgresql"}),
        # A Unix socket's folder as the host: percent-encoded, as dj-database-url read it,
        # or django-environ's way, as the path.
        ("postgres://%2Fvar%2Frun%2Fpostgresql/club", {"HOST": "/var/run/postgresql"}),
        ("postgres:////var/run/postgresql/club", {"HOST": "/var/run/postgresql", "NAME": "club"}),
        ("postgres://[::1]:5433/club", {"HOST": "::1", "PORT": 5433}),
        (
            "sqlite:////srv/club/db.sqlite3",
            {
                "ENGINE": "django.db.backends.sqlite3",
                "NAME": "/srv/club/db.sqlite3",
                "CONN_MAX_AGE": 0,
                "OPTIONS": SQLITE_OPTIONS,
            },
        ),
        ("sqlite:///db.sqlite3", {"NAME": "db.sqlite3"}),
    ],
)
def test_database_url(url: str, expected: dict[str, object]) -> None:
    settings = database(url)
    assert {key: settings.get(key) for key in expected} == expected


def test_database_pool_on_postgresql_is_psycopgs_pool_and_no_kept_connection() -> None:
    settings = database("postgres://club@db/club?sslmode=require", conn_max_age=60, pool=10)
    assert settings["CONN_MAX_AGE"] == 0
    assert settings["OPTIONS"] == {
        "sslmode": "require",
        "pool": {"min_size": 2, "max_size": 10, "timeout": 10},
    }
    without = database("postgres://club@db/club", conn_max_age=30, pool=0)
    assert (without["CONN_MAX_AGE"], "OPTIONS" in without) == (30, False)


def test_sqlite_has_no_pool_and_keeps_no_connection() -> None:
    settings = database("sqlite:////srv/club/db.sqlite3", conn_max_age=60, pool=10)
    assert (settings["CONN_MAX_AGE"], settings["OPTIONS"]) == (0, SQLITE_OPTIONS)


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_postgres_url_with_a_pool_connects() -> None:
    """DATABASE_URL and DATABASE_POOL as psycopg's pool takes them, on the tests' server."""
    from django.db import connection
    from django.db.backends.postgresql.base import DatabaseWrapper

    url = "postgres://{USER}:{PASSWORD}@{HOST}:{PORT}/{NAME}".format(**connection.settings_dict)
    settings = {**connection.settings_dict, **database(url, pool=3)}
    pooled = DatabaseWrapper(settings, alias="pooled")
    try:
        with pooled.cursor() as cursor:
            cursor.execute("SELECT current_database()")
            assert cursor.fetchone() == (connection.settings_dict["NAME"],)
        assert pooled.pool is not None
        assert (pooled.pool.min_size, pooled.pool.max_size) == (2, 3)
    finally:
        pooled.close()  # the borrowed connection back to the pool, then the pool closed
        pooled.close_pool()


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("mysql://club:hunter2@db.example.se/club", "is not PostgreSQL or SQLite"),
        ("gopher://db.example.se/club", "is not PostgreSQL or SQLite"),
        ("postgres://club:hunter2@db.example.se:port/club", "Port could not be cast"),
    ],
)
def test_a_wrong_database_url_names_the_variable_not_the_password(url: str, said: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"^DATABASE_URL: .*{said}") as raised:
        database(url)
    assert "hunter2" not in str(raised.value)


# CACHE_URL


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "filecache:///var/cache/club",
            {
                "BACKEND": "core.cache.ResilientFileCache",
                "LOCATION": f"/var/cache/club/{PART}",
                "KEY_PREFIX": PART,
                "OPTIONS": {"MAX_ENTRIES": 3000},
            },
        ),
        ("filecache:///srv/club%20cache", {"LOCATION": f"/srv/club cache/{PART}"}),
        (
            "dbcache://",
            {
                "BACKEND": "django.core.cache.backends.db.DatabaseCache",
                "LOCATION": "club_cache",
                "KEY_PREFIX": PART,
                "OPTIONS": {"MAX_ENTRIES": 3000},
            },
        ),
        ("dbcache://pages", {"LOCATION": "pages"}),
        ("dbcache://?timeout=60", {"TIMEOUT": 60, "LOCATION": "club_cache"}),
        (
            "redis://cache.example.se:6379/0",
            {
                "BACKEND": "core.cache.ResilientRedisCache",
                "LOCATION": "redis://cache.example.se:6379/0",
                "KEY_PREFIX": PART,
                "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 1.0},
            },
        ),
        (
            "rediss://:p%40ss@cache.example.se:6380/1",
            {
                "BACKEND": "core.cache.ResilientRedisCache",
                "LOCATION": "rediss://:p%40ss@cache.example.se:6380/1",
            },
        ),
        (
            "redis://127.0.0.1:6379/2?key_prefix=club&timeout=600&socket_timeout=5",
            {
                "LOCATION": "redis://127.0.0.1:6379/2",
                "KEY_PREFIX": f"club:{PART}",
                "TIMEOUT": 600,
                "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 5},
            },
        ),
        ("rediscache://cache.example.se:6379/0", {"LOCATION": "redis://cache.example.se:6379/0"}),
        ("redis:///run/redis.sock", {"LOCATION": "unix:///run/redis.sock"}),
        (
            "locmemcache://",
            {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "KEY_PREFIX": PART},
        ),
        ("dummycache://", {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}),
    ],
)
def test_cache_url(url: str, expected: dict[str, object]) -> None:
    cache = cache_at(url, database=SITE)
    assert {key: cache.get(key) for key in expected} == expected


@pytest.mark.parametrize(
    ("former", "documented"),
    [
        ("file:///var/cache/club", "filecache:///var/cache/club"),
        ("file:///srv/club%20cache", "filecache:///srv/club%20cache"),
        ("db://", "dbcache://"),
        ("db://pages?timeout=60", "dbcache://pages?timeout=60"),
        ("locmem://", "locmemcache://"),
        ("dummy://", "dummycache://"),
    ],
)
def test_the_cache_schemes_documented_before_read_as_django_environs(
    former: str, documented: str
) -> None:
    assert cache_at(former, database=SITE) == cache_at(documented, database=SITE)


def test_locmem_and_dummy_caches_have_no_location_unless_named() -> None:
    assert "LOCATION" not in cache_at("locmemcache://", database=SITE)
    assert cache_at("locmemcache://pdfs", database=SITE)["LOCATION"] == "pdfs"


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("memcached://cache.example.se", "unknown scheme 'memcached'"),
        ("pymemcache://cache.example.se", "unknown scheme 'pymemcache'"),
        ("/var/cache", "unknown scheme ''"),
        ("filecache://", "needs a folder"),
        ("file://", "needs a folder"),
        ("redis://:hunter2@cache.example.se/0?timeout=soon", "timeout=soon is not a whole"),
    ],
)
def test_a_wrong_cache_url_stops_the_site_with_a_clear_error(url: str, said: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"^CACHE_URL: .*{said}") as raised:
        cache_at(url, database=SITE)
    assert "hunter2" not in str(raised.value)


@pytest.mark.parametrize(
    "other",
    [
        {**SITE, "NAME": "club_drill"},
        {**SITE, "HOST": "db2"},
        {**SITE, "PORT": 5433},
        {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/club/db.sqlite3"},
    ],
)
def test_another_database_has_another_part_of_the_same_cache(other: dict[str, Any]) -> None:
    for url in (
        "filecache:///var/cache/club",
        "redis://cache:6379/0?key_prefix=club",
        "dbcache://",
    ):
        site, drill = cache_at(url, database=SITE), cache_at(url, database=other)
        assert site["KEY_PREFIX"] != drill["KEY_PREFIX"]
    site, drill = (cache_at("filecache:///var/cache", database=d) for d in (SITE, other))
    assert site["LOCATION"] != drill["LOCATION"]


def test_one_sqlite_file_named_two_ways_is_one_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    engine = "django.db.backends.sqlite3"
    relative = database_partition({"ENGINE": engine, "NAME": "db.sqlite3"})
    absolute = database_partition({"ENGINE": engine, "NAME": str(tmp_path / "db.sqlite3")})
    assert relative == absolute


# EMAIL_URL


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "smtp://club%40example.se:p%2Fss@mail.example.se:587/?tls=1",
            {
                "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "mail.example.se",
                "EMAIL_PORT": 587,
                "EMAIL_HOST_USER": "club@example.se",
                "EMAIL_HOST_PASSWORD": "p/ss",
                "EMAIL_USE_TLS": True,
                "EMAIL_USE_SSL": False,
                "EMAIL_TIMEOUT": 10,
            },
        ),
        ("smtp+tls://club:secret@mail.example.se", {"EMAIL_PORT": 587, "EMAIL_USE_TLS": True}),
        (
            "smtp+ssl://club:secret@mail.example.se",
            {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True, "EMAIL_USE_TLS": False},
        ),
        ("smtp://mail.example.se?ssl=true", {"EMAIL_PORT": 465, "EMAIL_USE_SSL": True}),
        ("smtp://localhost", {"EMAIL_HOST": "localhost", "EMAIL_PORT": 25, "EMAIL_USE_TLS": False}),
        ("smtp://", {"EMAIL_HOST": "localhost", "EMAIL_PORT": 25}),
        ("smtp://mail.example.se?tls=1&timeout=3", {"EMAIL_PORT": 587, "EMAIL_TIMEOUT": 3}),
        ("smtp://mail.example.se:2525?tls=0", {"EMAIL_PORT": 2525, "EMAIL_USE_TLS": False}),
        (
            "smtp+ssl://a%3Ab:c%3Ad%40e@mail.example.se:2465?timeout=7",
            {
                "EMAIL_HOST_USER": "a:b",
                "EMAIL_HOST_PASSWORD": "c:d@e",
                "EMAIL_PORT": 2465,
                "EMAIL_USE_SSL": True,
                "EMAIL_TIMEOUT": 7,
            },
        ),  # fmt: skip
        ("consolemail://", {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
        ("memorymail://", {"EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend"}),
        ("dummymail://", {"EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend"}),
        (
            "filemail:///var/mail/club",
            {
                "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
                "EMAIL_FILE_PATH": "/var/mail/club",
            },
        ),  # fmt: skip
    ],
)
def test_email_url(url: str, expected: dict[str, object]) -> None:
    settings = email(url)
    assert {key: settings.get(key) for key in expected} == expected


def test_only_smtp_takes_its_settings_from_the_url() -> None:
    assert email("consolemail://") == {
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"
    }


@pytest.mark.parametrize(
    ("former", "documented"),
    [
        # SSL on 465, as the README has always said; django-environ reads smtps as STARTTLS.
        ("smtps://club:secret@mail.example.se", "smtp+ssl://club:secret@mail.example.se"),
        ("console://", "consolemail://"),
        ("locmem://", "memorymail://"),
        ("file:///var/mail/club", "filemail:///var/mail/club"),
        ("dummy://", "dummymail://"),
    ],
)
def test_the_email_schemes_documented_before_read_as_django_environs(
    former: str, documented: str
) -> None:
    assert email(former) == email(documented)


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("smtp://club:hunter2@mail.example.se?tls=1&ssl=1", "use TLS \\(STARTTLS\\) or SSL"),
        ("smtp+ssl://club:hunter2@mail.example.se?tls=1", "use TLS \\(STARTTLS\\) or SSL"),
        ("gopher://mail.example.se", "unknown scheme 'gopher'"),
        ("smtp://club:hunter2@mail.example.se:port", "Port could not be cast"),
        ("smtp://mail.example.se?timeout=x", "timeout=x is not a whole number"),
    ],
)
def test_a_wrong_email_url_stops_the_site_with_a_clear_error(url: str, said: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=f"^EMAIL_URL: .*{said}") as raised:
        email(url)
    assert "hunter2" not in str(raised.value)
