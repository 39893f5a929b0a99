"""Errors a player can cause in a game or a challenge; their messages are shown as they are."""

from core.errors import DomainError


class PlayError(DomainError):
    """A decision, challenge or proposal the game does not allow; nothing was saved.

    ``code`` names the reason (the engine's for a refused card: ``"not_held"``,
    ``"past_31"``; ``"stale"`` for a decision on a game that has moved on).
    """
