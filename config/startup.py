"""What stops the site or a command before it starts, said in one line.

A setting Django cannot work with raises ``ImproperlyConfigured`` (config/settings.py: a
bad ``DATABASE_URL``, ``CACHE_URL`` or ``EMAIL_URL``, a number that is not one; Django
itself: an empty ``SECRET_KEY`` where it is read). ``manage.py``, the WSGI and ASGI
entry points and gunicorn (gunicorn.conf.py) say it in one line that starts with the
variable to set, and stop, without a traceback.

``SECRET_KEY`` may stay unset without ``DEBUG``: a command that signs nothing (migrate,
backup, restore, simulate_tournament...) never reads it. Whatever serves pages signs
sessions and forms with it, so it is read before the first page: the web server and
``manage.py runserver`` refuse to start without it.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

# manage.py's commands that serve pages: they read the key before they start.
SERVING_COMMANDS = frozenset({"runserver", "testserver"})

# Django's words when an empty SECRET_KEY is read (django.conf.LazySettings.__getattr__).
EMPTY_SECRET_KEY = "The SECRET_KEY setting must not be empty."


def secret_key_missing(what: str) -> str:
    return (
        f"SECRET_KEY: not set; {what} needs it when DEBUG is off "
        "(set SECRET_KEY to a long random string, or DEBUG=1 for development)."
    )


def load_settings(serving: str | None = None) -> None:
    """Read the settings now, not at their first use; ``serving`` (what serves pages,
    e.g. "the web server") also needs the key. ``ImproperlyConfigured`` otherwise."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.conf import settings

    settings.INSTALLED_APPS  # noqa: B018 (imports the settings module: its errors now)
    if serving is not None:
        try:
            settings.SECRET_KEY  # noqa: B018
        except ImproperlyConfigured:
            raise ImproperlyConfigured(secret_key_missing(serving)) from None


def one_line(error: ImproperlyConfigured, *, what: str) -> str:
    """The message of ``error`` in one line; Django's own about the key names what needs it."""
    message = " ".join(str(error).split())
    if message == EMPTY_SECRET_KEY:
        return secret_key_missing(what)
    return message
