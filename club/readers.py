"""An account's change is a change of reader for the pages answered from the cache.

A page answered 304 without the database (``tournaments.revalidation``) knows a signed-in
reader by facts kept in the cache: their account, and that they are not an organiser.
Whatever changes those facts without a new session moves the mark of the accounts'
scope (``core.revalidation.READERS``), and every reader's facts are read again: an
account saved (a password changed, deactivated, made a superuser; not the last login's
time, which a login writes), deleted, or put in or out of a group (an organiser made),
and a group renamed or deleted.

These receivers listen to Django's own model signals: the accounts are changed by
Django's admin and auth forms as much as by the club's services.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, User
from django.db.models.signals import m2m_changed, post_delete, post_save

from core import revalidation


def readers_moved(sender: object, **kwargs: Any) -> None:
    if kwargs.get("update_fields") == frozenset({"last_login"}):
        return
    if kwargs.get("action", "post_").startswith("pre_"):
        return
    revalidation.moved(revalidation.READERS)


def connect() -> None:
    for model in (User, Group):
        post_save.connect(readers_moved, sender=model, dispatch_uid=f"readers-saved-{model}")
        post_delete.connect(readers_moved, sender=model, dispatch_uid=f"readers-gone-{model}")
    m2m_changed.connect(readers_moved, sender=User.groups.through, dispatch_uid="readers-groups")
