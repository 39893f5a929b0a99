"""Choosing a card to lay in the play, at each level of computer player.

Terms (see also ``scoring.rules.pegging``): the *sequence* is the cards laid since
the count was last reset; a player who *passed* has said go in this sequence
and cannot lay again before the reset. The *unseen* cards are those the
player to move cannot see: not their own six, not the starter, not laid by
the opponent. The opponent's *floor*: each time they said go at count c,
every card they held was worth more than 31 - c, so the cards they still
hold are worth more than the highest such bound. The *net* of a line of
play is the mover's points minus the opponent's, to the end of the play.

Pegging depends on ranks only (pip values follow from ranks), so the
look-ahead works on ranks, keeps each position it searches as one int and
caches positions across decisions.
"""

from __future__ import annotations

import lzma
import random
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import comb, sqrt
from pathlib import Path

from scoring.players.crib_table import keep_weight
from scoring.rules.cards import SUITS, Card
from scoring.rules.events import WINNING_SCORE
from scoring.rules.pegging import MAX_COUNT, score_play

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
    opponent_laid: tuple[Card, ...] = ()
    """The cards the opponent has laid in this deal's play so far."""
    opponent_deals: bool = False
    """Whether the opponent is the dealer (and so chose their four with the crib theirs)."""

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


_VALUES = tuple(value(rank) for rank in range(14))


@lru_cache(maxsize=1 << 16)
def play_points(ranks: Ranks) -> int:
    """Points the last of ``ranks`` earns on the sequence before it, as ``score_play`` counts.

    Counted on the ranks alone (suits never score in the play); a sequence that
    could not be laid is handed to ``score_play``, which says what is wrong with it.
    """
    count = sum(_VALUES[rank] for rank in ranks if 0 < rank < len(_VALUES))
    if not ranks or count > MAX_COUNT or not all(_laid_ranks(ranks)):
        return _scored_as_cards(ranks)
    return tail_points(ranks[:-1], ranks[-1], count)


def _laid_ranks(ranks: Ranks) -> Iterator[bool]:
    seen: Counter[int] = Counter()
    for rank in ranks:
        seen[rank] += 1
        yield 0 < rank < len(_VALUES) and seen[rank] <= len(SUITS)


def _scored_as_cards(ranks: Ranks) -> int:
    seen: Counter[int] = Counter()
    cards = []
    for rank in ranks:  # any distinct suits will do
        cards.append(Card(rank, SUITS[seen[rank]]))
        seen[rank] += 1
    return score_play(cards).total


def tail_points(tail: Ranks, rank: int, count: int) -> int:
    """Points for laying ``rank`` after ``tail`` (the end of the sequence), making ``count``.

    The rules of ``scoring.rules.pegging`` on ranks: 2 for fifteen or thirty-one; 2, 6
    or 12 for the last two, three or four of a rank; for a run, the longest k >= 3
    such that the last k cards are k consecutive ranks (a repeated rank ends the look back).
    """
    points = 2 if count in (15, MAX_COUNT) else 0
    alike = 1
    while alike <= len(tail) and tail[-alike] == rank:
        alike += 1
    if alike > 1:  # a pair also ends every run
        return points + alike * (alike - 1)
    seen, low, high, longest = {rank}, rank, rank, 0
    for size, earlier in enumerate(reversed(tail), start=2):
        if earlier in seen:
            break
        seen.add(earlier)
        low, high = min(low, earlier), max(high, earlier)
        if size >= 3 and high - low == size - 1:
            longest = size
    return points + longest


def scoring_tail(sequence: Ranks) -> Ranks:
    """The last cards of ``sequence`` that a card laid after them can still score with.

    A pair looks back over the cards of the last rank, a run over the last cards
    while their ranks differ: so after a pair only the cards of that rank matter,
    otherwise the longest end of the sequence without a repeated rank. What
    came before matters only through the count, which is kept apart; so the
    search treats two positions with the same tail and count as one.
    """
    if not sequence:
        return ()
    alike = 1
    while alike < len(sequence) and sequence[-alike - 1] == sequence[-1]:
        alike += 1
    if alike > 1:
        return sequence[-alike:]
    seen: set[int] = set()
    for rank in reversed(sequence):
        if rank in seen:
            break
        seen.add(rank)
    return sequence[-len(seen) :]


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
    sequence = tuple(c.rank for c in position.sequence)
    held, passed = position.opponent_held, position.opponent_passed

    def merit(card: Card) -> float:
        return standard_merit(sequence, card.rank, pool, held, passed)

    best = max(merit(card) for card in legal)
    return rng.choice([card for card in legal if merit(card) == best])


