"""One deal's cards: what was dealt, laid away, turned, laid in the play and shown.

Terms: the *dealer* owns the *crib* (the four cards the seats lay away, with three
seats one more from the pack); the *pone* is the seat on the dealer's left (with two,
the other player), who leads the play; the *starter* is the card turned after the
discards. In the *play* the seats lay cards in turn, clockwise, and the *count* (pip
values since the last *reset*) may never pass 31; the cards laid since the last reset
are the current *sequence*. The *show* counts the hands from the pone's clockwise to the
dealer's, then the crib. How many sit at the table and what each is dealt is the deal's
``Seating`` (``scoring.rules.seats``).

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
from scoring.rules.seats import TWO, Seating

SHOW_ORDER = ("pone hand", "dealer hand", "dealer crib")
"""With two seats; with more, every hand from the dealer's left to the dealer, then the crib."""


def shuffled_deal(seed: int, number: int) -> tuple[tuple[tuple[Card, ...], ...], Card]:
    """The six cards for each of two players and the starter of deal ``number``.

    Each deal's shuffle comes from its own generator, seeded from the game seed
    and the deal number, so a saved game needs no generator state to go on.
    Cards are dealt one at a time starting with the pone: player-independent
    here, so the result is ``(pone's six, dealer's six), starter``.
    """
    hands, _from_pack, starter = shuffled_round(seed, number, TWO)
    return hands, starter


def shuffled_round(
    seed: int, number: int, seating: Seating
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], Card]:
    """Deal ``number``'s hands, from the dealer's left clockwise, the cards dealt from the
    pack to the crib and the starter: one card at a time to each seat, then the crib's."""
    seats, dealt = seating.seats, seating.seats * seating.dealt
    cards = random.Random(f"cribbage:{seed}:deal:{number}").sample(DECK, seating.deal_size())
    hands = tuple(tuple(cards[seat:dealt:seats]) for seat in range(seats))
    return hands, tuple(cards[dealt:-1]), cards[-1]


def cut_for_deal(seed: int, cutters: int = 2) -> list[tuple[Card, ...]]:
    """Each attempt of the cut for first deal, one card a cutter, until one card is lower
    than every other (docs/rules.md §2.1, §7)."""
    rng = random.Random(f"cribbage:{seed}:cut")
    attempts: list[tuple[Card, ...]] = []
    while not attempts or lowest_cut(attempts[-1]) is None:
        attempts.append(tuple(rng.sample(DECK, cutters)))
    return attempts


def lowest_cut(cards: Sequence[Card]) -> int | None:
    """Which of ``cards`` is lower in rank than all the others (that cutter deals), or None."""
    low = min(card.rank for card in cards)
    lowest = [at for at, card in enumerate(cards) if card.rank == low]
    return lowest[0] if len(lowest) == 1 else None


class Deal:
    """The mutable state of one deal, indexed by seat (0 or 1 with two)."""

    __slots__ = (
        "seating",
        "from_pack",
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
        self,
        number: int,
        dealer: int,
        dealt: Sequence[Sequence[Card]],
        cut_card: Card,
        *,
        seating: Seating = TWO,
        from_pack: Sequence[Card] = (),
    ) -> None:
        seats = seating.seats
        self.seating = seating
        self.from_pack = tuple(from_pack)
        self.number = number
        self.dealer = dealer
        self.dealt: tuple[tuple[Card, ...], ...] = tuple(tuple(hand) for hand in dealt)
        self.cut_card = cut_card  # becomes the starter once every seat has discarded
        self.discards: list[tuple[Card, ...]] = [()] * seats
        self.held: list[list[Card]] = [list(hand) for hand in dealt]
        self.starter: Card | None = None
        self.played: list[tuple[int, Card]] = []
        self.sequence: list[tuple[int, Card]] = []
        self.count = 0
        self.turn = (dealer + 1) % seats
        self.said_go = [False] * seats
        self.show_step = 0
        self.first_event = 0

    @property
    def pone(self) -> int:
        """The seat on the dealer's left: the other player with two; cuts and leads."""
        return (self.dealer + 1) % self.seating.seats

    def kept(self, player: int) -> tuple[Card, ...]:
        """The four cards ``player`` kept, or () before they discarded."""
        if not self.discards[player]:
            return ()
        return tuple(card for card in self.dealt[player] if card not in self.discards[player])

    @property
    def crib(self) -> tuple[Card, ...]:
        """The crib, once every seat has laid away: the card from the pack (three seats),
        then each seat's from the dealer's left to the dealer."""
        if not all(self.discards):
            return ()
        crib = self.from_pack
        for seat in self.seating.round_from(self.dealer):
            crib += self.discards[seat]
        return crib

    def playable(self, player: int) -> list[Card]:
        """The cards ``player`` holds that keep the count at 31 or under."""
        room = MAX_COUNT - self.count
        return [card for card in self.held[player] if card.value <= room]

    def can_lay(self, player: int) -> bool:
        room = MAX_COUNT - self.count
        return any(card.value <= room for card in self.held[player])

    def show(self) -> tuple[int, str, tuple[Card, ...]]:
        """Who shows what at the current show step: (seat, "hand"|"crib", four cards).

        Step 0 is the pone's hand, then each hand clockwise to the dealer's, then the crib.
        """
        seats = self.seating.seats
        if self.show_step < seats:
            seat = (self.dealer + 1 + self.show_step) % seats
            return seat, "hand", self.kept(seat)
        return self.dealer, "crib", self.crib

    def record(self, events: Sequence[Event]) -> dict[str, Any]:
        """This deal as in a game record, given the game's events from its start on."""
        record: dict[str, Any] = {
            "number": self.number,
            "dealer": self.dealer,
            "hands": [[str(card) for card in hand] for hand in self.dealt],
        }
        if self.from_pack:
            record["from_pack"] = [str(card) for card in self.from_pack]
        record["discards"] = [[str(card) for card in cards] for cards in self.discards]
        record["starter"] = None if self.starter is None else str(self.starter)
        record["events"] = [
            event.to_json(items=False) for event in events if event.type in RECORD_TYPES
        ]
        return record

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
