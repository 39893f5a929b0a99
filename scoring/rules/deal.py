"""One deal's cards: what was dealt, laid away, turned, laid in the play and shown.

Terms: the *dealer* owns the *crib* (the four cards both players lay away); the
*pone* is the other player and leads the play; the *starter* is the card turned
after the discards. In the *play* each player lays cards in turn and the
*count* (pip values since the last *reset*) may never pass 31; the cards laid
since the last reset are the current *sequence*. The *show* counts the pone's
hand, the dealer's hand and the crib, in that order.

``Deal`` only holds state and answers questions about it; the rules that move
it on and score it are in ``scoring.rules.game``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scoring.rules.cards import DECK, Card
from scoring.rules.events import RECORD_TYPES, Event
from scoring.rules.pegging import MAX_COUNT

SHOW_ORDER = ("pone hand", "dealer hand", "dealer crib")


def shuffled_deal(seed: int, number: int) -> tuple[tuple[tuple[Card, ...], ...], Card]:
    """The six cards for each player and the starter of deal ``number``.

    Each deal's shuffle comes from its own generator, seeded from the game seed
    and the deal number, so a saved game needs no generator state to go on.
    Cards are dealt one at a time starting with the pone: player-independent
    here, so the result is ``(pone's six, dealer's six), starter``.
    """
    cards = random.Random(f"cribbage:{seed}:deal:{number}").sample(DECK, 13)
    return (tuple(cards[0:12:2]), tuple(cards[1:12:2])), cards[12]


def cut_for_deal(seed: int) -> list[tuple[Card, Card]]:
    """Each attempt of the cut for first deal, until the ranks differ (docs/rules.md §2.1)."""
    rng = random.Random(f"cribbage:{seed}:cut")
    attempts: list[tuple[Card, Card]] = []
    while not attempts or attempts[-1][0].rank == attempts[-1][1].rank:
        first, second = rng.sample(DECK, 2)
        attempts.append((first, second))
    return attempts


class Deal:
    """The mutable state of one deal, indexed by player (0 or 1)."""

    __slots__ = (
        "number",
        "dealer",
        "dealt",
        "cut_card",
        "discards",
        "held",
        "starter",
        "played",
        "sequence",
        "count",
        "turn",
        "said_go",
        "show_step",
        "first_event",
    )

    def __init__(
        self, number: int, dealer: int, dealt: Sequence[Sequence[Card]], cut_card: Card
    ) -> None:
        self.number = number
        self.dealer = dealer
        self.dealt: tuple[tuple[Card, ...], ...] = tuple(tuple(hand) for hand in dealt)
        self.cut_card = cut_card  # becomes the starter once both players have discarded
        self.discards: list[tuple[Card, ...]] = [(), ()]
        self.held: list[list[Card]] = [list(hand) for hand in dealt]
        self.starter: Card | None = None
        self.played: list[tuple[int, Card]] = []
        self.sequence: list[tuple[int, Card]] = []
        self.count = 0
        self.turn = 1 - dealer
        self.said_go = [False, False]
        self.show_step = 0
        self.first_event = 0

    @property
    def pone(self) -> int:
        return 1 - self.dealer

    def kept(self, player: int) -> tuple[Card, ...]:
        """The four cards ``player`` kept, or () before they discarded."""
        if not self.discards[player]:
            return ()
        return tuple(card for card in self.dealt[player] if card not in self.discards[player])

    @property
    def crib(self) -> tuple[Card, ...]:
        """The crib, once both players have laid away."""
        if not (self.discards[0] and self.discards[1]):
            return ()
        return self.discards[self.pone] + self.discards[self.dealer]

    def playable(self, player: int) -> list[Card]:
        """The cards ``player`` holds that keep the count at 31 or under."""
        room = MAX_COUNT - self.count
        return [card for card in self.held[player] if card.value <= room]

    def can_lay(self, player: int) -> bool:
        room = MAX_COUNT - self.count
        return any(card.value <= room for card in self.held[player])

    def show(self) -> tuple[int, str, tuple[Card, ...]]:
        """Who shows what at the current show step: (player, "hand"|"crib", four cards)."""
        if self.show_step == 0:
            return self.pone, "hand", self.kept(self.pone)
        if self.show_step == 1:
            return self.dealer, "hand", self.kept(self.dealer)
        return self.dealer, "crib", self.crib

    def record(self, events: Sequence[Event]) -> dict[str, Any]:
        """This deal as in a game record, given the game's events from its start on."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "hands": [[str(card) for card in hand] for hand in self.dealt],
            "discards": [[str(card) for card in cards] for cards in self.discards],
            "starter": None if self.starter is None else str(self.starter),
            "events": [
                event.to_json(items=False) for event in events if event.type in RECORD_TYPES
            ],
        }

    def copy(self) -> Deal:
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other.discards = list(self.discards)
        other.held = [list(cards) for cards in self.held]
        other.played = list(self.played)
        other.sequence = list(self.sequence)
        other.said_go = list(self.said_go)
        return other
