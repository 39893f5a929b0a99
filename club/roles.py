"""Who may do what: organisers run the register and tournaments; players report."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse


def is_organiser(user: Any) -> bool:
    """Members of the organisers group (and superusers) manage players and tournaments."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    cached = getattr(user, "_is_organiser", None)
    if cached is None:
        cached = user.groups.filter(name=settings.ORGANISER_GROUP).exists()
        user._is_organiser = cached
    return bool(cached)


View = Callable[..., HttpResponse]


def organiser_required(view: View) -> View:
    """Log in first; then only organisers get through, others get a 403 page."""

    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not is_organiser(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapper
