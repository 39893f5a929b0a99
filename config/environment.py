"""How the settings read the environment: django-environ's parsers, and what the site adds.

``config/settings.py`` reads every variable through one ``SiteEnv``: django-environ's
``Env``, with its parsers (``bool``, ``int``, ``str``, ``list``, ``path``, ``db_url``,
``cache_url``, ``email_url``) and its scheme names. Where the site reads a value otherwise
than django-environ would, it is here, and tested (tests/config/test_environment.py):

- *unset*: a variable that is missing, empty or only spaces; its default applies. A
  value is read without the spaces around it.
- A value is itself. django-environ 0.14 reads a value that starts with ``$`` as the name
  of another variable to read instead (with a default, silently nothing when that one is
  unset); a secret key may start with ``$``.
- A value the site cannot work with stops it: ``SettingError``, an ``ImproperlyConfigured``
  whose message starts with the variable's name (config/startup.py says it in one line).
  A URL is never repeated in it: it may hold a password.
- A list's items are read without the spaces around them (``ALLOWED_HOSTS=a.se, b.se``).
- The scheme names the site documented before it used django-environ's still read as they
  did: ``CACHE_URL``'s ``file://``, ``db://``, ``locmem://`` and ``dummy://``;
  ``EMAIL_URL``'s ``console://``, ``locmem://``, ``file://``, ``dummy://`` and ``smtps://``,
  which here is SSL (port 465), as it always was, where django-environ reads it as
  STARTTLS.

What django-environ's URL parsers leave to the site is finished by ``site_database``,
``site_cache`` and ``site_email``: see each.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any
from urllib.parse import ParseResult, unquote, urlparse

import environ
from django.core.exceptions import ImproperlyConfigured

from core.cache import database_partition

NOTSET = environ.Env.NOTSET

POSTGRESQL = "django.db.backends.postgresql"
SQLITE = "django.db.backends.sqlite3"

FILE_CACHE = "core.cache.ResilientFileCache"
DATABASE_CACHE = "django.core.cache.backends.db.DatabaseCache"
REDIS_CACHE = "core.cache.ResilientRedisCache"
# Seconds redis-py waits to connect, and for each read of an answer (5 s each by default):
# a Redis on the local network answers in a millisecond, and a large PDF comes in many
# reads, each as quick.
REDIS_TIMEOUTS = {"socket_connect_timeout": 0.25, "socket_timeout": 1.0}

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE_MAIL = "django.core.mail.backends.console.EmailBackend"
FILE_MAIL = "django.core.mail.backends.filebased.EmailBackend"

# The names the README documented before django-environ's, each for the one it reads as.
FORMER_CACHE_SCHEMES = {
    "file": "filecache",
    "db": "dbcache",
    "locmem": "locmemcache",
    "dummy": "dummycache",
}
FORMER_EMAIL_SCHEMES = {
    "smtps": "smtp+ssl",
    "console": "consolemail",
    "locmem": "memorymail",
    "file": "filemail",
    "dummy": "dummymail",
}


class SettingError(ImproperlyConfigured):
    """A variable the site cannot work with; the message starts with its name."""

    def __init__(self, variable: str, problem: str) -> None:
        super().__init__(f"{variable}: {problem}")


@contextmanager
def _named(variable: str) -> Iterator[None]:
    """django-environ's errors (an unknown scheme, a port that is not a number) as the
    variable's."""
    try:
        yield
    except SettingError:
        raise
    except (ValueError, ImproperlyConfigured) as error:
        raise SettingError(variable, str(error)) from None


