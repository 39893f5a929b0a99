"""The edge sets a Swiss matching searches, and the cap on their differences.

Terms (position, score group, difference, cap and window are those of
``competition.matching``): the *band* joins each player to its ``k`` nearest
legal opponents above and below in the pairing order; the *ends* join the last
``k`` players of each score group to the first ``k`` of every lower group (a
group of ``2k`` or fewer is all ends). A window is the band and the ends.

The smallest cap that leaves a perfect matching is found with unweighted
matchings, which rustworkx finds quickly when they are perfect and slowly when it
must show that none is: so the search starts at a lower bound (some pair must
cross each gap between score groups with an odd number of players above it) and
rules out caps that leave a player without any edge before it asks rustworkx.
"""

from __future__ import annotations

import numpy as np
import rustworkx as rx

from competition.field import Field

Edges = tuple[np.ndarray, np.ndarray]


def edge_list(
    field: Field, band: int | None, ends: int | None, *, band_only: bool = False
) -> Edges:
    """Upper-triangle edge list (rows < cols) of the legal graph or a window of it."""
    if band is None or (ends is None and not band_only):
        chosen = field.legal
    else:
        chosen = band_mask(field, band)
        if ends is not None:
            chosen |= _ends_mask(field, ends)
    rows, cols = np.nonzero(np.triu(chosen, 1))
    return rows.astype(np.int64), cols.astype(np.int64)


def band_mask(field: Field, k: int) -> np.ndarray:
    legal = field.legal
    chosen = np.zeros_like(legal)
    for i in range(field.size):
        below = np.flatnonzero(legal[i, i + 1 :])[:k] + i + 1
        above = np.flatnonzero(legal[i, :i])[-k:]
        chosen[i, below] = True
        chosen[i, above] = True
    both: np.ndarray = chosen | chosen.T
    return both


def _ends_mask(field: Field, k: int) -> np.ndarray:
    """Legal pairs between a group's last ``k`` and the first ``k`` of each of the
    ``k`` groups below it.

    A group's floaters may have to skip whole groups (when a group between has
    nobody to spare, or every pair with it is a rematch), which the band cannot
    reach; and the floaters of a big group come from its ends.
    """
    wins = field.wins
    _, starts, counts = np.unique(-wins, return_index=True, return_counts=True)
    group = np.repeat(np.arange(len(starts)), counts)
    place = np.arange(field.size) - np.repeat(starts, counts)
    first = place < k
    last = place >= np.repeat(counts, counts) - k
    apart = group[None, :] - group[:, None]
    chosen = last[:, None] & first[None, :] & (apart > 0) & (apart <= k) & field.legal
    both: np.ndarray = chosen | chosen.T
    return both


def without(edges: Edges, bye: int | None) -> Edges:
    rows, cols = edges
    if bye is None:
        return rows, cols
    keep = (rows != bye) & (cols != bye)
    return rows[keep], cols[keep]


def parity_cap(wins: np.ndarray) -> int:
    """A lower bound on the cap: the largest gap with an odd number of players above."""
    values, counts = np.unique(-wins, return_counts=True)
    odd = np.cumsum(counts)[:-1] % 2 == 1
    gaps = np.diff(values)[odd]
    return int(gaps.max(initial=0))


def nobody_alone(seated: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> bool:
    """Whether every seated player has an edge: the quick half of "a perfect matching?"."""
    touched = np.zeros(len(seated), dtype=bool)
    touched[rows] = touched[cols] = True
    return bool(touched[seated].all())


def perfect_matching_exists(seated: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> bool:
    """Whether the edges hold a perfect matching of the ``seated`` players."""
    if not nobody_alone(seated, rows, cols):
        return False
    return 2 * len(maximum_matching(len(seated), rows, cols)) == int(seated.sum())


def smallest_cap(
    seated: np.ndarray,
    rows: np.ndarray,
    cols: np.ndarray,
    differences: np.ndarray,
    caps: list[int],
    failed: int,
) -> int:
    """The least cap above ``caps[failed]`` leaving a perfect matching of the seated
    players, when every edge (``caps[-1]``) leaves one: a galloping, then binary,
    search over the differences present."""

    def works(index: int) -> bool:
        keep = differences <= caps[index]
        return perfect_matching_exists(seated, rows[keep], cols[keep])

    good, step = len(caps) - 1, 1
    while failed + step < good:
        if works(failed + step):
            good = failed + step
            break
        failed += step
        step *= 2
    while good - failed > 1:
        middle = (failed + good) // 2
        if works(middle):
            good = middle
        else:
            failed = middle
    return int(caps[good])


def maximum_matching(size: int, rows: np.ndarray, cols: np.ndarray) -> set[tuple[int, int]]:
    """A maximum-cardinality matching of an unweighted graph (cheap in rustworkx)."""
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(size))
    graph.add_edges_from_no_data(list(zip(rows.tolist(), cols.tolist(), strict=True)))
    return set(rx.max_weight_matching(graph, max_cardinality=True))


def player_caps(
    wins: np.ndarray, legal: np.ndarray, seated: np.ndarray, found: tuple[int, ...]
) -> np.ndarray:
    """Per position, the largest difference a best pairing gives the player's pair,
    given a pairing with float differences ``found`` (a best one is no worse).

    Everyone may go to ``found[0]``. Then, from the top level ``L`` of ``found``
    down (*peeling*): if it has ``k`` pairs, and exactly ``k`` players have no
    legal partner nearer than ``L``, no legal pair among themselves within ``L``,
    and none with a player peeled before, then every best pairing has those ``k``
    pairs at ``L``, and its other pairs are no worse than the rest of ``found``:
    the others' cap drops to the next level.
    """
    caps = np.zeros(len(wins), dtype=np.int64)
    if not found:
        return caps
    caps[seated] = found[0]
    legal_here = legal[np.ix_(seated, seated)]
    gaps = np.abs(wins[seated][:, None] - wins[seated][None, :])
    nearest = np.where(legal_here, gaps, np.iinfo(np.int64).max).min(axis=1)
    peeled = np.zeros(len(seated), dtype=np.int64)  # the level peeled at, 0 if not
    start = 0
    while start < len(found):
        level = found[start]
        count = found.count(level)
        forced = (peeled == 0) & (nearest >= level)
        # Two of them could meet at this level; or one could be the partner of a
        # player peeled before, at that player's level.
        reach = np.maximum(level, peeled[None, :])
        meets = legal_here & (gaps <= reach) & ((peeled[None, :] > 0) | forced[None, :])
        if int(forced.sum()) != count or meets[forced].any():
            break
        peeled[forced] = level
        start += count
        caps[seated[peeled == 0]] = found[start] if start < len(found) else 0
    return caps
