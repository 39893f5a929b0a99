"""Choosing a card to lay in the play with three or four at the table.

Terms (see also ``scoring.players.pegplay``, the play of two): a ``TablePosition`` is
what the seat to move sees: its own cards, the sequence and who laid each card, what each
other seat has laid this deal, how many cards each still holds, who has said go in this
count, each seat's *floor* from its go's this deal (every card it still holds is worth
more) and the cards it cannot see. A side's *weight* is what its points are worth to the
mover: 1 for the mover's own side (with four, the partner's points are the mover's), and
-1 / (sides - 1) for each other side, so that a point to one of two opponents of three
counts half against (the measure of ``scoring.players.discarding``). The *net* of a line
of play is the weighted sum of every side's points to the end of the play.

The levels:

- ``easy``: points now when a card scores, any legal card otherwise (as for two);
- ``standard``: points now, with the next seat's likely reply weighed by its side
  (against for an opponent, for a partner), the higher card among equals;
- ``expert``: for each legal rank, the mean net over ``WORLDS`` deals of the unseen cards
  to the other seats (their counts and floors kept), each played out to the end of the
  play by every seat laying for its side with the cards known: points now, less (for a
  partner, plus) the most the next seat can score on the card (``rollout``). Searching
  every line, as the expert of two does, would take seconds with twelve or sixteen cards
  out: a played-out sample keeps a decision to a few milliseconds (docs/benchmarks.md).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb

from scoring.players.pegplay import (
    _VALUES,
    PlayEvaluation,
    Ranks,
    _sequence_state,
    _step,
    play_points,
    value,
)
from scoring.rules.cards import Card
from scoring.rules.pegging import MAX_COUNT

WORLDS = 16
"""Deals of the unseen cards the expert plays out for each legal rank."""


@dataclass(frozen=True, slots=True)
class TablePosition:
    """What the seat to move sees in the play, with three or four at the table."""

    mover: int
    held: tuple[Card, ...]
    sequence: tuple[tuple[int, Card], ...]
    """The cards laid since the count last started from 0, as (seat, card)."""
    laid: tuple[tuple[Card, ...], ...]
    """Each seat's cards laid this deal."""
    holding: tuple[int, ...]
    """How many cards each seat still holds."""
    passed: frozenset[int]
    """The seats that said go in this count."""
    floors: tuple[int, ...]
    """Each seat's floor: every card it holds is worth more (from its go's this deal)."""
    unseen: tuple[Card, ...]
    scores: tuple[int, ...]
    """Every side's score."""
    side_of: tuple[int, ...]
    target: int

    @property
    def seats(self) -> int:
        return len(self.side_of)

    @property
    def count(self) -> int:
        return sum(card.value for _, card in self.sequence)

    def legal(self) -> list[Card]:
        room = MAX_COUNT - self.count
        return [card for card in self.held if card.value <= room]

    def weights(self) -> tuple[float, ...]:
        """What a point of each seat's side is worth to the mover."""
        mine, sides = self.side_of[self.mover], max(self.side_of) + 1
        return tuple(1.0 if side == mine else -1.0 / (sides - 1) for side in self.side_of)

    def next_seat(self) -> int | None:
        """The next seat clockwise after the mover that may still lay in this count."""
        for step in range(1, self.seats):
            seat = (self.mover + step) % self.seats
            if self.holding[seat] and seat not in self.passed:
                return seat
        return None

    def pool(self, seat: int) -> list[Card]:
        """The unseen cards ``seat`` may hold, given its go's."""
        pool = [card for card in self.unseen if card.value > self.floors[seat]]
        return pool if len(pool) >= self.holding[seat] else list(self.unseen)


def immediate_points(position: TablePosition, card: Card) -> int:
    return play_points((*(c.rank for _, c in position.sequence), card.rank))


# ---------------------------------------------------------------- easy, standard
def easy_table_play(position: TablePosition, rng: random.Random) -> Card:
    """Take points when a card scores at once; otherwise any legal card."""
    legal = position.legal()
    best = max(immediate_points(position, card) for card in legal)
    return rng.choice([card for card in legal if immediate_points(position, card) == best])


def standard_table_play(position: TablePosition, rng: random.Random) -> Card:
    """Points now and the next seat's likely reply, weighed by its side."""
    legal = position.legal()
    sequence = tuple(card.rank for _, card in position.sequence)
    after = position.next_seat()
    weight = 0.0 if after is None else position.weights()[after]
    pool = Counter(card.rank for card in position.pool(after)) if after is not None else None

    def merit(card: Card) -> float:
        ranks = (*sequence, card.rank)
        worth = play_points(ranks) + value(card.rank) / 100
        if after is not None and pool is not None:
            count = sum(map(value, ranks))
            worth += weight * _reply(ranks, count, pool, position.holding[after])
        return worth

    best = max(merit(card) for card in legal)
    return rng.choice([card for card in legal if merit(card) == best])


