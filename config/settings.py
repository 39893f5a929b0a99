"""Settings for the club's site, read from the environment.

- ``DATABASE_URL``: where the data lives; default a SQLite file in the project
  folder (the embedded default for a quick start). Production uses PostgreSQL,
  e.g. ``postgres://club:secret@localhost:5432/club``; no other database.
- ``CONN_MAX_AGE``: seconds a process keeps its database connection (60; always 0 on
  SQLite): one connection per web and task worker (docs/operating.md, "Several servers").
- ``DATABASE_POOL``: on PostgreSQL, the most connections each process keeps in a pool
  (psycopg's; 0, the default: none). The ASGI server needs it (``make serve`` sets it):
  there each request runs in a thread of its own, so a connection kept per thread
  (``CONN_MAX_AGE``) would be a new connection every request; with a pool
  ``CONN_MAX_AGE`` is 0 and a request borrows a connection from its process's pool.
- ``DEBUG``: ``1``/``true`` to show debugging pages; off by default.
- ``SECRET_KEY``: required to serve pages when ``DEBUG`` is off (the web server and
  ``manage.py runserver`` refuse to start without it, in one line); a management command
  that signs nothing (``migrate``, ``backup``, ``simulate_tournament``...) runs without it.
  Under ``DEBUG`` a development key stands in.
- ``ALLOWED_HOSTS``: comma-separated host names; ``localhost,127.0.0.1`` by default.
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins, for a site behind a proxy.
- ``SECURE_SSL``: ``0`` to turn off the HTTPS-only settings when ``DEBUG`` is off
  (a local production-like run without TLS); on by default.
- ``EMAIL_URL``: how mail leaves the site, e.g. ``smtp://user:pass@host:587/?tls=1``,
  ``smtps://user:pass@host`` (SSL, port 465), ``console://`` (printed in the terminal),
  ``locmem://``, ``file:///var/mail/club`` or ``dummy://``; percent-encode ``@ : /`` in
  the user name and password. ``?timeout=`` sets the seconds to wait (10 by default).
- Without ``EMAIL_URL``: ``EMAIL_HOST`` (and ``EMAIL_PORT``, ``EMAIL_HOST_USER``,
  ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``, ``EMAIL_USE_SSL``) for an SMTP server.
  With neither, ``DEBUG`` prints mail in the terminal; otherwise Django's default, SMTP on
  ``localhost:25``.
- ``DEFAULT_FROM_EMAIL``: the sender of the site's mail (invitations, password resets).
- ``CACHE_URL``: where rendered PDFs and the rate limits' counters are kept: ``file:///path``
  (the default, ``var/cache`` in the project folder: shared by every worker on the
  machine, no server needed), ``db://table`` (the database; the release step,
  ``manage.py release``, makes its table), ``redis://host:6379/0`` (several servers
  share one: ``?key_prefix=`` keeps two sites on one Redis apart),
  ``locmem://`` (one process only) or ``dummy://`` (keeps nothing). Each database has a
  part of the cache of its own (``core.cache``: a restore drill beside the site never
  touches the site's), and a cache that cannot be reached is served without.
- ``PUSH_REDIS_URL``: the Redis through which a game's moves are pushed to the pages
  watching it, across servers (``play.push``): by default the cache's when ``CACHE_URL``
  is ``redis://``; ``off``: no push (the pages poll). Without a Redis the pages poll.
- ``TASKS_BACKEND``: where slow work waits for a worker (``manage.py db_worker``): the
  default ``django_tasks_db.DatabaseBackend`` keeps the queue in the site's own database
  (no server of its own; docs/operating.md); ``django_tasks.backends.immediate.ImmediateBackend``
  runs each task at once inside the request (no worker: the tests, a quick look).
- ``BACKUP_SIGNING_KEY``: the key ``manage.py backup`` signs backups with (HMAC-SHA256, at
  least 32 characters), or ``BACKUP_SIGNING_KEY_FILE``: a file holding it (a systemd
  credential, a Docker secret). Without either a backup is written unsigned, and
  ``manage.py restore`` refuses it without ``--trust-unsigned``. Only the backup and
  restore commands need it, not the web servers (docs/operating.md, "Backups").
- ``BACKUP_VERIFY_KEYS``: comma-separated old signing keys, kept after a rotation so that
  backups signed with them still restore.
- ``STATIC_ROOT``: the folder the release step (``manage.py release``) collects the static
  files into and WhiteNoise serves them from; ``staticfiles`` in the project folder by
  default.
- ``CLIENT_IP_HEADER``: behind a proxy, the request header holding the client's address
  as the proxy saw it, e.g. ``X-Forwarded-For`` (its last address is used, the one the
  proxy added). Without it the address of the connection counts: every visitor would
  share the proxy's address and be throttled together.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import dj_database_url
import django_stubs_ext
import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from core.cache import database_partition

# Django's generic classes (ModelAdmin[Player], ModelForm[Player]) as django-stubs types them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent


def is_true(value: str | None, default: bool) -> bool:
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_flag(name: str, default: bool) -> bool:
    return is_true(os.environ.get(name), default)


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def whole_number(variables: Mapping[str, str], name: str, default: int) -> int:
    """The variable ``name`` as a whole number (``default`` when unset or empty)."""
    value = variables.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: {value!r} is not a whole number.") from None


SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE_BACKEND = "django.core.mail.backends.console.EmailBackend"
REDIS_CACHE = "django.core.cache.backends.redis.RedisCache"
# Seconds redis-py waits to connect, and for each read of an answer (5 s each by default):
# a Redis on the local network answers in a millisecond, and a large PDF comes in many
# reads, each as quick.
REDIS_TIMEOUTS = {"socket_connect_timeout": 0.25, "socket_timeout": 1.0}

# django-environ reads EMAIL_URL and CACHE_URL (user and password percent-decoded, host,
# port, query). These are the schemes the README documents, and django-environ's names.
EMAIL_SCHEMES = {
    "smtp": "smtp",
    "smtps": "smtp+ssl",
    "console": "consolemail",
    "locmem": "memorymail",
    "file": "filemail",
    "dummy": "dummymail",
}
CACHE_SCHEMES = {
    "file": "filecache",
    "db": "dbcache",
    "redis": "redis",
    "rediss": "rediss",
    "locmem": "locmemcache",
    "dummy": "dummycache",
}


def library_scheme(url: str, schemes: Mapping[str, str], *, variable: str) -> str:
    """``url`` with its scheme renamed for django-environ; an unknown scheme stops the site."""
    parts = urlsplit(url)
    if parts.scheme not in schemes:
        known = ", ".join(schemes)
        raise ImproperlyConfigured(f"{variable}: unknown scheme {parts.scheme!r} (use {known}).")
    return parts._replace(scheme=schemes[parts.scheme]).geturl()


def smtp_settings(
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
    if tls and ssl:
        raise ImproperlyConfigured(f"{variable}: use TLS (STARTTLS) or SSL, not both.")
    return {
        "EMAIL_BACKEND": SMTP_BACKEND,
        "EMAIL_HOST": host,
        "EMAIL_PORT": port or (465 if ssl else 587 if tls else 25),
        "EMAIL_HOST_USER": user,
        "EMAIL_HOST_PASSWORD": password,
        "EMAIL_USE_TLS": tls,
        "EMAIL_USE_SSL": ssl,
        "EMAIL_TIMEOUT": timeout,
    }


def parse_email_url(url: str) -> dict[str, object]:
    """Django's e-mail settings from one address, e.g. ``smtp://user:pass@host:587/?tls=1``.

    On top of django-environ: the port follows TLS (587) or SSL (465), else 25; ``?tls=1``,
    ``?ssl=1`` and ``?timeout=`` (seconds, 10 by default) are read from its options.
    """
    try:
        renamed = library_scheme(url, EMAIL_SCHEMES, variable="EMAIL_URL")
        parsed = environ.Env.email_url_config(renamed)
    except ValueError as error:  # a port that is not a number
        raise ImproperlyConfigured(f"EMAIL_URL: {error}") from error
    backend = parsed["EMAIL_BACKEND"]
    if backend == "django.core.mail.backends.filebased.EmailBackend":
        # django-environ leaves out the path's leading slash: file:///var/mail is absolute.
        return {"EMAIL_BACKEND": backend, "EMAIL_FILE_PATH": "/" + parsed["EMAIL_FILE_PATH"]}
    if backend != SMTP_BACKEND:
        return {"EMAIL_BACKEND": backend}
    options = {key: str(value) for key, value in parsed.get("OPTIONS", {}).items()}
    try:
        timeout = int(options.get("TIMEOUT", "10"))
    except ValueError as error:
        raise ImproperlyConfigured(f"EMAIL_URL: timeout: {error}") from error
    return smtp_settings(
        host=parsed["EMAIL_HOST"] or "localhost",
        port=parsed["EMAIL_PORT"],
        user=parsed["EMAIL_HOST_USER"] or "",
        password=parsed["EMAIL_HOST_PASSWORD"] or "",
        tls=bool(parsed.get("EMAIL_USE_TLS")) or is_true(options.get("TLS"), False),
        ssl=bool(parsed.get("EMAIL_USE_SSL")) or is_true(options.get("SSL"), False),
        timeout=timeout,
        variable="EMAIL_URL",
    )


def parse_cache_url(url: str, *, database: Mapping[str, Any]) -> dict[str, object]:
    """Django's cache settings from one address, e.g. ``file:///var/cache/club``, for the
    site served from ``database`` (an entry of ``DATABASES``).

    On top of django-environ: every cache keeps ``database``'s entries apart from another
    database's (``core.cache``: its partition in the key prefix, after ``?key_prefix=``,
    and for the file cache a folder of its own under the one named); the file and Redis
    caches answer as an empty cache while they cannot be reached (``core.cache``), and
    Redis is given a quarter of a second to connect and one to answer; the file and database caches
    keep room for every document of a few championships (a PDF is one entry); the
    database cache's table is ``club_cache`` unless named.
    """
    renamed = library_scheme(url, CACHE_SCHEMES, variable="CACHE_URL")
    parts = urlsplit(url)
    if parts.scheme == "file" and not parts.path:
        raise ImproperlyConfigured("CACHE_URL: file:// needs a folder, e.g. file:///var/cache.")
    redis = parts.scheme in ("redis", "rediss")
    try:
        cache: dict[str, Any] = environ.Env.cache_url_config(
            renamed, backend=REDIS_CACHE if redis else None
        )
    except ValueError as error:
        raise ImproperlyConfigured(f"CACHE_URL: {error}") from error
    if redis:
        # django-environ lower-cases every option for Django's Redis backend, its own
        # (``?key_prefix=``, ``?timeout=``) too, where Django reads only upper case.
        for option in ("KEY_PREFIX", "TIMEOUT", "VERSION"):
            if option.lower() in cache:
                cache[option] = cache.pop(option.lower())
        # A Redis that is down or cut off costs a request milliseconds, not redis-py's 5 s.
        cache["OPTIONS"] = {**REDIS_TIMEOUTS, **cache.get("OPTIONS", {})}
        cache["BACKEND"] = "core.cache.ResilientRedisCache"
    partition = database_partition(database)
    cache["KEY_PREFIX"] = ":".join(filter(None, [str(cache.get("KEY_PREFIX") or ""), partition]))
    if "TIMEOUT" in cache:
        # Else Django would find out at the first page that reads the cache.
        try:
            cache["TIMEOUT"] = int(cache["TIMEOUT"])
        except (TypeError, ValueError):
            timeout = cache["TIMEOUT"]
            raise ImproperlyConfigured(
                f"CACHE_URL: ?timeout={timeout} is not a whole number of seconds."
            ) from None
    if parts.scheme == "file":
        cache["LOCATION"] = os.path.join(unquote(cache["LOCATION"]), partition)
        cache["BACKEND"] = "core.cache.ResilientFileCache"
    if parts.scheme == "db":
        cache["LOCATION"] = cache["LOCATION"] or "club_cache"
    if parts.scheme in ("file", "db"):
        cache["OPTIONS"] = {"MAX_ENTRIES": 3000, **cache.get("OPTIONS", {})}
    if parts.scheme in ("locmem", "dummy") and not cache["LOCATION"]:
        del cache["LOCATION"]
    return cache


DATABASE_ENGINES = {"django.db.backends.postgresql", "django.db.backends.sqlite3"}


def parse_database_url(url: str, *, conn_max_age: int) -> dict[str, Any]:
    """Django's database settings from one address: PostgreSQL or SQLite, nothing else."""
    scheme = urlsplit(url).scheme
    try:
        database: dict[str, Any] = dict(
            dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=True)
        )
    except dj_database_url.UnknownSchemeError:
        database = {"ENGINE": None}
    except ValueError as error:  # a port that is not a number, a character not quoted
        raise ImproperlyConfigured(f"DATABASE_URL: {error}") from None
    if database["ENGINE"] not in DATABASE_ENGINES:
        raise ImproperlyConfigured(
            f"DATABASE_URL: unknown scheme {scheme!r} (use postgres://user:password@host/name"
            " or sqlite:////absolute/path)."
        )
    return database


