"""Counting many shows at once, with numpy, for the computer players.

``score_many`` gives the same totals as ``scoring.rules.hand.score_hand`` (a test
checks them against each other) but for a whole array of hands in one call:
the discard analysis counts 15 kept hands x 46 starters per decision, and the
crib table build counts about ten million cribs. A *row* is five card indices
(``Card.index``, 0-51): four hand (or crib) cards, then the starter.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

import numpy as np
import numpy.typing as npt

from scoring.rules.cards import Card

IntArray = npt.NDArray[np.int64]

# Every subset of the five cards with two or more members, as 0/1 columns,
# so that one matrix product gives the pip sum of each possible fifteen.
_SUBSETS = np.array(
    [
        [1 if i in combo else 0 for i in range(5)]
        for size in range(2, 6)
        for combo in combinations(range(5), size)
    ],
    dtype=np.int64,
).T
_RANKS = np.arange(1, 14, dtype=np.int64)
_JACK = 11


def rows_of(hands: Iterable[tuple[Iterable[Card], Card]]) -> IntArray:
    """Turn (four cards, starter) pairs into an ``(n, 5)`` array of card indices."""
    return np.array(
        [[card.index for card in hand] + [starter.index] for hand, starter in hands],
        dtype=np.int64,
    ).reshape(-1, 5)


def score_many(rows: IntArray, *, crib: bool = False) -> IntArray:
    """The show total of every row of an ``(n, 5)`` array of card indices."""
    ranks = rows // 4 + 1
    suits = rows % 4
    counts: IntArray = (ranks[:, :, None] == _RANKS).sum(axis=1)
    pairs: IntArray = (counts * (counts - 1)).sum(axis=1)
    return (
        _fifteens(np.minimum(ranks, 10))
        + pairs
        + _runs(counts)
        + _flush(suits, crib=crib)
        + _nobs(ranks, suits)
    )


def _fifteens(values: IntArray) -> IntArray:
    fifteens: IntArray = (values @ _SUBSETS == 15).sum(axis=1)
    return 2 * fifteens


def _runs(counts: IntArray) -> IntArray:
    """Runs with their multiplicity (a double run of three is 6 here, pairs apart).

    The product of the rank counts over a window of consecutive ranks is the
    number of distinct runs on it; only the longest length present counts, and
    five cards leave room for one window of that length.
    """
    three = counts[:, :-2] * counts[:, 1:-1] * counts[:, 2:]
    four = three[:, :-1] * counts[:, 3:]
    five = four[:, :-1] * counts[:, 4:]
    runs3, runs4, runs5 = three.sum(axis=1), four.sum(axis=1), five.sum(axis=1)
    points: IntArray = np.where(runs5 > 0, 5 * runs5, np.where(runs4 > 0, 4 * runs4, 3 * runs3))
    return points


def _flush(suits: IntArray, *, crib: bool) -> IntArray:
    hand_flush = (suits[:, 1:4] == suits[:, :1]).all(axis=1)
    with_starter = suits[:, 4] == suits[:, 0]
    four_only = 0 if crib else 4
    points: IntArray = np.where(hand_flush, np.where(with_starter, 5, four_only), 0)
    return points


def _nobs(ranks: IntArray, suits: IntArray) -> IntArray:
    jack_of_starter_suit = (ranks[:, :4] == _JACK) & (suits[:, :4] == suits[:, 4:5])
    nobs: IntArray = jack_of_starter_suit.any(axis=1).astype(np.int64)
    return nobs