def _reply(ranks: Ranks, count: int, pool: Counter[int], held: int) -> float:
    """The points the next seat can answer with, each rank weighed by the chance that it
    holds one (as ``pegplay.reply_risk`` for two)."""
    unseen = sum(pool.values())
    reply = 0.0
    for rank, copies in pool.items():
        if copies and count + value(rank) <= MAX_COUNT and unseen >= held:
            holds = 1 - comb(unseen - copies, held) / comb(unseen, held)
            reply += holds * play_points((*ranks, rank))
    return reply


# ---------------------------------------------------------------------- expert
def evaluate_table_play(position: TablePosition) -> PlayEvaluation:
    """The one judge's reckoning of a card with three or four: each legal rank's mean net
    over ``WORLDS`` deals of the unseen cards drawn by a generator seeded from the position
    alone (what the mover sees). The expert lays its ``best``, the hint offers it and the
    review calls it best (docs/review.md)."""
    rng = random.Random(f"table:{_position_text(position)}")
    legal = position.legal()
    mine = position.scores[position.side_of[position.mover]]
    wins = frozenset(
        card.rank for card in legal if mine + immediate_points(position, card) >= position.target
    )
    ranks = sorted({card.rank for card in legal})
    if len(ranks) == 1:  # one rank to lay: nothing to weigh
        return PlayEvaluation(best=legal[0], means={ranks[0]: 0.0}, hands=(), exact=True, wins=wins)
    weighed = []
    totals = dict.fromkeys(ranks, 0.0)
    start = _Start.of(position)
    for world in _worlds(position, rng):
        nets = {rank: _rollout(start, world, rank) for rank in ranks}
        flat = tuple(rank for hand in world for rank in hand)
        weighed.append((flat, 1.0, nets))
        for rank, net in nets.items():
            totals[rank] += net
    means = {rank: total / len(weighed) for rank, total in totals.items()}
    if wins:
        best = next(card for card in legal if card.rank in wins)
    else:
        chosen = max(means, key=lambda r: (means[r], value(r)))
        best = next(card for card in legal if card.rank == chosen)
    return PlayEvaluation(best=best, means=means, hands=tuple(weighed), exact=False, wins=wins)


def _worlds(position: TablePosition, rng: random.Random) -> list[tuple[Ranks, ...]]:
    """``WORLDS`` deals of unseen cards to the other seats, each seat's held count and
    floor kept (the seat with the highest floor served first); the mover's own hand in
    its place. As ranks, each hand ascending."""
    mover_hand = tuple(sorted(card.rank for card in position.held))
    others = sorted(
        (seat for seat in range(position.seats) if seat != position.mover),
        key=lambda seat: -position.floors[seat],
    )
    unseen = [card.rank for card in position.unseen]
    worlds = []
    for _ in range(WORLDS):
        rng.shuffle(unseen)
        used = [False] * len(unseen)
        hands: dict[int, Ranks] = {position.mover: mover_hand}
        for seat in others:
            wanted, floor = position.holding[seat], position.floors[seat]
            drawn = _draw(unseen, used, wanted, floor)
            if len(drawn) < wanted:  # their go's cannot all be true of what is left
                drawn += _draw(unseen, used, wanted - len(drawn), 0)
            hands[seat] = tuple(sorted(drawn))
        worlds.append(tuple(hands[seat] for seat in range(position.seats)))
    return worlds


def _draw(ranks: list[int], used: list[bool], wanted: int, floor: int) -> list[int]:
    """The first ``wanted`` ranks not yet used whose value is above ``floor``, used now."""
    drawn: list[int] = []
    for at, rank in enumerate(ranks):
        if len(drawn) == wanted:
            break
        if not used[at] and _VALUES[rank] > floor:
            used[at] = True
            drawn.append(rank)
    return drawn


def rollout(position: TablePosition, world: Sequence[Ranks], rank: int) -> float:
    """The mover's net from laying ``rank`` to the end of the play in ``world`` (every
    seat's hand, its ranks ascending), every seat then laying by ``_policy``, under the
    rules of the play (docs/rules.md §2.4, §7)."""
    return _rollout(_Start.of(position), world, rank)