def standard_merit(
    sequence: Ranks, rank: int, pool: Counter[int], opponent_held: int, opponent_passed: bool
) -> float:
    """The standard player's worth of laying ``rank``: points now, less the likely reply."""
    ranks = (*sequence, rank)
    merit = play_points(ranks) + value(rank) / 100
    if not opponent_passed and opponent_held:
        merit -= reply_risk(ranks, sum(map(value, ranks)), pool, opponent_held)
    return merit


def reply_risk(ranks: Ranks, count: int, pool: Counter[int], held: int) -> float:
    """Expected points the opponent can answer with, summed over their possible ranks.

    Each rank weighs by the chance that the opponent holds at least one card of
    it; summing (rather than taking their best) overstates, but equally for
    every card compared.
    """
    unseen = sum(pool.values())
    risk = 0.0
    for rank, copies in pool.items():
        if copies and count + value(rank) <= MAX_COUNT:
            holds = 1 - comb(unseen - copies, held) / comb(unseen, held)
            risk += holds * play_points((*ranks, rank))
    return risk


# -------------------------------------------------------------- expert
SAMPLES = 24
"""Opponent hands searched when they hold three or four cards."""
CANDIDATES = 10 * SAMPLES
"""Hands drawn at random before the ``SAMPLES`` are chosen by their weight."""


def expert_play(position: PegPosition, rng: random.Random) -> Card:
    """The card with the best weighted mean net over the hands the opponent may hold.

    The hands and their weights come from ``opponent_hands``. For each, the rest
    of the play is searched to the end, both sides laying their best card
    knowing all cards (minimax). A card that reaches 121 at once is always taken.
    The reckoning is ``expert_evaluation``'s; the expert computer draws with the
    position's own generator (``evaluate_play``), as the hint and the review do.
    """
    return expert_evaluation(position, rng).best


@dataclass(frozen=True)
class PlayEvaluation:
    """The expert's reckoning of a position in the play: each legal rank's mean net."""

    best: Card
    """The card the expert lays: one that reaches 121 at once, else the best mean net
    (the higher card among equals)."""
    means: dict[int, float]
    """Each legal rank's weighted mean net (the mover's points less the opponent's)."""
    hands: tuple[tuple[Ranks, float, Mapping[int, float]], ...]
    """Each opponent hand weighed: its ranks, its weight and each legal rank's net (with
    three or four at the table, each deal of the other seats' cards, their ranks one
    seat after another: ``scoring.players.tableplay``)."""
    exact: bool
    """Every hand the opponent may hold was weighed (none sampled)."""
    wins: frozenset[int]
    """The legal ranks that reach 121 at once."""

    def lost(self, card: Card) -> tuple[float, float]:
        """The points laying ``card`` gives away against ``best``, over the same hands,
        and the standard error of that difference (0 when every hand was weighed)."""
        best, chosen = self.best.rank, card.rank
        if best == chosen:
            return 0.0, 0.0
        total = sum(weight for _, weight, _ in self.hands)
        diffs = [(nets[best] - nets[chosen], weight) for _, weight, nets in self.hands]
        mean = sum(d * w for d, w in diffs) / total
        noise = 0.0
        if not self.exact and total > 1:
            spread = sum(w * (d - mean) ** 2 for d, w in diffs) / (total - 1)
            noise = sqrt(spread / total)
        return max(0.0, mean), noise


def expert_evaluation(position: PegPosition, rng: random.Random) -> PlayEvaluation:
    """Every legal rank weighed over the opponent hands ``opponent_hands`` draws with
    ``rng``: the one reckoning of a card, for the expert computer (``expert_play``, its
    own generator) and for the one judge (``evaluate_play``, a generator seeded by the
    position alone)."""
    legal = position.legal()
    mine, _ = position.scores
    wins = frozenset(
        card.rank for card in legal if mine + immediate_points(position, card) >= WINNING_SCORE
    )
    weighed = []
    totals: dict[int, float] = {}
    for hand, weight in opponent_hands(position, rng):
        nets = option_nets(position, hand)
        weighed.append((hand, weight, nets))
        for rank, net in nets.items():
            totals[rank] = totals.get(rank, 0.0) + weight * net
    whole = sum(weight for _, weight, _ in weighed)
    means = {rank: total / whole for rank, total in totals.items()}
    if wins:
        best = next(card for card in legal if card.rank in wins)
    else:
        rank = max(means, key=lambda r: (means[r], value(r)))
        best = next(card for card in legal if card.rank == rank)
    return PlayEvaluation(
        best=best,
        means=means,
        hands=tuple(weighed),
        exact=position.opponent_held <= 2,
        wins=wins,
    )