class SiteEnv(environ.Env):  # type: ignore[misc]  # django-environ has no types
    """django-environ's ``Env`` over ``variables`` (the process' environment by default),
    read as the module's docstring says."""

    # django-environ's cache schemes for the caches the site runs on, the file cache and
    # Redis as the backends of core.cache (an unreachable cache is an empty one).
    CACHE_SCHEMES = {
        "filecache": FILE_CACHE,
        "dbcache": DATABASE_CACHE,
        "redis": REDIS_CACHE,
        "rediss": REDIS_CACHE,
        "rediscache": REDIS_CACHE,
        "locmemcache": "django.core.cache.backends.locmem.LocMemCache",
        "dummycache": "django.core.cache.backends.dummy.DummyCache",
    }

    def __init__(self, variables: Mapping[str, str] | None = None) -> None:
        super().__init__()
        given = os.environ if variables is None else variables
        self.ENVIRON = {name: value.strip() for name, value in given.items() if value.strip()}

    def get_value(
        self, var: str, cast: Any = None, default: Any = NOTSET, parse_default: bool = False
    ) -> Any:
        """``var`` read by ``cast`` (django-environ's), or ``default`` when unset.

        In place of django-environ's own, which would follow a value that starts with
        ``$`` to another variable and name no variable when a value cannot be read.
        """
        value = self.ENVIRON.get(var)
        if value is None:
            if default is NOTSET:
                raise SettingError(var, "not set.")
            if not parse_default or default is None:
                return default
            value = default
        try:
            return self.parse_value(value, cast)
        except ValueError as error:
            if cast is int:
                raise SettingError(var, f"{value!r} is not a whole number.") from None
            raise SettingError(var, str(error)) from None

    @classmethod
    def parse_value(cls, value: Any, cast: Any) -> Any:
        if cast is list:
            return [item.strip() for item in value.split(",") if item.strip()]
        return super().parse_value(value, cast)

    def db_url(self, var: str = "DATABASE_URL", default: Any = NOTSET, engine: Any = None) -> Any:
        with _named(var):
            return super().db_url(var, default, engine)

    def cache_url(self, var: str = "CACHE_URL", default: Any = NOTSET, backend: Any = None) -> Any:
        with _named(var):
            return super().cache_url(var, default, backend)

    def email_url(self, var: str = "EMAIL_URL", default: Any = NOTSET, backend: Any = None) -> Any:
        with _named(var):
            return super().email_url(var, default, backend)

    @classmethod
    def cache_url_config(cls, url: str | ParseResult, backend: Any = None) -> dict[str, Any]:
        parts = _known_scheme(url, cls.CACHE_SCHEMES, FORMER_CACHE_SCHEMES)
        config: dict[str, Any] = super().cache_url_config(parts, backend)
        return config

    @classmethod
    def email_url_config(cls, url: str | ParseResult, backend: Any = None) -> dict[str, Any]:
        parts = _known_scheme(url, cls.EMAIL_SCHEMES, FORMER_EMAIL_SCHEMES)
        config: dict[str, Any] = super().email_url_config(parts, backend)
        return config


def _known_scheme(
    url: str | ParseResult, schemes: Mapping[str, str], former: Mapping[str, str]
) -> ParseResult:
    """``url`` with django-environ's name for its scheme; an unknown scheme stops the site."""
    parts = urlparse(url) if isinstance(url, str) else url
    scheme = former.get(parts.scheme, parts.scheme)
    if scheme not in schemes:
        known = ", ".join(f"{name}://" for name in schemes)
        raise ImproperlyConfigured(f"unknown scheme {parts.scheme!r} (use {known}).")
    return parts._replace(scheme=scheme)


