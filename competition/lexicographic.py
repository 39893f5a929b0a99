"""Perfect matchings with the fewest pairs at the largest win difference first.

Terms: a *level* is a difference in match wins (1, 2, ...) between the two players
of a pair; a matching's *counts* are its numbers of pairs at each level. Matchings
are compared by their counts from the highest level down (docs/rules.md §4.4), then by
*lower tiers* the caller adds (the Monrad order, a seeded tie-break).

The comparison is packed into one integer weight per edge, a mixed radix: the
lower tiers first, then one digit per level, and rustworkx's maximum-weight
perfect matching (Edmonds' blossom algorithm, exact) finds the best. Its weights
are 128-bit integers, of which ``MAX_WEIGHT_BITS`` are used.

A level's radix must exceed the count the best matching has there. One more than
the most disjoint edges at that level always does, and that is used when the
levels fit. When they do not, the levels are settled in stages from the top: a
solve with as many of the highest open levels as fit (and no weight below them)
gives the best counts there; a level then known to be unused loses its edges, and
a used one needs a radix of only its best count plus one. Comparing with the best
matching, any worse one differs first at a level where it has more pairs, which
outweighs all the digits below, since the best's own digits there are below their
radices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from math import prod

import numpy as np
import rustworkx as rx

MAX_WEIGHT_BITS = 120

# Given the room left under the levels (the largest radix they may have), the lower
# tiers' cost of each edge given (in order) and their radix (at most the room).
LowerTiers = Callable[[int], tuple[list[int], int]]


def best_matching(
    size: int,
    pairs: int,
    edges: tuple[np.ndarray, np.ndarray, np.ndarray],
    lower: LowerTiers | None = None,
) -> list[tuple[int, int]] | None:
    """The best matching of ``pairs`` pairs on ``edges`` (``rows[i]``-``cols[i]``
    with ``rows[i] < cols[i]``, a pair ``differences[i]`` apart) among ``size``
    nodes, by counts from the highest level down, then ``lower``; None if the
    edges hold no matching of that many pairs.

    Raises ``ValueError`` when even one level does not fit beside the settled ones.
    """
    rows, cols, differences = edges
    kept = np.arange(len(rows))
    known: dict[int, int] = {}
    needed = 2 * pairs
    while True:
        unused = [level for level, count in known.items() if count == 0]
        keep = ~np.isin(differences, unused)
        rows, cols, differences, kept = rows[keep], cols[keep], differences[keep], kept[keep]
        radices = _radices(rows, cols, differences, known)
        open_levels = [level for level in sorted(radices, reverse=True) if level not in known]
        fitting = _fitting(radices, known, open_levels)
        if fitting == len(open_levels):
            room = (1 << MAX_WEIGHT_BITS) // prod(radices.values())
            costs, low_radix = lower(room) if lower else ([0] * len(edges[0]), 1)
            low = [costs[i] for i in kept.tolist()]
            return _solve(size, (rows, cols, differences), radices, (low, low_radix), needed)
        settling = {
            level: radices[level] for level in [*known, *open_levels[:fitting]] if level in radices
        }
        mates = _solve(size, (rows, cols, differences), settling, ([0] * len(rows), 1), needed)
        if mates is None:
            return None
        counts = Counter(_level(mates, rows, cols, differences))
        known.update({level: counts[level] for level in open_levels[:fitting]})


def _radices(
    rows: np.ndarray, cols: np.ndarray, differences: np.ndarray, known: dict[int, int]
) -> dict[int, int]:
    """Each level's radix: its best count plus one if known, else one more than the
    most disjoint edges it has (no more than its distinct upper or lower ends)."""
    radices = {}
    for level in np.unique(differences[differences > 0]).tolist():
        if level in known:
            radices[level] = known[level] + 1
        else:
            at_level = differences == level
            ends = min(len(np.unique(rows[at_level])), len(np.unique(cols[at_level])))
            radices[level] = ends + 1
    return radices


def _fitting(radices: dict[int, int], known: dict[int, int], open_levels: list[int]) -> int:
    """How many of the highest open levels fit in the weights beside the known ones."""
    room = (1 << MAX_WEIGHT_BITS) // prod(radices[level] for level in known if level in radices)
    fitting = 0
    for level in open_levels:
        if radices[level] > room:
            break
        room //= radices[level]
        fitting += 1
    if fitting == 0 and open_levels:
        raise ValueError(f"{len(open_levels)} win differences are too many to weigh exactly")
    return fitting


def _solve(
    size: int,
    edges: tuple[np.ndarray, np.ndarray, np.ndarray],
    radices: dict[int, int],
    lower: tuple[list[int], int],
    needed: int,
) -> list[tuple[int, int]] | None:
    """The maximum-weight perfect matching with the levels in ``radices`` packed above
    the lower tiers (other levels weigh nothing); None if it is not perfect."""
    rows, cols, differences = edges
    low, unit = lower
    units = {0: 0}
    for level in sorted(radices):
        units[level] = unit
        unit *= radices[level]
    weights = [
        unit - units.get(level, 0) - cost
        for level, cost in zip(differences.tolist(), low, strict=True)
    ]
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(size))
    graph.add_edges_from(list(zip(rows.tolist(), cols.tolist(), weights, strict=True)))
    mates = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(mates) < needed:
        return None
    return sorted((min(a, b), max(a, b)) for a, b in mates)


def _level(
    mates: list[tuple[int, int]], rows: np.ndarray, cols: np.ndarray, differences: np.ndarray
) -> list[int]:
    """The levels of the matched pairs."""
    pairs = zip(rows.tolist(), cols.tolist(), strict=True)
    level = dict(zip(pairs, differences.tolist(), strict=True))
    return [level[pair] for pair in mates]