def evaluate_play(position: PegPosition) -> PlayEvaluation:
    """The one judge's reckoning of a card: ``expert_evaluation`` with the opponent hands
    drawn by a generator seeded from the position alone (what the mover sees), so that the
    same position is always reckoned the same. The expert computer lays its ``best``, the
    hint offers it and the review calls it best (docs/review.md)."""
    return expert_evaluation(position, random.Random(f"review:{_position_text(position)}"))


def _position_text(position: PegPosition) -> str:
    """What the mover sees, in card notation, the same in any process."""

    def cards(items: Iterable[Card]) -> str:
        return " ".join(map(str, items))

    return "|".join(
        (
            cards(position.held),
            cards(position.sequence),
            cards(position.opponent_laid),
            cards(position.unseen),
            f"{position.opponent_passed}:{position.opponent_held}:{position.opponent_floor}",
            f"{position.scores[0]}:{position.scores[1]}:{position.opponent_deals}",
        )
    )


def opponent_hands(position: PegPosition, rng: random.Random) -> list[tuple[Ranks, float]]:
    """Hands the opponent may hold, as sorted ranks, with their weights.

    A hand is as likely as the cards allow (every unseen card above their
    floor is equally likely to be in it) times how likely a sensible player is
    to have kept those four cards, the ones already laid included
    (``scoring.players.crib_table.keep_weight``): someone who kept 5-5-J-Q is more
    likely than someone who kept 2-7-9-K. With two cards or fewer left every
    hand is weighed; otherwise ``CANDIDATES`` are drawn and ``SAMPLES`` of
    them chosen by weight.
    """
    pool = position.opponent_pool()
    held = position.opponent_held
    laid = tuple(card.rank for card in position.opponent_laid)

    def weight(hand: Ranks) -> float:
        return keep_weight((*laid, *hand), dealer=position.opponent_deals)

    if held == 0:
        return [((), 1.0)]
    if held <= 2:
        hands = Counter[Ranks]()
        for first in range(len(pool)):
            if held == 1:
                hands[(pool[first].rank,)] += 1
                continue
            for second in range(first + 1, len(pool)):
                hands[tuple(sorted((pool[first].rank, pool[second].rank)))] += 1
        return [(hand, ways * weight(hand)) for hand, ways in sorted(hands.items())]
    ranks = [card.rank for card in pool]  # drawn as the cards would be: the same draws
    drawn = [tuple(sorted(rng.sample(ranks, held))) for _ in range(CANDIDATES)]
    weights = {hand: weight(hand) for hand in set(drawn)}
    chosen = Counter(rng.choices(drawn, [weights[hand] for hand in drawn], k=SAMPLES))
    return [(hand, float(times)) for hand, times in sorted(chosen.items())]


def option_nets(position: PegPosition, opponent: Ranks) -> dict[int, int]:
    """The net after laying each legal rank, the opponent's hand known."""
    held = tuple(sorted(card.rank for card in position.held))
    tail = scoring_tail(tuple(card.rank for card in position.sequence))
    return _SEARCH.options(held, opponent, tail, position.count, position.opponent_passed)


# ------------------------------------------------- the search's positions, as ints
# A position of the search is one int (see ``_Search._net``), so that the cache
# hashes and compares it at once. Its parts:
# - a *hand* is its index in ``_MOVES`` (found by ``_hand``; 0 is the empty hand);
# - a *sequence state* is the sequence's ``live_tail`` as ranks, 4 bits each with
#   the last card lowest, above the count in 5 bits; 0 is the empty sequence.
_STEPS: dict[int, int] = {}
"""``state << 4 | rank`` -> ``the state after << 4 | points``, for the ranks that fit.

Laying a card that makes 31 leads to state 0; no other card does. Emptied past
``_STEPS_KEPT`` steps (about 95 bytes each); 120 games meet some 125,000."""
_STEPS_KEPT = 1 << 18


