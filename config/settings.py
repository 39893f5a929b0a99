"""Settings for the club's site, read from the environment.

Every variable is read by django-environ (``env``: config/environment.py says where the
site reads one otherwise), in one line below with its parser and default. A variable
that is empty counts as unset; a value the site cannot work with stops it with one line
that starts with the variable's name (config/startup.py).

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
- ``ALLOWED_HOSTS``: comma-separated host names; ``localhost,127.0.0.1,[::1]`` by default.
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins, for a site behind a proxy.
- ``SECURE_SSL``: ``0`` to turn off the HTTPS-only settings when ``DEBUG`` is off
  (a local production-like run without TLS); on by default. ``SECURE_HSTS_SECONDS``:
  how long browsers keep to HTTPS (a year).
- ``EMAIL_URL``: how mail leaves the site, in django-environ's schemes:
  ``smtp://user:pass@host:587/?tls=1`` (or ``smtp+tls://``), ``smtp+ssl://user:pass@host``
  (SSL, port 465), ``consolemail://`` (printed in the terminal), ``memorymail://``,
  ``filemail:///var/mail/club`` or ``dummymail://``; percent-encode ``@ : /`` in the user
  name and password. ``?timeout=`` sets the seconds to wait (10 by default).
- Without ``EMAIL_URL``: ``EMAIL_HOST`` (and ``EMAIL_PORT``, ``EMAIL_HOST_USER``,
  ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``, ``EMAIL_USE_SSL``, ``EMAIL_TIMEOUT``) for an
  SMTP server. With neither, ``DEBUG`` prints mail in the terminal; otherwise Django's
  default, SMTP on ``localhost:25``.
- ``DEFAULT_FROM_EMAIL``: the sender of the site's mail (invitations, password resets).
- ``CACHE_URL``: where rendered PDFs and the rate limits' counters are kept, in
  django-environ's schemes: ``filecache:///path`` (the default, ``var/cache`` in the
  project folder: shared by every worker on the machine, no server needed),
  ``dbcache://table`` (the database; the release step, ``manage.py release``, makes its
  table), ``redis://host:6379/0`` or ``rediss://`` (several servers share one:
  ``?key_prefix=`` keeps two sites on one Redis apart), ``locmemcache://`` (one process
  only) or ``dummycache://`` (keeps nothing). Each database has a part of the cache of its
  own (``core.cache``: a restore drill beside the site never touches the site's), and a
  cache that cannot be reached is served without.
- ``PUSH_REDIS_URL``: the Redis through which a game's moves are pushed to the pages
  watching it, across servers (``play.push``): by default the cache's when ``CACHE_URL``
  is ``redis://``; ``off``: no push (the pages poll). Without a Redis the pages poll.
  ``PUSH_LONG_POLL``: ``1`` lets a table's page hold its request until a move (off).
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
- ``ADMINS``, ``SERVER_EMAIL``: who is mailed each kind of error, and from whom;
  ``LOG_FORMAT`` (``text`` or ``json``), ``LOG_LEVEL`` (``INFO``); ``SENTRY_DSN``,
  ``SENTRY_ENVIRONMENT``, ``SENTRY_RELEASE``: an error tracker.

What django-environ does not read, and the site does (config/environment.py; tested in
tests/config/test_environment.py and tests/config/test_settings_read.py):

- ``DATABASE_POOL``: psycopg's pool is a dict of options (``min_size``, ``max_size``,
  ``timeout``), which no ``DATABASE_URL`` option can hold; a whole number here, made
  into the pool on PostgreSQL (``site_database``). The SQLite options (the write lock's
  wait, write-ahead logging), the PostgreSQL-or-SQLite check, the connection health
  checks and a percent-encoded socket folder as the host are the site's too.
- ``CACHE_URL``: django-environ names the backend; the site chooses core.cache's for the
  file cache and Redis (an unreachable cache is an empty one, not a 500), adds the
  database's partition to the key prefix and the file cache's folder, gives Redis short
  timeouts and redis-py's lower-case option names, checks ``?timeout=``, and gives the
  file and database caches their room and table (``site_cache``).
- ``EMAIL_URL``: ``?tls=1``, ``?ssl=1`` and ``?timeout=``, the port that follows TLS or
  SSL, and an absolute ``filemail://`` path are the site's (``site_email``).
- The names documented before these: ``CACHE_URL``'s ``file://``, ``db://``,
  ``locmem://``, ``dummy://`` and ``EMAIL_URL``'s ``console://``, ``locmem://``,
  ``file://``, ``dummy://``, ``smtps://`` read as they always did; ``smtps://`` is SSL on
  465 here, where django-environ would read STARTTLS.
- ``PUSH_REDIS_URL`` (a Redis URL, or ``off``), ``LOG_FORMAT`` (one of two names) and
  ``ADMINS`` (addresses, as ``email.utils`` reads them) are read as strings and checked
  here.
"""

from __future__ import annotations

from datetime import timedelta
from email.utils import getaddresses
from pathlib import Path
from urllib.parse import urlsplit

import django_stubs_ext
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.environment import (
    CONSOLE_MAIL,
    REDIS_CACHE,
    SMTP,
    SiteEnv,
    site_cache,
    site_database,
    site_email,
    smtp_server,
)

# Django's generic classes (ModelAdmin[Player], ModelForm[Player]) as django-stubs types them.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

env = SiteEnv()

DEBUG = env.bool("DEBUG", default=False)

