"""Choosing a card to lay in the play, at each level of computer player.

Terms (see also ``scoring.pegging``): the *sequence* is the cards laid since
the count was last reset; a player who *passed* has said go in this sequence
and cannot lay again before the reset. The *unseen* cards are those the
player to move cannot see: not their own six, not the starter, not laid by
the opponent. The opponent's *floor*: each time they said go at count c,
every card they held was worth more than 31 - c, so the cards they still
hold are worth more than the highest such bound. The *net* of a line of
play is the mover's points minus the opponent's, to the end of the play.

Pegging depends on ranks only (pip values follow from ranks), so the
look-ahead works on tuples of ranks and caches positions across decisions.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from scoring.cards import SUITS, Card
from scoring.pegging import MAX_COUNT, score_play

Ranks = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PegPosition:
    """What the player to move can see when it is their turn to lay a card."""

    held: tuple[Card, ...]
    sequence: tuple[Card, ...]
    opponent_passed: bool
    opponent_held: int
    opponent_floor: int
    unseen: tuple[Card, ...]
    scores: tuple[int, int]
    """(the mover's score, the opponent's score)."""

    @property
    def count(self) -> int:
        return sum(card.value for card in self.sequence)

    def legal(self) -> list[Card]:
        """The held cards that keep the count at 31 or under."""
        room = MAX_COUNT - self.count
        return [card for card in self.held if card.value <= room]

    def opponent_pool(self) -> list[Card]:
        """The unseen cards the opponent may still hold, given their go's."""
        pool = [card for card in self.unseen if card.value > self.opponent_floor]
        return pool if len(pool) >= self.opponent_held else list(self.unseen)


def value(rank: int) -> int:
    return min(rank, 10)


@lru_cache(maxsize=1 << 16)
def play_points(ranks: Ranks) -> int:
    """Points the last of ``ranks`` earns on the sequence before it (via ``score_play``)."""
    seen: Counter[int] = Counter()
    cards = []
    for rank in ranks:  # any distinct suits will do: suits never score in the play
        cards.append(Card(rank, SUITS[seen[rank]]))
        seen[rank] += 1
    return score_play(cards).total


def immediate_points(position: PegPosition, card: Card) -> int:
    return play_points(tuple(c.rank for c in position.sequence) + (card.rank,))


# ---------------------------------------------------------------- easy
def easy_play(position: PegPosition, rng: random.Random) -> Card:
    """Take points when a card scores at once; otherwise any legal card."""
    legal = position.legal()
    best = max(immediate_points(position, card) for card in legal)
    return rng.choice([card for card in legal if immediate_points(position, card) == best])


# ------------------------------------------------------------ standard
def standard_play(position: PegPosition, rng: random.Random) -> Card:
    """Points now, less what the opponent is likely to score in reply.

    Counts of 5, 10 and 21 (a ten-card makes 15 or 31), a card they may pair
    and counts they can make 15 or 31 from all weigh through ``reply_risk``.
    Among equals the higher card goes first, keeping low cards for later go's.
    """
    legal = position.legal()
    pool = Counter(card.rank for card in position.opponent_pool())

    def merit(card: Card) -> float:
        now = immediate_points(position, card)
        return now - reply_risk(position, card, pool) + card.value / 100

    best = max(merit(card) for card in legal)
    return rng.choice([card for card in legal if merit(card) == best])


def reply_risk(position: PegPosition, card: Card, pool: Counter[int]) -> float:
    """Expected points the opponent can answer ``card`` with, summed over their possible ranks.

    Each rank weighs by the chance that the opponent holds at least one card of
    it; summing (rather than taking their best) overstates, but equally for
    every card compared.
    """
    if position.opponent_passed or not position.opponent_held:
        return 0.0
    ranks = tuple(c.rank for c in position.sequence) + (card.rank,)
    count = position.count + card.value
    unseen, held = sum(pool.values()), position.opponent_held
    risk = 0.0
    for rank, copies in pool.items():
        if count + value(rank) <= MAX_COUNT:
            holds = 1 - comb(unseen - copies, held) / comb(unseen, held)
            risk += holds * play_points((*ranks, rank))
    return risk