def _hand_tables() -> tuple[dict[Ranks, int], list[tuple[tuple[int, int], ...]]]:
    """Every hand of four cards or fewer (2,380: a position keeps one in 12 bits) and its moves.

    The moves of a hand are (rank, the hand less one card of it) for each distinct
    rank, ascending. Built whole at import (some 6 ms) and never changed, so
    that threads sharing the search never see them half made.
    """
    ranks = range(1, len(_VALUES))
    hands = [hand for size in range(5) for hand in combinations_with_replacement(ranks, size)]
    index = {hand: number for number, hand in enumerate(hands)}
    moves = [
        tuple(
            (rank, index[hand[:at] + hand[at + 1 :]])
            for at, rank in enumerate(hand)
            if rank not in hand[:at]
        )
        for hand in hands
    ]
    return index, moves


_HAND_INDEX, _MOVES = _hand_tables()


def _hand(ranks: Ranks) -> int:
    try:
        return _HAND_INDEX[tuple(sorted(ranks))]
    except KeyError:
        raise ValueError(f"not a hand in the play (four ranks or fewer): {ranks}") from None


def live_tail(tail: Ranks, count: int) -> Ranks:
    """The end of a ``scoring_tail`` that cards still to come can score with, at ``count``.

    A card further back could score again only in a run through every card after
    it, and the ranks that run lacks are worth more than the 31 - count left to
    lay. No fifth card of a rank can come, so four of a kind counts as one card.
    Positions that differ only in what their live tails leave out have one net.
    """
    if len(tail) > 1 and tail[-1] == tail[-2]:
        return tail[-1:] if len(tail) == len(SUITS) else tail
    room = MAX_COUNT - count
    for start in range(len(tail) - 1):
        if _can_run(tail[start:], room):
            return tail[start:]
    return tail[-1:]


def _can_run(ranks: Ranks, room: int) -> bool:
    """Whether cards worth ``room`` or less can complete ``ranks`` (all different) into a run."""
    low, high = min(ranks), max(ranks)
    lacking = sum(_VALUES[rank] for rank in range(low + 1, high) if rank not in ranks)
    if high - low == 1:  # two ranks in a row want a third at one end: the lower is cheaper
        lacking += _VALUES[low - 1] if low > 1 else _VALUES[high + 1]
    return lacking <= room


def _state(tail: Ranks, count: int) -> int:
    """The sequence state of a ``live_tail`` at ``count``."""
    state = 0
    for rank in tail:
        state = state << 4 | rank
    return state << 5 | count


@lru_cache(maxsize=1 << 8)  # a decision searches the same sequence for each hand it samples
def _sequence_state(sequence: Ranks, count: int) -> int:
    return _state(live_tail(scoring_tail(sequence), count), count)


def _step(state: int, rank: int) -> int:
    """Laying ``rank`` in sequence ``state``, as ``_STEPS`` holds it: -1 for a rank past 31."""
    key = state << 4 | rank
    found = _STEPS.get(key)
    if found is None:
        found = _new_step(state, rank)
        if len(_STEPS) >= _STEPS_KEPT:
            _STEPS.clear()
        _STEPS[key] = found
    return found


def _new_step(state: int, rank: int) -> int:
    count = (state & 31) + _VALUES[rank]
    if count > MAX_COUNT:
        return -1
    ranks = state >> 5
    tail: list[int] = []
    while ranks:
        tail.insert(0, ranks & 15)
        ranks >>= 4
    points = tail_points(tuple(tail), rank, count)
    if count == MAX_COUNT:
        return points
    after = live_tail(scoring_tail((*tail, rank)), count)
    return _state(after, count) << 4 | points


