"""The one base of the errors a user can cause: an action the rules refuse.

A service that refuses an action (a match not yours, a round already published, a card
not in your hand) raises a subclass of :class:`DomainError` (``TournamentError``,
``PlayError``) with a translated message the page shows as it is, and saves nothing.
Views catch ``DomainError`` alone (:func:`run_service` does, for a page that then says
the refusal or what was done). Django's ``ValidationError`` stays what forms and models
raise for a field's value; :func:`full_clean` turns a model's into the service's refusal
where a service checks a model before saving it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.http import HttpRequest


class DomainError(Exception):
    """An action refused; nothing was saved.

    ``message`` is translated, for the reader; ``code`` names the reason for code and
    tests (``"stale"``, ``"not_held"``), empty when no one needs it.
    """

    def __init__(self, message: str, *, code: str = "") -> None:
        super().__init__(message)
        self.message = str(message)
        self.code = code

    def __str__(self) -> str:
        return self.message


def full_clean(instance: Model, refusal: type[DomainError], **options: Any) -> None:
    """``instance.full_clean(**options)``; what it finds wrong is raised as ``refusal``
    with the same messages (a constraint's, a field validator's) and the first one's code."""
    try:
        instance.full_clean(**options)
    except ValidationError as error:
        raise refusal(" ".join(error.messages), code=_first_code(error)) from error


def _first_code(error: ValidationError) -> str:
    """The code of the first thing found wrong (``"blank"``, ``"unknown"``), else ``"invalid"``."""
    found = (
        [each for errors in error.error_dict.values() for each in errors]
        if hasattr(error, "error_dict")
        else error.error_list
    )
    return next((each.code for each in found if each.code), "invalid")


def run_service(
    request: HttpRequest, action: Callable[..., object], success: str, **kwargs: Any
) -> bool:
    """Call a service; show its refusal (nothing saved) or the success message. True when
    it was done."""
    try:
        action(**kwargs)
    except DomainError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, success)
    return True
