"""Errors an organiser or a member can cause in the register; their messages are shown as
they are. A field's wrong value stays Django's ``ValidationError``, for its form."""

from core.errors import DomainError


class ClubError(DomainError):
    """An action on a member or an account the register does not allow; nothing was saved."""