class _Search:
    """A perfect-information search of the rest of the play, with its positions cached.

    A position is both hands, the sequence state and whether the other said go;
    its net depends on nothing else, so one cache serves every decision (and
    every request a worker answers); it is emptied when it grows past ``limit``
    positions (about 70 bytes each).
    """

    def __init__(self, limit: int = 1 << 18) -> None:
        self.memo: dict[int, int] = {}
        self._net = _searcher(self.memo, limit)

    def options(
        self, mover: Ranks, other: Ranks, seq: Ranks, count: int, passed: bool
    ) -> dict[int, int]:
        """Net for the mover of laying each distinct legal rank; ``passed``: the other said go.

        ``seq`` is the sequence, or its ``scoring_tail``. The lead of the play (four
        cards each, nothing laid) is looked up in the lead table (``lead_nets``).
        """
        if not seq and not count and not passed and len(mover) == len(other) == 4:
            nets = lead_nets(mover, other)
            if nets is not None:
                return nets
        return self.searched(mover, other, seq, count, passed)

    def searched(
        self, mover: Ranks, other: Ranks, seq: Ranks, count: int, passed: bool
    ) -> dict[int, int]:
        """``options`` found by the search alone."""
        hand, others, state = _hand(mover), _hand(other), _sequence_state(seq, count)
        nets = {}
        for rank, rest in _MOVES[hand]:
            step = _step(state, rank)
            if step < 0:
                break
            nets[rank] = self._after(step, rest, others, passed)
        return nets

    def net(self, mover: Ranks, other: Ranks, seq: Ranks, count: int, passed: bool) -> int:
        """The mover's best net from here to the end of the play, both playing perfectly."""
        return self._net(_hand(mover), _hand(other), _sequence_state(seq, count), passed)

    def _after(self, step: int, rest: int, other: int, passed: bool) -> int:
        """The mover's net from laying a card (``step``), holding ``rest`` after it."""
        after, points = step >> 4, step & 15
        if not (rest or other):  # the last card of the play: 1 for it, unless it made 31
            return points + (after != 0)
        if not after:  # 31: the other player leads the next sequence
            return points - self._net(other, rest, 0, False)
        if passed:
            return points + self._net(rest, other, after, True)
        return points - self._net(other, rest, after, False)


def _searcher(memo: dict[int, int], limit: int) -> Callable[[int, int, int, bool], int]:
    """The search's recursion: the net for the mover of position (mover, other, state, passed).

    One closure over its tables, with ``_Search._after`` and the case of a mover
    who cannot lay written out in it: it runs some 10,000 times for a decision at
    the start of the play, and a closure's names are found a little faster than an
    object's attributes or a module's globals (the expert's decisions 3% faster).
    """
    remembered, stepped, moves = memo.get, _STEPS.get, _MOVES

    def net(mover: int, other: int, state: int, passed: bool) -> int:
        key = state << 25 | mover << 13 | other << 1 | passed  # a hand's index takes 12 bits
        best = remembered(key)
        if best is not None:
            return best
        steps = state << 4
        for rank, rest in moves[mover]:
            step = stepped(steps | rank)
            if step is None:
                step = _step(state, rank)
            if step < 0:  # ranks ascend, and so do their values
                break
            after, points = step >> 4, step & 15
            if not (rest or other):  # the last card of the play: 1 for it, unless it made 31
                laid = points + (after != 0)
            elif not after:  # 31: the other player leads the next sequence
                laid = points - net(other, rest, 0, False)
            elif passed:
                laid = points + net(rest, other, after, True)
            else:
                laid = points - net(other, rest, after, False)
            if best is None or laid > best:
                best = laid
        if best is None:  # no card fits; state 0 is no sequence at all
            if not passed:  # the mover says go (or has no cards): the other lays on
                best = 0 if not state and not other else -net(other, mover, state, True)
            elif not state:
                best = 0
            elif not mover and not other:  # neither can lay: the last card of the play
                best = 1
            else:  # neither can lay: the mover laid the sequence's last card and gets 1
                best = 1 - net(other, mover, 0, False)
        if len(memo) >= limit:
            memo.clear()
        memo[key] = best
        return best

    return net


_SEARCH = _Search()


# ------------------------------------------------- the lead, looked up
# The first card of the play is the search's largest question (four cards each, some
# 4,000 positions over the 20-odd hands an expert weighs, 10-50 ms) and asks nothing
# but the two hands' ranks: so its answer for every pair of fours is worked out once
# (``lead_row``, by ``scoring.tools.table_builder``) and shipped.
LEAD_FILENAME = "lead_nets.xz"
LEAD_HANDS: tuple[Ranks, ...] = tuple(combinations_with_replacement(range(1, len(_VALUES)), 4))
"""The 1,820 fours of ranks, in the table's order (as in ``_MOVES``, whose fours they end)."""
NO_LEAD = -128
"""The table's entry for two fours that hold some rank more than four times together."""
_FIRST_FOUR = len(_MOVES) - len(LEAD_HANDS)


