"""What a count is made of: the kinds of scoring item, and one item with its cards and points.

Both the show (``scoring.rules.hand``) and the play (``scoring.rules.pegging``) count in items;
``scoring.rules.speech`` says them aloud and a site names them, each by its ``kind``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from scoring.rules.cards import Card


class ScoreKind(StrEnum):
    """A kind of scoring combination (a ``str``: JSON and templates keep the value)."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    """Every card of one rank: a pair, pair royal or double pair royal."""
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"
    THIRTY_ONE = "thirty-one"
    """The play only."""


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it, its points.

    A pair item holds every card of its rank, so a pair royal is one item worth 6.
    """

    kind: ScoreKind
    cards: tuple[Card, ...]
    points: int
