"""The play: the points a card earns when it is laid (docs/rules.md §2.5).

Terms: the *sequence* is the cards laid since the count was last reset to 0,
whoever laid them; the *count* is the sum of their pip values and never passes
31. The card just laid (the last of the sequence) scores for: making the count
*fifteen* (2) or *thirty-one* (2); a *pair* with the card before it (2), a *pair
royal* of the last three (6) or a *double pair royal* of the last four (12); a
*run*: the last k >= 3 cards are k consecutive ranks in any order, k points for
the longest such k. Go and last card depend on what the players can still lay,
so they belong to the game (``scoring.rules.game``), not here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.rules.cards import DECK, Card, format_cards
from scoring.rules.hand import describe_cards
from scoring.rules.items import ScoreItem, ScoreKind
from scoring.rules.speech import say_count

MAX_COUNT = 31
"""The count in the play may reach 31 and never pass it (docs/rules.md §2.4)."""
_DECK_SET = frozenset(DECK)


class InvalidSequenceError(ValueError):
    """Cards that cannot all have been laid in one sequence of the play."""


@dataclass(frozen=True, slots=True)
class PlayScore:
    """What the card just laid scores: the items, and ``total`` of their points."""

    items: tuple[ScoreItem, ...]

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def say(self, language: str = "en") -> str:
        """The call aloud: ``"fifteen two and a run of three is five"``; ``"sv"`` in Swedish."""
        return say_count(self.items, language)

    def __str__(self) -> str:
        return self.say()


def score_play(cards: Sequence[Card]) -> PlayScore:
    """Score the last of ``cards`` laid on the sequence made by the ones before it.

    Raises ``InvalidSequenceError`` (a ``ValueError``) for an empty sequence, a
    card laid twice or a count above 31.
    """
    sequence = tuple(cards)
    count = _checked_count(sequence)
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem(ScoreKind.FIFTEEN, sequence, 2))
    elif count == MAX_COUNT:
        items.append(ScoreItem(ScoreKind.THIRTY_ONE, sequence, 2))
    for item in (_pair(sequence), _run(sequence)):
        if item is not None:
            items.append(item)
    return PlayScore(tuple(items))


def _checked_count(sequence: tuple[Card, ...]) -> int:
    if not sequence:
        raise InvalidSequenceError("no card was laid: the sequence is empty")
    if not _DECK_SET.issuperset(sequence):
        raise InvalidSequenceError(f"not all cards of the deck: {describe_cards(sequence)}")
    if len(set(sequence)) != len(sequence):
        raise InvalidSequenceError(f"a card is laid twice in {format_cards(sequence)}")
    count = sum(card.value for card in sequence)
    if count > MAX_COUNT:
        raise InvalidSequenceError(
            f"the count of {format_cards(sequence)} is {count}; it may never pass 31"
        )
    return count


def _pair(sequence: tuple[Card, ...]) -> ScoreItem | None:
    """Two, three or four of a rank laid last: 2, 6 or 12 (each pair among them, 2)."""
    rank = sequence[-1].rank
    alike = 1
    while alike < len(sequence) and sequence[-alike - 1].rank == rank:
        alike += 1
    if alike < 2:
        return None
    return ScoreItem(ScoreKind.PAIR, sequence[-alike:], alike * (alike - 1))


def _run(sequence: tuple[Card, ...]) -> ScoreItem | None:
    """The longest run of three or more among the last cards, in any order."""
    seen: set[int] = set()
    low = high = sequence[-1].rank
    longest = 0
    for size, card in enumerate(reversed(sequence), start=1):
        if card.rank in seen:  # a repeated rank breaks every longer run too
            break
        seen.add(card.rank)
        low, high = min(low, card.rank), max(high, card.rank)
        if size >= 3 and high - low == size - 1:
            longest = size
    if not longest:
        return None
    return ScoreItem(ScoreKind.RUN, sequence[-longest:], longest)
