"""Errors a user of the tournament pages can cause; their messages are shown as they are."""

from core.errors import DomainError


class TournamentError(DomainError):
    """Something the rules of the tournament do not allow; nothing was saved."""
