"""Cards: the 52-card deck, parsed from and written as two-character notation.

Notation is rank then suit: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (input also
accepts ``10``), suit ``C D H S``. ``Card.parse("5H")`` and ``str(card)`` are
each other's inverse. Rank (1-13) is used for pairs and runs; pip value
(ace 1, court cards 10) for fifteens and the count in the play.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "CDHS"
JACK = 11


class InvalidCardError(ValueError):
    """A card written in notation the engine does not understand."""

    def __init__(self, token: str) -> None:
        super().__init__(
            f"{token!r} is not a card: write rank then suit, "
            "like 5H, TS or 10S (ranks A 2-9 T J Q K, suits C D H S)"
        )
        self.token = token


class Card(NamedTuple):
    """One card; ``rank`` 1 (ace) to 13 (king), ``suit`` one of ``C D H S``.

    Immutable and hashable; cards compare by rank, then suit.
    """

    rank: int
    suit: str

    @classmethod
    def parse(cls, token: str) -> Card:
        text = token.strip().upper()
        if len(text) == 3 and text.startswith("10"):
            text = "T" + text[2]
        if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
            raise InvalidCardError(token)
        return cls(RANKS.index(text[0]) + 1, text[1])

    @property
    def value(self) -> int:
        """Pip value, used for fifteens and the count: ace 1, court cards 10."""
        return min(self.rank, 10)

    # Shadows ``tuple.index`` on purpose: nothing searches inside a card, and the
    # numpy scorers (``scoring.players.handarray``) use this name for the card's position.
    @property
    def index(self) -> int:  # type: ignore[override]
        """Position 0-51 in ``DECK``."""
        return (self.rank - 1) * 4 + SUITS.index(self.suit)

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"5H 5C 5S JD"`` (or an iterable of tokens) into cards.

    Commas count as spaces. Raises ``InvalidCardError`` naming the first bad token.
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(token) for token in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of ``parse_cards``: ``"5H 5C 5S JD"``."""
    return " ".join(str(card) for card in cards)


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)