# -------------------------------------------------------------- expert
SAMPLES = 24
"""Opponent hands drawn for the look-ahead when they hold three or four cards."""


def expert_play(position: PegPosition, rng: random.Random) -> Card:
    """The card with the best mean net over the opponent's possible hands.

    For each hand the opponent might hold (all of them, weighted, when they
    hold two cards or fewer; ``SAMPLES`` drawn otherwise) the rest of the play
    is searched to the end, both sides laying their best card knowing all
    cards (minimax). A card that reaches 121 at once is always taken.
    """
    legal = position.legal()
    mine, theirs = position.scores
    for card in legal:
        if mine + immediate_points(position, card) >= 121:
            return card
    totals = Counter[int]()
    search = _Search()
    for hand, weight in opponent_hands(position, rng):
        for rank, net in option_nets(position, hand, search).items():
            totals[rank] += weight * net
    best_rank = max(totals, key=lambda rank: (totals[rank], value(rank)))
    return next(card for card in legal if card.rank == best_rank)


def opponent_hands(position: PegPosition, rng: random.Random) -> list[tuple[Ranks, float]]:
    """Hands the opponent may hold, as sorted ranks, with their weights."""
    pool = position.opponent_pool()
    held = position.opponent_held
    if held <= 2:
        hands = Counter[Ranks]()
        for first in range(len(pool)):
            if held == 1:
                hands[(pool[first].rank,)] += 1
                continue
            for second in range(first + 1, len(pool)):
                hands[tuple(sorted((pool[first].rank, pool[second].rank)))] += 1
        return [(hand, float(weight)) for hand, weight in sorted(hands.items())] or [((), 1.0)]
    draws = (tuple(sorted(c.rank for c in rng.sample(pool, held))) for _ in range(SAMPLES))
    return [(hand, 1.0) for hand in draws]


def option_nets(
    position: PegPosition, opponent: Ranks, search: _Search | None = None
) -> dict[int, int]:
    """The net after laying each legal rank, the opponent's hand known."""
    held = tuple(sorted(card.rank for card in position.held))
    sequence = tuple(card.rank for card in position.sequence)
    search = search or _Search()
    return search.options(held, opponent, sequence, position.count, position.opponent_passed)


class _Search:
    """A perfect-information search of the rest of the play, with its positions cached."""

    def __init__(self) -> None:
        self.memo: dict[tuple[Ranks, Ranks, Ranks, int, bool], int] = {}

    def options(
        self, mover: Ranks, other: Ranks, seq: Ranks, count: int, passed: bool
    ) -> dict[int, int]:
        """Net for the mover of laying each distinct legal rank; ``passed``: the other said go."""
        nets = {}
        for index, rank in enumerate(mover):
            if count + value(rank) > MAX_COUNT or rank in mover[:index]:
                continue
            rest = mover[:index] + mover[index + 1 :]
            points = play_points((*seq, rank))
            new_count = count + value(rank)
            if new_count == MAX_COUNT:  # the sequence ends; the other player leads the next
                nets[rank] = points - self.net(other, rest, (), 0, False) if rest or other else points
            elif passed:
                nets[rank] = points + self.net(rest, other, (*seq, rank), new_count, True)
            else:
                nets[rank] = points - self.net(other, rest, (*seq, rank), new_count, False)
        return nets

    def net(self, mover: Ranks, other: Ranks, seq: Ranks, count: int, passed: bool) -> int:
        """The mover's best net from here to the end of the play, both playing perfectly."""
        key = (mover, other, seq, count, passed)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._net(mover, other, seq, count, passed)
        return found

    def _net(self, mover: Ranks, other: Ranks, seq: Ranks, count: int, passed: bool) -> int:
        nets = self.options(mover, other, seq, count, passed)
        if nets:
            return max(nets.values())
        if not passed:  # the mover says go (or has no cards): the other lays on
            if not seq and not other:
                return 0
            return -self.net(other, mover, seq, count, True)
        if not seq:
            return 0
        # Neither can lay: the mover laid the last card of the sequence and gets 1.
        if not mover and not other:
            return 1
        return 1 - self.net(other, mover, (), 0, False)