def lead_row(mover: Ranks) -> bytes:
    """The table's row for ``mover`` (four ranks, sorted): for each four the other may hold,
    the net of laying each of the mover's distinct ranks (ascending; four signed bytes,
    unused ones 0), found by the search."""
    search = _Search(limit=1 << 23)
    row = array("b")
    held = Counter(mover)
    for other in LEAD_HANDS:
        if any(held[rank] + times > len(SUITS) for rank, times in Counter(other).items()):
            row.extend([NO_LEAD] * 4)
            continue
        nets = list(search.searched(mover, other, (), 0, False).values())
        row.extend(nets + [0] * (4 - len(nets)))
    return row.tobytes()


@cache
def lead_table() -> array[int] | None:
    """The shipped lead table (``lead_row`` of each of ``LEAD_HANDS``), None if missing.

    Some 13 MB; a server loads it at start (config/wsgi.py), other processes when an
    expert first leads.
    """
    path = Path(__file__).parent / "data" / LEAD_FILENAME
    if not path.exists():
        return None
    table = array("b")
    table.frombytes(lzma.decompress(path.read_bytes()))
    if len(table) != len(LEAD_HANDS) ** 2 * 4:
        raise ValueError(f"{path} is not a lead table: rebuild it (scoring.tools.table_builder)")
    return table


def lead_nets(mover: Ranks, other: Ranks) -> dict[int, int] | None:
    """``_Search.options`` at the lead, from the lead table (None without one)."""
    table = lead_table()
    if table is None:
        return None
    hand = _hand(mover)
    at = ((hand - _FIRST_FOUR) * len(LEAD_HANDS) + _hand(other) - _FIRST_FOUR) * 4
    if table[at] == NO_LEAD:
        raise ValueError(f"no deal holds {mover} and {other}: a rank more than four times")
    return {rank: table[at + slot] for slot, (rank, _rest) in enumerate(_MOVES[hand])}


# ------------------------------------------------- the play, simulated for tables
def simulate_play(pone: Ranks, dealer: Ranks) -> int:
    """The pone's net in the play of two known hands, both laying as a standard player.

    Each side reckons the other's cards from the full deck less the cards in
    front of it (its own and the sequence), so a position's choice can be
    cached; ``scoring.players.crib_table`` builds the hand table from this.
    """
    hands, points = [list(pone), list(dealer)], [0, 0]
    sequence: Ranks = ()
    count, turn, passed = 0, 0, [False, False]
    while hands[0] or hands[1]:
        other = 1 - turn
        rank = _table_choice(tuple(sorted(hands[turn])), sequence, len(hands[other]), passed[other])
        hands[turn].remove(rank)
        sequence, count = (*sequence, rank), count + value(rank)
        points[turn] += play_points(sequence)
        if count == MAX_COUNT or not (hands[0] or hands[1]):
            if count < MAX_COUNT:
                points[turn] += 1  # the last card of the deal
            sequence, count, passed = (), 0, [False, False]
            turn = other if hands[other] else turn
        elif not passed[other] and _can_lay(hands[other], count):
            turn = other
        else:
            passed[other] = True
            if not _can_lay(hands[turn], count):  # neither can lay: a go for the last card
                points[turn] += 1
                sequence, count, passed = (), 0, [False, False]
                turn = other if hands[other] else turn
    return points[0] - points[1]


def _can_lay(hand: list[int], count: int) -> bool:
    return any(count + value(rank) <= MAX_COUNT for rank in hand)


@lru_cache(maxsize=1 << 18)
def _table_choice(held: Ranks, sequence: Ranks, opponent_held: int, opponent_passed: bool) -> int:
    """The standard player's rank, reckoning the unseen cards from the full deck."""
    pool = Counter(dict.fromkeys(range(1, 14), 4))
    pool.subtract((*held, *sequence))
    count = sum(map(value, sequence))
    legal = [rank for rank in dict.fromkeys(held) if count + value(rank) <= MAX_COUNT]
    return max(
        legal,
        key=lambda rank: standard_merit(sequence, rank, pool, opponent_held, opponent_passed),
    )
