"""The show: counting a hand or crib of four cards with the starter.

Terms: *fifteen* (cards whose pip values sum to 15, 2 each), *pair* (two of a
rank, 2 each), *run* (three or more consecutive ranks, 1 a card, counted at
its full length only), *flush* (four hand cards of one suit 4, five 5; a crib
only with five), *nobs* (the jack of the starter's suit in hand, 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from scoring.cards import JACK, Card


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it, its points."""

    kind: str  # fifteen, pair, run, flush, nobs
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class HandScore:
    items: tuple[ScoreItem, ...]

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)


def score_hand(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> HandScore:
    """Count four cards with the starter (placeholder: exact but slow)."""
    cards = [*hand, starter]
    if len(hand) != 4 or len(set(cards)) != 5:
        raise ValueError("a hand is four different cards and a starter not among them")
    items: list[ScoreItem] = []
    for size in range(2, 6):
        for combo in combinations(cards, size):
            if sum(c.value for c in combo) == 15:
                items.append(ScoreItem("fifteen", combo, 2))
    for a, b in combinations(cards, 2):
        if a.rank == b.rank:
            items.append(ScoreItem("pair", (a, b), 2))
    for size in (5, 4, 3):
        runs = [
            combo
            for combo in combinations(sorted(cards), size)
            if all(combo[i + 1].rank == combo[i].rank + 1 for i in range(size - 1))
        ]
        if runs:
            items.extend(ScoreItem("run", run, size) for run in runs)
            break
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            items.append(ScoreItem("flush", tuple(cards), 5))
        elif not crib:
            items.append(ScoreItem("flush", tuple(hand), 4))
    for card in hand:
        if card.rank == JACK and card.suit == starter.suit:
            items.append(ScoreItem("nobs", (card,), 1))
    return HandScore(tuple(items))
