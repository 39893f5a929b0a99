"""The state of a game as the table sees it: scores, the deal's cards, whose turn it is.

Terms: see ``scoring.rules.deal`` (dealer, pone, crib, starter, count, sequence),
``scoring.rules.seats`` (seats and sides) and ``scoring.rules.events`` (phases and
events). ``Table`` only reads the state; ``scoring.rules.game.Game`` adds the decisions
and the rules that move it on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.rules.cards import Card
from scoring.rules.deal import Deal
from scoring.rules.events import WINNING_SCORE, Event, Phase
from scoring.rules.hand import HandScore, shown_score
from scoring.rules.seats import TWO, Seating

StackedDeal = (
    tuple[Sequence[Sequence[Card]], Card] | tuple[Sequence[Sequence[Card]], Card, Sequence[Card]]
)
"""One prearranged deal: each seat's cards as dealt, the starter and, with three seats, the
card dealt from the pack to the crib."""
Stacked = Sequence[StackedDeal]
"""Prearranged deals, used to replay a record."""


@dataclass(frozen=True, slots=True)
class PendingClaim:
    """A claim pegged provisionally while the opponent checks it for muggins: the points
    claimed, and both players' front and back pegs before it, put back when the call
    settles the claim."""

    points: int
    scores: tuple[int, ...]
    previous: tuple[int, ...]


class Table:
    """The seats at the table (players 0 and 1 with two), and the game's state."""

    def __init__(
        self,
        *,
        seed: int,
        players: tuple[str, ...],
        self_count: frozenset[int],
        muggins: bool,
        callers: frozenset[int] = frozenset(),
        stacked: Stacked = (),
        seating: Seating = TWO,
        target: int = WINNING_SCORE,
    ) -> None:
        self.seed = seed
        self.players = players
        self.self_count = self_count
        self.muggins = muggins
        self.callers = callers
        self.seating = seating
        self.target = target
        self._missed = 0
        self._pending: PendingClaim | None = None
        self._stacked = [
            (tuple(tuple(h) for h in deal[0]), deal[1], tuple(deal[2]) if len(deal) > 2 else ())
            for deal in stacked
        ]
        self._cut_attempts: list[tuple[Card, ...]] = []
        self.first_dealer = 0
        self._start_scores: tuple[int, ...] = (0,) * seating.sides
        self._scores = [0] * seating.sides
        self._previous = [0] * seating.sides
        self._phase = Phase.DISCARD
        self._winner: int | None = None
        self._events: list[Event] = []
        self._deals: list[Deal] = []
        self._decisions: list[dict[str, Any]] = []

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def seats(self) -> int:
        """How many sit at the table: 2, 3 or 4."""
        return self.seating.seats

    def side_of(self, seat: int) -> int:
        """The side ``seat`` pegs for: the seat itself, or with four its partnership."""
        return self.seating.side_of[seat]

    def score_of(self, seat: int) -> int:
        """The score of ``seat``'s side."""
        return self._scores[self.seating.side_of[seat]]

    @property
    def _deal(self) -> Deal:
        return self._deals[-1]

    @property
    def dealer(self) -> int:
        return self._deal.dealer

    @property
    def pone(self) -> int:
        return self._deal.pone

    @property
    def scores(self) -> tuple[int, ...]:
        """Every side's score (both players' with two); while a count is checked for
        muggins, with its claim pegged."""
        return tuple(self._scores)

    @property
    def previous_scores(self) -> tuple[int, ...]:
        """Each side's score before its latest scoring event (the board's back peg)."""
        return tuple(self._previous)

    @property
    def winner(self) -> int | None:
        """The side that reached the target (the player, with two or three seats)."""
        return self._winner

    @property
    def deal_number(self) -> int:
        """1 for the first deal of the game."""
        return self._deal.number

    @property
    def starter(self) -> Card | None:
        return self._deal.starter

    @property
    def count(self) -> int:
        return self._deal.count

    @property
    def sequence(self) -> tuple[tuple[int, Card], ...]:
        """The cards laid since the last reset of the count, as (player, card)."""
        return tuple(self._deal.sequence)

    @property
    def played(self) -> tuple[tuple[int, Card], ...]:
        """All cards laid in this deal's play, as (player, card)."""
        return tuple(self._deal.played)

    @property
    def crib(self) -> tuple[Card, ...]:
        return self._deal.crib

    def hand(self, player: int) -> tuple[Card, ...]:
        """The cards ``player`` still holds: all dealt before discarding, then those not yet
        laid."""
        return tuple(self._deal.held[player])

    def kept(self, player: int) -> tuple[Card, ...]:
        return self._deal.kept(player)

    @property
    def awaiting(self) -> frozenset[int]:
        """The seats whose decision the game waits for (all still to lay away while
        discarding)."""
        if self._phase is Phase.DISCARD:
            return frozenset(p for p, cards in enumerate(self._deal.discards) if not cards)
        if self._phase is Phase.DONE:
            return frozenset()
        return frozenset({self._deal_to_move()})

    @property
    def to_move(self) -> int | None:
        """The seat to decide; while discarding the first from the dealer's left (the pone)
        still to lay away, the dealer last."""
        if self._phase is Phase.DISCARD:
            deal = self._deal
            return next(s for s in self.seating.round_from(deal.dealer) if not deal.discards[s])
        if self._phase is Phase.DONE:
            return None
        return self._deal_to_move()

    @property
    def showing(self) -> tuple[int, str, tuple[Card, ...]] | None:
        """While a player counts their own hand, or its count is checked for muggins:
        (the player counting, "hand"|"crib", the four cards)."""
        return self._deal.show() if self._phase in (Phase.COUNT, Phase.MUGGINS) else None

    @property
    def claimed(self) -> int | None:
        """While a count is checked for muggins, the points claimed: pegged already, as
        at the table, until the call settles the claim (every reader may know it)."""
        if self._phase is not Phase.MUGGINS or self._pending is None:
            return None
        return self._pending.points

    @property
    def missed(self) -> int | None:
        """While a count is checked for muggins, the points it missed (a computer's to know)."""
        return self._missed if self._phase is Phase.MUGGINS else None

    @property
    def showing_score(self) -> HandScore | None:
        """What the hand (or crib) being counted by its player is worth, or None (``showing``)."""
        showing = self.showing
        if showing is None:
            return None
        _player, what, cards = showing
        assert self._deal.starter is not None
        return shown_score(cards, self._deal.starter, what == "crib")

    def _deal_to_move(self) -> int:
        if self._phase is Phase.PLAY:
            return self._deal.turn
        counting = self._deal.show()[0]
        return 1 - counting if self._phase is Phase.MUGGINS else counting

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def deals(self) -> list[dict[str, Any]]:
        """Each deal as in the game record: dealer, hands as dealt, discards, starter, events."""
        ends = [deal.first_event for deal in self._deals[1:]] + [len(self._events)]
        return [
            deal.record(self._events[deal.first_event : end])
            for deal, end in zip(self._deals, ends, strict=True)
        ]