@dataclass(frozen=True, slots=True)
class _Start:
    """What every rollout of a position starts from, worked out once."""

    mover: int
    weights: tuple[float, ...]
    allies: tuple[tuple[float, ...], ...]
    """``allies[seat][other]``: a point of ``other``'s side to ``seat``."""
    sequence: Ranks
    count: int
    passed: tuple[bool, ...]

    @classmethod
    def of(cls, position: TablePosition) -> _Start:
        sequence = tuple(card.rank for _, card in position.sequence)
        sides, side_of = max(position.side_of) + 1, position.side_of
        allies = tuple(
            tuple(1.0 if side_of[o] == side_of[s] else -1.0 / (sides - 1) for o in side_of)
            for s in range(position.seats)
        )
        return cls(
            mover=position.mover,
            weights=position.weights(),
            allies=allies,
            sequence=sequence,
            count=sum(_VALUES[rank] for rank in sequence),
            passed=tuple(seat in position.passed for seat in range(position.seats)),
        )


def _rollout(start: _Start, world: Sequence[Ranks], rank: int) -> float:
    """``rollout``, written for speed: it runs some 1,000 times for a decision at the lead
    with four. The sequence is kept as the search of two keeps it (``pegplay._step``: one
    int of the live tail and the count, each card's points looked up)."""
    weights, seats = start.weights, len(world)
    orders = _ORDERS[seats]
    hands = [list(hand) for hand in world]
    left = sum(map(len, hands))
    state = _sequence_state(start.sequence, start.count)
    passed = list(start.passed)
    seat, net = start.mover, 0.0
    while True:
        hands[seat].remove(rank)
        left -= 1
        step = _step(state, rank)
        state, points = step >> 4, step & 15
        if points:
            net += weights[seat] * points
        if not left:  # the last card of the play: 1 for it, unless it made 31
            return net + weights[seat] if state else net
        after = -1
        if state:  # below 31 (31 leaves no sequence)
            room = MAX_COUNT - (state & 31)
            for other in orders[seat]:
                hand = hands[other]
                if hand and not passed[other] and _VALUES[hand[0]] <= room:
                    after = other
                    break
                if other != seat:
                    passed[other] = True  # they say go
            if after < 0:
                net += weights[seat]  # nobody can lay: the go
        if after < 0:  # a new count, led by the first holder left of the last card
            state, passed = 0, [False] * seats
            after = next(other for other in orders[seat] if hands[other])
        seat = after
        rank = _policy(hands, seat, state, passed, start.allies[seat])


def _policy(
    hands: list[list[int]],
    seat: int,
    state: int,
    passed: list[bool],
    allies: tuple[float, ...],
) -> int:
    """The rank ``seat`` lays in a rollout: the most points now, less (or, for a partner,
    plus) the most the next seat to lay can score on it at once, by its side's weight;
    the higher card among equals."""
    after = -1
    for other in _OTHERS[len(hands)][seat]:
        if hands[other] and not passed[other]:
            after = other
            break
    answers = hands[after] if after >= 0 else []
    ally = allies[after] if after >= 0 else 0.0
    rank, best, previous = 0, -1e9, 0
    for held in hands[seat]:
        if held == previous:
            continue  # the same rank again: the same worth
        previous = held
        step = _step(state, held)
        if step < 0:
            break  # ranks ascend, and so do their values
        after_state, reply, last = step >> 4, 0, 0
        if after_state:
            for answer in answers:
                if answer == last:
                    continue
                last = answer
                scored = _step(after_state, answer)
                if scored < 0:
                    break
                if scored & 15 > reply:
                    reply = scored & 15
        worth = ((step & 15) + ally * reply) * 16 + _VALUES[held]
        if worth >= best:
            rank, best = held, worth
    return rank


_ORDERS = {
    seats: tuple(
        tuple((seat + step) % seats for step in range(1, seats + 1)) for seat in range(seats)
    )
    for seats in (2, 3, 4)
}
"""For each table and seat, every seat after it clockwise, itself last."""
_OTHERS = {seats: tuple(order[:-1] for order in orders) for seats, orders in _ORDERS.items()}
"""For each table and seat, every other seat after it clockwise."""


def _position_text(position: TablePosition) -> str:
    """What the mover sees, in card notation, the same in any process."""

    def cards(items: Iterable[Card]) -> str:
        return " ".join(map(str, items))

    return "|".join(
        (
            f"{position.mover}:{cards(position.held)}",
            " ".join(f"{seat}{card}" for seat, card in position.sequence),
            ";".join(cards(laid) for laid in position.laid),
            cards(position.unseen),
            ",".join(map(str, position.holding)),
            ",".join(map(str, sorted(position.passed))),
            ",".join(map(str, position.floors)),
            ",".join(map(str, position.scores)),
            f"{position.target}",
        )
    )
