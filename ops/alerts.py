"""Errors told to the operator: a mail to ``ADMINS``, one a burst (docs/operating.md,
"When something breaks").

Django's ``AdminEmailHandler`` mails every error it is given, and a venue's burst of one
error (every reader of a page that raises, every PDF of a broken document) would send
hundreds. This handler counts the errors of a *kind* (the logger, the exception's type
and the line that raised it; without an exception, the message before its arguments)
for ``GATHER_SECONDS``, then mails the first of them once, with the count. While the
kind goes on, the repeats are counted and mailed once every ``WINDOW_SECONDS`` with their
count; when it stops, nothing more is sent. (Settings: ``ALERTS``.)

The counts live in the cache, so a burst on several servers or gunicorn workers is one
mail; if the cache cannot be reached, each process counts and mails for itself. The
mail is written when the error happens (Django's report of it) and sent later by a
timer thread of the process that saw it first.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
import traceback
from collections import Counter
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.log import AdminEmailHandler


def kind(record: logging.LogRecord) -> str:
    """What makes two records the same error, as a short key."""
    parts = [record.name, record.levelname]
    if record.exc_info and record.exc_info[0] is not None:
        error_type, _error, trace = record.exc_info
        parts.append(f"{error_type.__module__}.{error_type.__qualname__}")
        frames = traceback.extract_tb(trace)
        if frames:
            parts.append(f"{frames[-1].filename}:{frames[-1].lineno}")
    else:
        parts.append(str(record.msg))
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:24]


def alert_setting(name: str) -> float:
    return float(settings.ALERTS[name])


class Counts:
    """The errors of each kind not mailed yet, and which process mails them: in the cache,
    or in this process when the cache fails."""

    def __init__(self) -> None:
        self.local: Counter[str] = Counter()
        self.claimed: set[str] = set()

    def add(self, key: str) -> None:
        try:
            cache.add(f"alerts:{key}:count", 0, self._lifetime())
            cache.incr(f"alerts:{key}:count")
        except Exception:  # any cache's failure (a missing key after eviction too)
            self.local[key] += 1

    def claim(self, key: str) -> bool:
        """True for the one process that is to mail this kind."""
        try:
            return bool(cache.add(f"alerts:{key}:mailer", True, self._lifetime()))
        except Exception:
            if key in self.claimed:
                return False
            self.claimed.add(key)
            return True

    def keep_claim(self, key: str) -> None:
        try:
            cache.set(f"alerts:{key}:mailer", True, self._lifetime())
        except Exception:
            self.claimed.add(key)

    def take(self, key: str) -> int:
        """The count not mailed yet, now counted as mailed."""
        taken, self.local[key] = self.local[key], 0
        try:
            found = cache.get(f"alerts:{key}:count") or 0
            if found:
                cache.decr(f"alerts:{key}:count", found)
            return taken + int(found)
        except Exception:
            return taken

    def release(self, key: str) -> None:
        self.claimed.discard(key)
        with contextlib.suppress(Exception):
            cache.delete(f"alerts:{key}:mailer")

    def _lifetime(self) -> int:
        return int(alert_setting("GATHER_SECONDS") + alert_setting("WINDOW_SECONDS") + 60)


class ThrottledAdminEmailHandler(AdminEmailHandler):
    """Mails ``ADMINS`` each kind of error once a window, with how often it happened."""

    counts = Counts()
    timers: set[threading.Timer] = set()
    writing = threading.local()

    def emit(self, record: logging.LogRecord) -> None:
        if not settings.ADMINS or self._told_already(record):
            return
        key = kind(record)
        self.counts.add(key)
        if not self.counts.claim(key):
            return
        self.writing.letter = None
        super().emit(record)  # writes Django's report of the error: send_mail keeps it
        letter, self.writing.letter = self.writing.letter, None
        if letter is None:
            self.counts.release(key)
            return
        since = timezone.localtime()
        self._later(alert_setting("GATHER_SECONDS"), key, letter, since)

    @staticmethod
    def _told_already(record: logging.LogRecord) -> bool:
        """True when this very exception was counted already: a task that logs its own
        failure is logged again by the worker, and that is one error, not two."""
        error = record.exc_info[1] if record.exc_info else None
        if error is None:
            return False
        if getattr(error, "_told_to_admins", False):
            return True
        with contextlib.suppress(AttributeError):  # a few built-in errors take no attributes
            error._told_to_admins = True  # type: ignore[attr-defined]
        return False

    def send_mail(self, subject: Any, message: Any, *args: Any, **kwargs: Any) -> None:
        if getattr(self.writing, "letter", False) is None:
            self.writing.letter = (str(subject), str(message), kwargs)
            return
        super().send_mail(subject, message, *args, **kwargs)

    def _later(self, seconds: float, key: str, letter: tuple[str, str, Any], since: Any) -> None:
        timer = threading.Timer(seconds, self._report, (key, letter, since))
        timer.daemon = True
        self.timers.add(timer)
        timer.start()

    def _report(self, key: str, letter: tuple[str, str, Any], since: Any) -> None:
        self.timers.difference_update(
            timer for timer in list(self.timers) if timer is threading.current_thread()
        )
        count = self.counts.take(key)
        if count == 0:  # the kind has stopped: the next one starts afresh
            self.counts.release(key)
            return
        subject, message, kwargs = letter
        times = "once" if count == 1 else f"{count} times"
        heading = f"This error happened {times} since {since:%Y-%m-%d %H:%M %Z}."
        super().send_mail(f"{subject} (×{count})", f"{heading}\n\n{message}", **kwargs)
        self.counts.keep_claim(key)
        self._later(alert_setting("WINDOW_SECONDS"), key, letter, timezone.localtime())

    @classmethod
    def forget(cls) -> None:
        """Cancel every mail still to send (the tests, between two)."""
        for timer in list(cls.timers):
            timer.cancel()
        cls.timers.clear()
        cls.counts = Counts()