# Without DEBUG and without SECRET_KEY the key stays empty, and Django refuses it only where
# it is read (``settings.SECRET_KEY``): the commands that sign nothing (migrate, backup,
# restore, simulate_tournament...) run on a checkout as they are, while the web server
# (config/wsgi.py, config/asgi.py, gunicorn.conf.py) and ``manage.py runserver`` refuse
# to start, in one line (config/startup.py); ``check --deploy`` reports it (security.W009).
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

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
    "ops.health.PingMiddleware",
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

# PostgreSQL or SQLite; SQLite waits for its write lock, PostgreSQL pools DATABASE_POOL
# connections a process (config.environment.site_database).
DATABASES = {
    "default": site_database(
        env.db_url("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env.int("CONN_MAX_AGE", default=60),
        pool=env.int("DATABASE_POOL", default=0),
    )
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
STATIC_ROOT = Path(env.path("STATIC_ROOT", default=BASE_DIR / "staticfiles"))
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

# E-mail (invitations, password resets): EMAIL_URL, else the separate EMAIL_* variables,
# else the terminal under DEBUG (config.environment.site_email: the port follows TLS or SSL).
if "EMAIL_URL" in env:
    email = site_email(env.email_url("EMAIL_URL"))
elif "EMAIL_HOST" in env:
    email = smtp_server(
        host=env.str("EMAIL_HOST"),
        port=env.int("EMAIL_PORT", default=None),
        user=env.str("EMAIL_HOST_USER", default=""),
        password=env.str("EMAIL_HOST_PASSWORD", default=""),
        tls=env.bool("EMAIL_USE_TLS", default=False),
        ssl=env.bool("EMAIL_USE_SSL", default=False),
        timeout=env.int("EMAIL_TIMEOUT", default=10),
        variable="EMAIL_USE_TLS and EMAIL_USE_SSL",
    )
else:
    email = {"EMAIL_BACKEND": CONSOLE_MAIL if DEBUG else SMTP}
globals().update(email)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="webmaster@localhost")

if not DEBUG and env.bool("SECURE_SSL", default=True):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    # The health check speaks plain HTTP inside the container (ops/health.py).
    SECURE_REDIRECT_EXEMPT = [r"^ping/$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# The database's own part of the cache; the file cache and Redis as core.cache's backends
# (config.environment.site_cache).
CACHES = {
    "default": site_cache(
        env.cache_url("CACHE_URL", default=f"filecache://{BASE_DIR / 'var' / 'cache'}"),
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
PUSH_REDIS_URL: str | None = env.str("PUSH_REDIS_URL", default=None)
if PUSH_REDIS_URL is None and CACHES["default"]["BACKEND"] == REDIS_CACHE:
    PUSH_REDIS_URL = str(CACHES["default"]["LOCATION"])
if PUSH_REDIS_URL == "off":
    PUSH_REDIS_URL = None
if PUSH_REDIS_URL is not None and urlsplit(PUSH_REDIS_URL).scheme not in ("redis", "rediss"):
    raise ImproperlyConfigured(
        f"PUSH_REDIS_URL: {PUSH_REDIS_URL!r} (use redis://host:6379/0 or off)."
    )
# The long poll (play.online_views.table's ``?wait=``), measured against the event stream
# by benchmarks/push.py: off on the site, where a held request would hold a thread.
PUSH_LONG_POLL = env.bool("PUSH_LONG_POLL", default=False)

# Slow work (PDF renders, mail, re-rating the list) runs as tasks through Django's tasks
# interface, queued in the database by default and taken by ``manage.py db_worker``.
TASKS = {
    "default": {
        "BACKEND": env.str("TASKS_BACKEND", default="django_tasks_db.DatabaseBackend"),
    }
}

# The task worker's heartbeat (ops.worker): it beats every BEAT_SECONDS; one unseen for
# LEASE_SECONDS is lost, and the tasks it left RUNNING are run again by the next sweep
# (every SWEEP_SECONDS, in any worker). A killed worker's task runs again within
# LEASE + SWEEP seconds of a worker running (docs/operating.md, "The task worker").
TASK_WORKER: dict[str, float] = {"BEAT_SECONDS": 5, "LEASE_SECONDS": 30, "SWEEP_SECONDS": 10}

# Backups (ops/backup.py, docs/operating.md "Backups"): the signing key is read (the file
# too) when a backup or restore runs, never by the web servers.
BACKUP_SIGNING_KEY = env.str("BACKUP_SIGNING_KEY", default="")
BACKUP_SIGNING_KEY_FILE = env.str("BACKUP_SIGNING_KEY_FILE", default="")
BACKUP_VERIFY_KEYS = env.list("BACKUP_VERIFY_KEYS", default=[])
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
CLIENT_IP_HEADER = env.str("CLIENT_IP_HEADER", default="")
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
    for name, address in getaddresses([env.str("ADMINS", default="")])
    if address
]
SERVER_EMAIL = env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL)
EMAIL_SUBJECT_PREFIX = "[Cribbageklubben] "
ALERTS: dict[str, float] = {"GATHER_SECONDS": 30, "WINDOW_SECONDS": 600}

# Logs: one line a request and a task with its duration and outcome (ops.logs); readable
# text by default, one JSON object a line with LOG_FORMAT=json (for journald or a shipper).
LOG_FORMAT = env.str("LOG_FORMAT", default="text")
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
    "root": {"handlers": ["console", "mail_admins"], "level": env.str("LOG_LEVEL", default="INFO")},
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
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    from ops.tracking import start_tracking

    start_tracking(
        SENTRY_DSN,
        environment=env.str("SENTRY_ENVIRONMENT", default="production"),
        release=env.str("SENTRY_RELEASE", default=""),
    )
