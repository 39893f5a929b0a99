"""How often each show total occurs, over every hand and starter.

Terms: a *combination* is four hand cards and a starter that is not one of them
(52C4 x 48 = 12,994,800); its *score* is ``hand_total`` (or with ``crib=True``
the crib's flush rule). The *distribution* maps each score 0-29 to the number of
combinations that make it; 19, 25, 26 and 27 never occur.

Rather than counting twelve million combinations one by one, this counts by
rank: fifteens, pairs and runs depend only on the multiset of five ranks (6,175
of them) and on nothing else, so for each multiset and each choice of the
starter's rank it is enough to know how many suit assignments there are and how
many of them give a flush or nobs. Those numbers come in closed form
(``_suit_outcomes``); the whole table takes a fraction of a second.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement
from math import comb, prod

from scoring.rules.cards import JACK
from scoring.rules.hand import rank_points

MAX_SCORE = 29
COMBINATIONS = comb(52, 4) * 48


def hand_distribution() -> dict[int, int]:
    """Number of (hand, starter) combinations with each total 0-29, for a hand."""
    return _distribution(crib=False)


def crib_distribution() -> dict[int, int]:
    """The same for a crib, which scores a flush only with all five cards of a suit."""
    return _distribution(crib=True)


def _distribution(*, crib: bool) -> dict[int, int]:
    counts = [0] * (MAX_SCORE + 1)
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if ranks[0] == ranks[4]:
            continue  # five of a rank do not exist
        base = rank_points(ranks)
        of_rank = Counter(ranks)
        for starter_rank in of_rank:
            for extra, ways in _suit_outcomes(of_rank, starter_rank, crib=crib):
                if ways:
                    counts[base + extra] += ways
    return dict(enumerate(counts))


def _suit_outcomes(
    of_rank: Counter[int], starter_rank: int, *, crib: bool
) -> Iterator[tuple[int, int]]:
    """(flush and nobs points, number of combinations) for five ranks with this starter rank.

    Each rank with n cards among the five takes any n of its 4 suits, and the
    starter is any one of the cards of its rank: ``ways`` combinations in all.
    A flush needs four different ranks in hand; then the hand's suit is any of
    4 and the starter's is one of the 3 others (a four-card flush: 12 ways; a
    starter of a hand rank has to differ from that card's suit, which is the
    flush suit, so it still has 3 choices) or, if the starter's rank is not in
    hand, the same suit (a five-card flush: 4 ways).
    Nobs: the starter's suit is uniform over the 4 suits and independent of the
    suit of a hand jack of another rank, so a quarter of all combinations have
    it for each hand jack; the five-card flushes with a jack all do, the
    four-card ones never (the starter's suit is not the jack's).
    """
    ways = prod(comb(4, count) for count in of_rank.values()) * of_rank[starter_rank]
    hand_ranks = of_rank.copy()
    hand_ranks[starter_rank] -= 1
    jacks = 0 if starter_rank == JACK else hand_ranks[JACK]
    four_ranks = all(count <= 1 for count in hand_ranks.values())
    four_flushes = 12 if four_ranks else 0
    five_flushes = 4 if four_ranks and not hand_ranks[starter_rank] else 0
    five_flushes_with_nobs = five_flushes if jacks else 0
    nobs_only = ways * jacks // 4 - five_flushes_with_nobs
    yield (5 + 1, five_flushes_with_nobs)
    yield (5, five_flushes - five_flushes_with_nobs)
    yield (0 if crib else 4, four_flushes)
    yield (1, nobs_only)
    yield (0, ways - five_flushes - four_flushes - nobs_only)