def site_database(config: Mapping[str, Any], *, conn_max_age: int, pool: int) -> dict[str, Any]:
    """The database ``DATABASE_URL`` names (``config``, django-environ's reading of it).

    The site's part: PostgreSQL or SQLite, nothing else; connections kept ``conn_max_age``
    seconds and checked before reuse; a host percent-encoded as dj-database-url read it
    (``postgres://%2Fvar%2Frun%2Fpostgresql/club``, a Unix socket's folder); SQLite waits
    for the write lock and logs ahead (never a kept connection); on PostgreSQL ``pool`` > 0
    is psycopg's pool of at most that many connections a process (``DATABASE_POOL``: a
    pool is a dict no URL option can hold), and Django then keeps none outside it.
    """
    database = {**config, "CONN_MAX_AGE": conn_max_age, "CONN_HEALTH_CHECKS": True}
    engine = database.get("ENGINE", "")
    if engine == SQLITE:
        # Several requests at once (htmx polling, two players reporting) must wait for the
        # write lock instead of failing at once. Write-ahead logging lets pages be read
        # while a result is written, and a commit need not wait for the disk (a power cut
        # may lose the last commits, never corrupt the file).
        database["OPTIONS"] = {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
        database["CONN_MAX_AGE"] = 0
    elif engine == POSTGRESQL:
        database["HOST"] = unquote(database["HOST"])
        if pool > 0:
            database["CONN_MAX_AGE"] = 0
            database["OPTIONS"] = {
                **database.get("OPTIONS", {}),
                "pool": {"min_size": 2, "max_size": pool, "timeout": 10},
            }
    else:
        raise SettingError(
            "DATABASE_URL",
            f"{engine or 'a URL without a scheme'} is not PostgreSQL or SQLite (use "
            "postgres://user:password@host/name or sqlite:////absolute/path).",
        )
    return database


def site_cache(config: Mapping[str, Any], *, database: Mapping[str, Any]) -> dict[str, Any]:
    """The cache ``CACHE_URL`` names (``config``, django-environ's reading of it), for the
    site served from ``database`` (an entry of ``DATABASES``).

    The site's part: every cache keeps ``database``'s entries apart from another database's
    (``core.cache``: its partition in the key prefix, after ``?key_prefix=``, and for the
    file cache a folder of its own under the one named, percent-decoded); Redis is given
    a quarter of a second to connect and one to answer, and its options are redis-py's
    lower-case names (django-environ upper-cases them for a backend other than Django's
    own); ``?timeout=`` is a whole number of seconds; the file and database caches keep
    room for every document of a few championships (a PDF is one entry); the database
    cache's table is ``club_cache`` unless named.
    """
    cache = dict(config)
    backend = cache["BACKEND"]
    partition = database_partition(database)
    cache["KEY_PREFIX"] = ":".join(filter(None, [str(cache.get("KEY_PREFIX") or ""), partition]))
    if "TIMEOUT" in cache:
        # Else Django would find out at the first page that reads the cache.
        cache["TIMEOUT"] = _seconds(cache["TIMEOUT"], variable="CACHE_URL")
    if backend == FILE_CACHE:
        if not cache["LOCATION"]:
            raise SettingError(
                "CACHE_URL", "filecache:// needs a folder, e.g. filecache:///var/cache."
            )
        cache["LOCATION"] = os.path.join(unquote(cache["LOCATION"]), partition)
    if backend == DATABASE_CACHE:
        cache["LOCATION"] = cache["LOCATION"] or "club_cache"
    if backend in (FILE_CACHE, DATABASE_CACHE):
        cache["OPTIONS"] = {"MAX_ENTRIES": 3000, **cache.get("OPTIONS", {})}
    if backend == REDIS_CACHE:
        options = {name.lower(): value for name, value in cache.get("OPTIONS", {}).items()}
        # A Redis that is down or cut off costs a request milliseconds, not redis-py's 5 s.
        cache["OPTIONS"] = {**REDIS_TIMEOUTS, **options}
    if not cache["LOCATION"]:
        del cache["LOCATION"]
    return cache


def smtp_server(
    *,
    host: str,
    port: int | None,
    user: str,
    password: str,
    tls: bool,
    ssl: bool,
    timeout: int,
    variable: str,
) -> dict[str, object]:
    """Django's settings for an SMTP server; the port follows TLS (587) or SSL (465), else 25."""
    if tls and ssl:
        raise SettingError(variable, "use TLS (STARTTLS) or SSL, not both.")
    return {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": host,
        "EMAIL_PORT": port or (465 if ssl else 587 if tls else 25),
        "EMAIL_HOST_USER": user,
        "EMAIL_HOST_PASSWORD": password,
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": ssl,
        "EMAIL_TIMEOUT": timeout,
    }


def site_email(config: Mapping[str, Any]) -> dict[str, object]:
    """Django's e-mail settings from ``EMAIL_URL`` (``config``, django-environ's reading).

    The site's part: an SMTP server's port follows TLS (587) or SSL (465), else 25; its
    ``?tls=1`` and ``?ssl=1`` (django-environ's booleans) and ``?timeout=`` (seconds, 10 by
    default) are read from the URL's options; the host is ``localhost`` when not named; a
    file's path is absolute (``filemail:///var/mail/club``: django-environ drops the
    leading slash); the other backends take nothing from the URL.
    """
    backend = config["EMAIL_BACKEND"]
    if backend == FILE_MAIL:
        return {"EMAIL_BACKEND": backend, "EMAIL_FILE_PATH": "/" + config["EMAIL_FILE_PATH"]}
    if backend != SMTP:
        return {"EMAIL_BACKEND": backend}
    options = config.get("OPTIONS", {})
    return smtp_server(
        host=config["EMAIL_HOST"] or "localhost",
        port=config["EMAIL_PORT"],
        user=config["EMAIL_HOST_USER"] or "",
        password=config["EMAIL_HOST_PASSWORD"] or "",
        tls=bool(config.get("EMAIL_USE_TLS")) or _flag(options.get("TLS")),
        ssl=bool(config.get("EMAIL_USE_SSL")) or _flag(options.get("SSL")),
        timeout=_seconds(options.get("TIMEOUT", 10), variable="EMAIL_URL"),
        variable="EMAIL_URL",
    )


def _seconds(option: Any, *, variable: str) -> int:
    """A URL's ``?timeout=``: a whole number of seconds."""
    try:
        return int(option)
    except (TypeError, ValueError):
        raise SettingError(
            variable, f"?timeout={option} is not a whole number of seconds."
        ) from None


def _flag(option: object) -> bool:
    """A URL's ``?tls=``/``?ssl=`` option, read as django-environ reads a boolean."""
    return option is not None and bool(environ.Env.parse_value(str(option), bool))


def cache_at(url: str, *, database: Mapping[str, Any]) -> dict[str, Any]:
    """The cache ``CACHE_URL=url`` gives the site served from ``database`` (the test
    settings', a restore drill's beside the site)."""
    return site_cache(SiteEnv({"CACHE_URL": url}).cache_url(), database=database)