def email_settings(variables: Mapping[str, str], *, debug: bool) -> dict[str, object]:
    """``EMAIL_URL``, else the separate ``EMAIL_*`` variables, else the terminal under DEBUG."""
    if variables.get("EMAIL_URL", "").strip():
        return parse_email_url(variables["EMAIL_URL"].strip())
    if variables.get("EMAIL_HOST", "").strip():
        return smtp_settings(
            host=variables["EMAIL_HOST"].strip(),
            port=whole_number(variables, "EMAIL_PORT", 0) or None,
            user=variables.get("EMAIL_HOST_USER", ""),
            password=variables.get("EMAIL_HOST_PASSWORD", ""),
            tls=is_true(variables.get("EMAIL_USE_TLS"), False),
            ssl=is_true(variables.get("EMAIL_USE_SSL"), False),
            timeout=whole_number(variables, "EMAIL_TIMEOUT", 10),
            variable="EMAIL_USE_TLS and EMAIL_USE_SSL",
        )
    if debug:
        return {"EMAIL_BACKEND": CONSOLE_BACKEND}
    return {"EMAIL_BACKEND": SMTP_BACKEND}


DEBUG = env_flag("DEBUG", False)

# Without DEBUG and without SECRET_KEY the key stays empty, and Django refuses it only where
# it is read (``settings.SECRET_KEY``): the commands that sign nothing (migrate, backup,
# restore, simulate_tournament...) run on a checkout as they are, while the web server
# (config/wsgi.py, config/asgi.py, gunicorn.conf.py) and ``manage.py runserver`` refuse
# to start, in one line (config/startup.py); ``check --deploy`` reports it (security.W009).
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "csp",
    "django_htmx",
    "django_ratelimit",
    "template_partials",
    "django_tasks",
    # Before django_tasks_db: its ``db_worker`` is the supervised worker (ops.worker).
    "ops",
    "django_tasks_db",
    "club",
    "printing",
    "play",
    "tournaments",
    "ratings",
    "demo",
]

