"""How often each show total occurs over all 12,994,800 hands and starters.

``scoring.tools.distribution`` counts by rank in closed form. Here it is checked
against the published table for the hand, and against a brute-force count of
every one of the 12,994,800 combinations by an independent numpy scorer (which
is itself checked against ``score_hand`` on a random sample), for both the hand
and the crib.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from scoring.rules.cards import DECK, parse_cards
from scoring.rules.hand import score_hand
from scoring.tools.distribution import COMBINATIONS, crib_distribution, hand_distribution

# The frequency of each hand total over all 52C4 x 48 hands and starters, as
# published (e.g. the cribbage hand-score tables in the literature and on
# Wikipedia's "Cribbage statistics"); 19, 25, 26 and 27 cannot be made.
PUBLISHED_HAND = {
    0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508,
    6: 1_800_268, 7: 751_324, 8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680,
    12: 317_340, 13: 19_656, 14: 90_100, 15: 9_168, 16: 58_248, 17: 11_196,
    18: 2_708, 19: 0, 20: 8_068, 21: 2_496, 22: 444, 23: 356, 24: 3_680,
    25: 0, 26: 0, 27: 0, 28: 76, 29: 4,
}  # fmt: skip
HAND_MEAN = 4.769152
CRIB_MEAN = 4.734819
# A crib loses the four-card flushes whose starter is of another suit:
# 4 suits x 13C4 hands x 39 starters, each 4 points fewer.
FOUR_CARD_FLUSHES = 4 * comb(13, 4) * 39


def mean(distribution: dict[int, int]) -> float:
    return sum(score * count for score, count in distribution.items()) / COMBINATIONS


@pytest.fixture(scope="module")
def hand() -> dict[int, int]:
    return hand_distribution()


@pytest.fixture(scope="module")
def crib() -> dict[int, int]:
    return crib_distribution()


def test_the_hand_distribution_is_the_published_one(hand: dict[int, int]) -> None:
    assert hand == PUBLISHED_HAND


@pytest.mark.parametrize("column", ["hand", "crib"])
def test_every_combination_is_counted_once_and_the_impossible_never(
    column: str, request: pytest.FixtureRequest
) -> None:
    distribution: dict[int, int] = request.getfixturevalue(column)
    assert COMBINATIONS == 12_994_800 == comb(52, 4) * 48
    assert sorted(distribution) == list(range(30))
    assert sum(distribution.values()) == COMBINATIONS
    assert [distribution[score] for score in (19, 25, 26, 27)] == [0, 0, 0, 0]
    assert all(distribution[score] > 0 for score in range(30) if score not in (19, 25, 26, 27))
    # 29: 5-5-5-J with the five of the jack's suit turned, one for each suit (4).
    # 28: four fives and a ten-card starter (16); three fives and a 10, Q or K with
    # the fourth five turned (12 x 4); three fives and a jack with the fourth five
    # of another suit turned (4 x 4 - 4).
    assert distribution[29] == 4
    assert distribution[28] == 16 + 12 * 4 + (4 * 4 - 4) == 76


def test_the_mean_hand_and_crib(hand: dict[int, int], crib: dict[int, int]) -> None:
    assert round(mean(hand), 6) == HAND_MEAN
    assert round(mean(crib), 6) == CRIB_MEAN
    assert sum(hand.values()) * (mean(hand) - mean(crib)) == pytest.approx(4 * FOUR_CARD_FLUSHES)


def test_the_crib_differs_from_the_hand_by_the_four_card_flushes_only(
    hand: dict[int, int], crib: dict[int, int]
) -> None:
    moved = [hand[score] - crib[score] for score in range(30)]
    assert sum(moved) == 0
    assert sum(count for count in moved if count > 0) <= FOUR_CARD_FLUSHES
    assert all(hand[score] == crib[score] for score in range(25, 30))


# ------------------------------------------------------------ the brute force

_PAIRS = list(combinations(range(5), 2))
_SUBSETS = np.array(
    [
        [int(i in subset) for i in range(5)]
        for k in range(2, 6)
        for subset in combinations(range(5), k)
    ],
    dtype=np.int16,
).T
_HANDS = np.array(list(combinations(range(52), 4)), dtype=np.int16)


def brute_scores(
    rows: npt.NDArray[np.int16],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The crib total of each row (four cards, then the starter, as ``DECK`` positions),
    and whether the row has a four-card flush the starter does not match.

    Written from docs/rules.md §2.6 without the engine's shortcuts: every subset summing
    to 15, every pair, and runs as subsets of distinct ranks spanning their size.
    """
    ranks = rows // 4 + 1
    suits = rows % 4
    points = 2 * (np.minimum(ranks, 10) @ _SUBSETS == 15).sum(axis=1, dtype=np.int64)
    same = {pair: ranks[:, pair[0]] == ranks[:, pair[1]] for pair in _PAIRS}
    for alike in same.values():
        points += 2 * alike
    runs = np.zeros(len(rows), dtype=np.int64)
    for size in (5, 4, 3):
        found = np.zeros(len(rows), dtype=np.int64)
        for subset in combinations(range(5), size):
            chosen = ranks[:, subset]
            distinct = ~np.any([same[pair] for pair in combinations(subset, 2)], axis=0)
            found += distinct & (chosen.max(axis=1) - chosen.min(axis=1) == size - 1)
        runs = np.where(runs == 0, size * found, runs)  # only the longest runs count
    points += runs
    hand_flush = (suits[:, 1:4] == suits[:, :1]).all(axis=1)
    five_flush = hand_flush & (suits[:, 4] == suits[:, 0])
    points += 5 * five_flush
    points += ((ranks[:, :4] == 11) & (suits[:, :4] == suits[:, 4:5])).any(axis=1)
    return points, hand_flush & ~five_flush


def rows_with_starter(starter: int) -> npt.NDArray[np.int16]:
    hands = _HANDS[np.not_equal(_HANDS, starter).all(axis=1)]
    return np.column_stack([hands, np.full(len(hands), starter, dtype=np.int16)])


def test_the_brute_force_scorer_agrees_with_score_hand() -> None:
    rng = random.Random(2024)
    picked = [rng.sample(DECK, 5) for _ in range(3000)]
    picked += [
        parse_cards(cards) for cards in ("5C 5D 5H JS 5S", "2S 4S 8S QS KH", "4C 4D 5H 5S 6C")
    ]
    rows = np.array([[card.index for card in cards] for cards in picked], dtype=np.int16)
    crib_points, four_flush = brute_scores(rows)
    for cards, crib_total, flush in zip(picked, crib_points, four_flush, strict=True):
        *four, starter = cards
        assert score_hand(four, starter, crib=True).total == crib_total
        assert score_hand(four, starter).total == crib_total + 4 * flush


def test_every_combination_counted_one_by_one(hand: dict[int, int], crib: dict[int, int]) -> None:
    hand_counts = np.zeros(30, dtype=np.int64)
    crib_counts = np.zeros(30, dtype=np.int64)
    for starter in range(52):
        crib_points, four_flush = brute_scores(rows_with_starter(starter))
        crib_counts += np.bincount(crib_points, minlength=30)
        hand_counts += np.bincount(crib_points + 4 * four_flush, minlength=30)
    assert hand_counts.tolist() == [hand[score] for score in range(30)]
    assert crib_counts.tolist() == [crib[score] for score in range(30)]
