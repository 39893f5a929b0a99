"""The show: counting a hand or crib of four cards with the starter.

Terms: *fifteen* (cards whose pip values sum to 15, 2 each), *pair* (two of a
rank 2, three - a *pair royal* - 6, four - a *double pair royal* - 12), *run*
(three or more consecutive ranks, 1 a card, counted at its full length only;
each distinct run counts), *flush* (four hand cards of one suit 4, with the
starter 5; a crib only with all five), *nobs* (the jack of the starter's suit
in hand or crib, 1; the starter itself never is). docs/rules.md §2.6.

Fifteens, pairs and runs depend on the five ranks alone, so their points are
looked up in a table over every multiset of five ranks (6,175 of them, built at
import); flush and nobs are two quick checks on suits. That keeps
``score_hand`` to a few microseconds. The itemised breakdown a player reads
(``HandScore.items``) is worked out separately, the slow way, when first asked
for; tests check that both always agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from itertools import combinations, groupby

from scoring.rules.cards import DECK, JACK, SUITS, Card
from scoring.rules.items import ScoreItem, ScoreKind
from scoring.rules.speech import say_count

_DECK_SET = frozenset(DECK)
_NOBS_JACK = {suit: Card(JACK, suit) for suit in SUITS}


class InvalidHandError(ValueError):
    """Not four different cards and a starter that is not among them."""

    def __init__(self, hand: Iterable[Card], starter: Card) -> None:
        super().__init__(
            "a hand is four different cards and a starter that is not one of them, "
            f"got hand {describe_cards(hand) or 'with no cards'} and starter "
            f"{describe_cards([starter])}"
        )


def describe_cards(cards: Iterable[Card]) -> str:
    """``format_cards`` for an error message: a card outside the deck as its fields."""
    return " ".join(str(card) if card in _DECK_SET else str(tuple(card)) for card in cards)


@dataclass(frozen=True)
class HandScore:
    """The count of one hand (or, with ``crib=True``, the crib) with the starter.

    ``total`` is computed at once; ``items`` (the breakdown) on first use.
    ``str()`` is the count as an English player says it; ``say("sv")`` in Swedish.
    """

    hand: tuple[Card, ...]
    starter: Card
    crib: bool = False
    total: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand", tuple(self.hand))
        object.__setattr__(self, "total", hand_total(self.hand, self.starter, crib=self.crib))

    @cached_property
    def items(self) -> tuple[ScoreItem, ...]:
        """Fifteens, pairs, runs, flush and nobs, in the order they are counted aloud."""
        cards = (*self.hand, self.starter)
        return (
            *_fifteen_items(cards),
            *_pair_items(cards),
            *_run_items(cards),
            *_flush_items(self.hand, self.starter, crib=self.crib),
            *_nobs_items(self.hand, self.starter),
        )

    def say(self, language: str = "en") -> str:
        """The count aloud: ``"fifteen two, fifteen four and a pair is six"``.

        ``language`` is ``"en"`` or ``"sv"`` (``"femton två, femton fyra och ett
        par blir sex"``).
        """
        return say_count(self.items, language)

    def __str__(self) -> str:
        return self.say()


def score_hand(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> HandScore:
    """Count four cards with the starter; ``crib=True`` uses the crib's flush rule.

    Raises ``InvalidHandError`` (a ``ValueError``) unless ``hand`` is four
    different cards and ``starter`` is a fifth.
    """
    return HandScore(tuple(hand), starter, crib)


@lru_cache(maxsize=1 << 10)
def shown_score(hand: tuple[Card, ...], starter: Card, crib: bool) -> HandScore:
    """``score_hand`` for a hand shown in a game, the last 1,024 remembered.

    A saved game is replayed from its decisions whenever it is loaded, and so
    its shows are counted again, breakdown and all: a process that loads one
    game many times counts each of its shows once.
    """
    return score_hand(hand, starter, crib=crib)


def hand_total(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The points of ``score_hand(hand, starter, crib=crib)``, without the breakdown."""
    cards = {*hand, starter}
    if len(hand) != 4 or len(cards) != 5 or not cards <= _DECK_SET:
        raise InvalidHandError(hand, starter)
    first, second, third, fourth = hand
    points = _RANK_POINTS[
        _RANK_KEY[first.rank]
        + _RANK_KEY[second.rank]
        + _RANK_KEY[third.rank]
        + _RANK_KEY[fourth.rank]
        + _RANK_KEY[starter.rank]
    ]
    suit = first.suit
    if second.suit == suit and third.suit == suit and fourth.suit == suit:
        if starter.suit == suit:
            points += 5
        elif not crib:
            points += 4
    if _NOBS_JACK[starter.suit] in hand:
        points += 1
    return points


def rank_points(ranks: Iterable[int]) -> int:
    """Points for fifteens, pairs and runs among five ranks (1-13, at most four alike)."""
    return _RANK_POINTS[sum(_RANK_KEY[rank] for rank in ranks)]


# The table key of five ranks is the sum of one bit field per rank: each rank's
# count (0-4) fits in three bits, so the key is the same in any card order and
# needs no sorting.
_RANK_KEY = (0, *(1 << 3 * (rank - 1) for rank in range(1, 14)))


def _build_rank_points() -> dict[int, int]:
    """The fifteen, pair and run points of every multiset of five ranks, by key.

    Multisets grow one rank at a time in non-decreasing order, carrying the pip
    sums of all their subsets, so counting the fifteens of each costs one step.
    """
    table: dict[int, int] = {}

    def grow(ranks: tuple[int, ...], subset_sums: list[int]) -> None:
        if len(ranks) == 5:
            key = sum(_RANK_KEY[rank] for rank in ranks)
            table[key] = 2 * subset_sums.count(15) + _pair_and_run_points(ranks)
            return
        for rank in range(ranks[-1] if ranks else 1, 14):
            if ranks.count(rank) < 4:
                value = min(rank, 10)
                grow((*ranks, rank), subset_sums + [total + value for total in subset_sums])

    grow((), [0])
    return table


def _pair_and_run_points(ranks: tuple[int, ...]) -> int:
    """Pairs, and runs for sorted ``ranks``: a stretch of three or more consecutive
    ranks scores its length once per way of taking one card of each of its ranks
    (a double run of three is 2 x 3). Five cards have room for one such stretch.
    """
    pair_points = run_points = 0
    length, ways, previous = 0, 1, 0
    for rank, group in groupby(ranks):
        alike = len(list(group))
        pair_points += alike * (alike - 1)
        length, ways = (length + 1, ways * alike) if rank == previous + 1 else (1, alike)
        if length >= 3:
            run_points = length * ways
        previous = rank
    return pair_points + run_points


_RANK_POINTS = _build_rank_points()


def _fifteen_items(cards: tuple[Card, ...]) -> list[ScoreItem]:
    """Every combination of two or more cards worth 15, in ``combinations`` order.

    The value of each of the 2^n subsets is built from a smaller one (the subset
    less its lowest card), so each sum is one addition: a shown hand is scored on
    every replay of a saved game, and this was the most of it.
    """
    sums = [0] * (1 << len(cards))
    for mask in range(1, len(sums)):
        lowest = mask & -mask
        sums[mask] = sums[mask ^ lowest] + cards[lowest.bit_length() - 1].value
    return [
        ScoreItem(ScoreKind.FIFTEEN, tuple(cards[index] for index in combo), 2)
        for combo, mask in _subsets(len(cards))
        if sums[mask] == 15
    ]


@cache
def _subsets(size: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The index combinations of two or more of ``size`` cards, with their bit masks."""
    return tuple(
        (combo, sum(1 << index for index in combo))
        for length in range(2, size + 1)
        for combo in combinations(range(size), length)
    )


def _pair_items(cards: tuple[Card, ...]) -> list[ScoreItem]:
    items = []
    for rank in dict.fromkeys(card.rank for card in cards):
        alike = tuple(card for card in cards if card.rank == rank)
        if len(alike) >= 2:
            items.append(ScoreItem(ScoreKind.PAIR, alike, len(alike) * (len(alike) - 1)))
    return items


def _run_items(cards: tuple[Card, ...]) -> list[ScoreItem]:
    in_rank_order = sorted(cards)
    for size in (5, 4, 3):
        runs = [
            ScoreItem(ScoreKind.RUN, combo, size)
            for combo in combinations(in_rank_order, size)
            if all(
                later.rank == earlier.rank + 1
                for earlier, later in zip(combo, combo[1:], strict=False)
            )
        ]
        if runs:  # a longer run hides the shorter ones inside it
            return runs
    return []


def _flush_items(hand: tuple[Card, ...], starter: Card, *, crib: bool) -> list[ScoreItem]:
    if len({card.suit for card in hand}) != 1:
        return []
    if starter.suit == hand[0].suit:
        return [ScoreItem(ScoreKind.FLUSH, (*hand, starter), 5)]
    return [] if crib else [ScoreItem(ScoreKind.FLUSH, hand, 4)]


def _nobs_items(hand: tuple[Card, ...], starter: Card) -> list[ScoreItem]:
    return [
        ScoreItem(ScoreKind.NOBS, (card,), 1)
        for card in hand
        if card.rank == JACK and card.suit == starter.suit
    ]