MIDDLEWARE = [
    # First: /ping/ answers a health check before the HTTPS redirect and the host check.
    "config.health.PingMiddleware",
    # Then one log line a request, with its duration and status, whatever answers it.
    "ops.logs.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A view's exceptions reach the middleware below first: a rate limit becomes the
    # 429 page, an unreachable database the 503 page (config.errors).
    "django_ratelimit.middleware.RatelimitMiddleware",
    "config.middleware.DatabaseUnavailableMiddleware",
    # Last, as django-axes asks: it turns a refused login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "club.context_processors.roles",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": parse_database_url(
        os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=whole_number(os.environ, "CONN_MAX_AGE", 60),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several requests at once (htmx polling, two players reporting) must wait
    # for the write lock instead of failing at once. Write-ahead logging lets pages
    # be read while a result is written, and a commit need not wait for the disk
    # (a power cut may lose the last commits, never corrupt the file).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif whole_number(os.environ, "DATABASE_POOL", 0) > 0:
    # psycopg's pool, one a process; Django refuses it beside persistent connections.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": whole_number(os.environ, "DATABASE_POOL", 0),
        "timeout": 10,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The lockout check first: a locked-out login is refused before any password is hashed.
AUTHENTICATION_BACKENDS = [
    "club.lockouts.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Sessions in the database (Django's, through core.sessions): several servers share them, so
# whichever server answers knows the login and the private links opened
# (docs/operating.md, "Several servers"). Each save of one is announced to the pages
# answered from the cache (core.sessions).
SESSION_ENGINE = "core.sessions"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "sv"
LANGUAGES = [("sv", _("Swedish")), ("en", _("English"))]
# English dates the British way, as the Swedish ones read (config/formats/en/formats.py).
FORMAT_MODULE_PATH = ["config.formats"]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Stockholm"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where the release step (manage.py release) collects them for WhiteNoise to serve.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "").strip() or BASE_DIR / "staticfiles")
# Files a browser asks for at the site's root, whatever the page says: /favicon.ico (the
# board of static/img/favicon.svg at 16, 32 and 48 px), asked for by a PDF opened in a tab.
WHITENOISE_ROOT = BASE_DIR / "config" / "site_root"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The name of the group whose members run the club's register and tournaments.
ORGANISER_GROUP = "organisers"

# E-mail (invitations, password resets): EMAIL_BACKEND, EMAIL_HOST, EMAIL_PORT and the rest.
globals().update(email_settings(os.environ, debug=DEBUG))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL") or "webmaster@localhost"

if not DEBUG and env_flag("SECURE_SSL", True):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # The health check speaks plain HTTP inside the container (config/health.py).
    SECURE_REDIRECT_EXEMPT = [r"^ping/$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = whole_number(os.environ, "SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

CACHES = {
    "default": parse_cache_url(
        os.environ.get("CACHE_URL", "").strip() or f"file://{BASE_DIR / 'var' / 'cache'}",
        database=DATABASES["default"],
    )
}

# What the tournaments ask of a rating list (seeding by rating, expected scores): the
# club's list (tournaments.ports; without the setting, no list and nobody rated).
TOURNAMENTS_RATING_LIST = "ratings.ports.ClubRatingList"

# The sections apps above a page's own show on it (core.sections), by place, in order.
PAGE_SECTIONS = {
    "home_top": ["tournaments.sections.my_tables_now"],
    "home": ["play.sections.online_summary", "tournaments.sections.championship_summary"],
    "player": [
        "ratings.sections.rating_panel",
        "tournaments.sections.player_tournaments",
        "play.sections.accuracy_panel",
    ],
    "tournament_facts": ["ratings.sections.favourites"],
    "tournament_match": ["play.sections.match_online"],
}

# The Redis a game's moves are pushed through (play.push): the cache's, unless named or
# turned off; None: the pages poll.
PUSH_REDIS_URL: str | None = os.environ.get("PUSH_REDIS_URL", "").strip() or None
if PUSH_REDIS_URL is None and CACHES["default"]["BACKEND"] == "core.cache.ResilientRedisCache":
    PUSH_REDIS_URL = str(CACHES["default"]["LOCATION"])
if PUSH_REDIS_URL == "off":
    PUSH_REDIS_URL = None
if PUSH_REDIS_URL is not None and urlsplit(PUSH_REDIS_URL).scheme not in ("redis", "rediss"):
    raise ImproperlyConfigured(
        f"PUSH_REDIS_URL: {PUSH_REDIS_URL!r} (use redis://host:6379/0 or off)."
    )
# The long poll (play.online_views.table's ``?wait=``), measured against the event stream
# by benchmarks/push.py: off on the site, where a held request would hold a thread.
PUSH_LONG_POLL = env_flag("PUSH_LONG_POLL", False)

# Slow work (PDF renders, mail, re-rating the list) runs as tasks through Django's tasks
# interface, queued in the database by default and taken by ``manage.py db_worker``.
TASKS = {
    "default": {
        "BACKEND": os.environ.get("TASKS_BACKEND", "").strip() or "django_tasks_db.DatabaseBackend",
    }
}

# The task worker's heartbeat (ops.worker): it beats every BEAT_SECONDS; one unseen for
# LEASE_SECONDS is lost, and the tasks it left RUNNING are run again by the next sweep
# (every SWEEP_SECONDS, in any worker). A killed worker's task runs again within
# LEASE + SWEEP seconds of a worker running (docs/operating.md, "The task worker").
TASK_WORKER: dict[str, float] = {"BEAT_SECONDS": 5, "LEASE_SECONDS": 30, "SWEEP_SECONDS": 10}

# Backups (ops/backup.py, docs/operating.md "Backups"): the signing key is read (the file
# too) when a backup or restore runs, never by the web servers.
BACKUP_SIGNING_KEY = os.environ.get("BACKUP_SIGNING_KEY", "").strip()
BACKUP_SIGNING_KEY_FILE = os.environ.get("BACKUP_SIGNING_KEY_FILE", "").strip()
BACKUP_VERIFY_KEYS = env_list("BACKUP_VERIFY_KEYS", "")
# What waits for the task worker in the site's own rows, each kind with the function that
# queues it again after a restore: a backup leaves the task queue out (its rows' ids and
# workers' states mean nothing in another database), so a new task that leaves work waiting
# is named here (tests/ops/test_backup_pending.py checks that every task is accounted for).
BACKUP_PENDING_WORK = {
    "rating list re-rates": "ratings.tasks.rerate_requeue",
    "invitation mails": "club.mail.invitation_mails_requeue",
}

# Rate limits (django-ratelimit) count in the default cache, per client address.
RATELIMIT_USE_CACHE = "default"
RATELIMIT_IP_META_KEY = "core.clients.client_ip"
RATELIMIT_VIEW = "config.errors.too_many_requests"
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "").strip()
SILENCED_SYSTEM_CHECKS = [
    # The file and database caches count by reading, then writing: two requests at the
    # same instant may count as one, so a burst may get a request or two past a limit
    # (never fewer). That is close enough for throttling; CACHE_URL=redis:// is exact.
    "django_ratelimit.E003",
    "django_ratelimit.W001",
]

# Failed logins (django-axes, club.lockouts): an account is locked after a few failures
# from anywhere; an address only after many, since a whole venue may share one address
# (a club's Wi-Fi behind one router) and players mistype. A lock ends by itself after
# the cool-off, or when an organiser lifts it (/club/lockouts/); a successful login
# forgives that account's failures.
LOCKOUT_ACCOUNT_FAILURES = 5
LOCKOUT_ADDRESS_FAILURES = 30
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_FAILURE_LIMIT = "club.lockouts.failure_limit"
AXES_COOLOFF_TIME = timedelta(minutes=15)
# A successful login forgives that account's failures only (club.lockouts.forgive_account),
# not those of its address.
AXES_RESET_ON_SUCCESS = False
# A refused login does not count again, so the lock ends at the time the page shows.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_CLIENT_IP_CALLABLE = "core.clients.client_ip"
AXES_LOCKOUT_CALLABLE = "club.lockout_views.locked_out"
# Failures are kept until their cool-off ends; successful logins are not logged.
AXES_DISABLE_ACCESS_LOG = True
# Failures are counted in the database (django-axes' default, named here): several servers
# share the database, so failures on any of them count toward one lock.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_VERBOSE = False

# Content-Security-Policy (django-csp): everything from this site, nothing inline, no
# eval, no framing. Styles and scripts live in static/; htmx is told not to inject its
# indicator style or evaluate attributes (templates/base.html). No page uses data: URIs
# (the QR codes are inline SVG; the data: images are in the PDFs only).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Errors told to the operator (ops.alerts, docs/operating.md "When something breaks"):
# ADMINS="Name <address>, other@address" get a mail for each kind of error, once a burst
# (gathered for GATHER_SECONDS, then one mail a WINDOW_SECONDS with its count).
ADMINS = [
    (name.strip() or address, address)
    for name, address in getaddresses([os.environ.get("ADMINS", "")])
    if address
]
SERVER_EMAIL = os.environ.get("SERVER_EMAIL") or DEFAULT_FROM_EMAIL
EMAIL_SUBJECT_PREFIX = "[Cribbageklubben] "
ALERTS: dict[str, float] = {"GATHER_SECONDS": 30, "WINDOW_SECONDS": 600}

# Logs: one line a request and a task with its duration and outcome (ops.logs); readable
# text by default, one JSON object a line with LOG_FORMAT=json (for journald or a shipper).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip() or "text"
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT: {LOG_FORMAT!r} (use text or json).")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT},
        "mail_admins": {"class": "ops.alerts.ThrottledAdminEmailHandler", "level": "ERROR"},
    },
    "root": {"handlers": ["console", "mail_admins"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's own loggers go to the root's handlers (its defaults would mail each error).
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        # WeasyPrint reports each step of every document at INFO: only its warnings are news.
        # Axes reports every login at INFO; its warnings (failures, lockouts) are the news.
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
        "axes": {"level": "WARNING"},
        # A task's line is ops.logs' (club.tasks); django-tasks' own are its failures.
        "django_tasks": {"level": "WARNING"},
        "django_tasks_db": {"level": "WARNING"},
    },
}

# An error tracker (Sentry) when SENTRY_DSN is set: unhandled errors of requests and
# every ERROR line, personal data off and private links scrubbed (ops.tracking).
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
if SENTRY_DSN:
    from ops.tracking import start_tracking

    start_tracking(
        SENTRY_DSN,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "production"),
        release=os.environ.get("SENTRY_RELEASE", ""),
    )
