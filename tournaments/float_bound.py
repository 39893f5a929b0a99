"""A lower bound on the float differences of every legal pairing of a field.

``tournaments.matching`` pairs big fields on a sparse window of the legal pairs.
This bound proves such a pairing as good as the best on the complete graph: if
its float differences equal the bound, no legal pairing does better.

Terms (position, score group, difference, float differences and cap are those of
``tournaments.matching``):

- *must leave*: a score group's legal pairs inside it form a matching; at least
  ``size - 2 x (largest such matching)`` of its players float, one for an odd
  group that can pair the rest, more for a group blocked by rematches or
  forbidden pairs.
- *pooled group*: a score group big enough that which of its players float hardly
  matters; the relaxation below keeps only how many do, as *tokens*.
- *exact group*: every other score group; its players stay players, with their
  own legal pairs.

The relaxation: exact players as they are; each pooled group as ``must_leave``
*required* tokens and an even number of *optional* ones. Two optional tokens of a
group may pair (two of its players who stay at home); a token pairs with anything
of another group, rematch or not. Every legal pairing within the cap maps to a
pairing of the relaxation with the same float differences (a pooled group's
floaters become its tokens, all required ones and some optional), provided the
group has optional tokens enough. So the relaxation's best, an exact matching on
a small graph, is a lower bound.

How many optional tokens are enough: take a best pairing of the relaxation with
unlimited optional tokens, and a pooled group sending out two optional tokens or
more. Two of its tokens paired with ``y`` and ``z``, both below it (or both
above), could pair at home while ``y`` meets ``z``: that removes a pair at the
larger of the two differences and adds one at a smaller difference, strictly
better. So every two of its partners below are a rematch or forbidden pair of
exact players, or tokens of one pooled group that cannot spare two more; a clique
of at most ``1 + (most illegal partners of an exact player among exact ones)``
players, or at most ``1 + (largest must_leave of a pooled group)`` tokens. The
same above; twice the larger of these bounds a group's floaters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import rustworkx as rx

# A score group is pooled when it has at least this many players and at least
# 2 x (most illegal partners of a player) + POOL_MARGIN: then a floater finds a
# legal partner in it, and the rest of it still pairs, whoever floats.
MIN_POOL = 16
POOL_MARGIN = 6
MAX_WEIGHT_BITS = 120


@dataclass(frozen=True, slots=True)
class Group:
    """A score group of seated players, highest first in ``score_groups``."""

    wins: int
    members: np.ndarray
    must_leave: int


def score_groups(wins: np.ndarray, legal: np.ndarray, seated: np.ndarray) -> list[Group]:
    """The score groups of the ``seated`` positions, most match wins first."""
    result = []
    for value in sorted(set(wins[seated].tolist()), reverse=True):
        members = seated[wins[seated] == value]
        inside = legal[np.ix_(members, members)]
        result.append(Group(value, members, len(members) - 2 * largest_matching(inside)))
    return result


def largest_matching(legal: np.ndarray) -> int:
    """The size of a maximum matching of the graph with adjacency matrix ``legal``."""
    size = len(legal)
    # Dirac: every player legal with at least half the others -> a Hamiltonian
    # cycle, so all but at most one can pair. Big groups end here, cheaply.
    if size >= 3 and 2 * int(legal.sum(axis=1).min()) >= size:
        return size // 2
    rows, cols = np.nonzero(np.triu(legal, 1))
    return len(maximum_matching(size, rows, cols))


def maximum_matching(size: int, rows: np.ndarray, cols: np.ndarray) -> set[tuple[int, int]]:
    """A maximum-cardinality matching of an unweighted graph (cheap in rustworkx)."""
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(size))
    graph.add_edges_from_no_data(list(zip(rows.tolist(), cols.tolist(), strict=True)))
    return set(rx.max_weight_matching(graph, max_cardinality=True))


def difference_units(
    rows: np.ndarray, cols: np.ndarray, differences: np.ndarray, base: int
) -> tuple[dict[int, int], int]:
    """The weight unit of each difference level, and the total above them all.

    Levels are packed in a mixed radix over ``base`` (the room the lower tiers
    need): a level's radix is one more than the most disjoint edges it has (no more
    distinct upper or lower ends than that), so no matching's pairs at one level
    add up to a unit of the next. Comparing sums then compares the float
    differences largest first.
    """
    units: dict[int, int] = {0: 0}
    unit = base
    for level in np.unique(differences[differences > 0]).tolist():
        at_level = differences == level
        most = min(len(np.unique(rows[at_level])), len(np.unique(cols[at_level])))
        units[level] = unit
        unit *= most + 1
    return units, unit


def least_differences(
    wins: np.ndarray, legal: np.ndarray, seated: np.ndarray, cap: int
) -> tuple[int, ...] | None:
    """A lower bound on the float differences of every legal pairing of ``seated``
    that uses no difference above ``cap``: the best of the relaxation (module
    docstring). None when it cannot be computed exactly (too many levels)."""
    groups = score_groups(wins, legal, seated)
    nodes = _Nodes.build(groups, legal, seated)
    rows, cols = nodes.edges(legal, cap)
    differences = np.abs(nodes.wins[rows] - nodes.wins[cols])
    units, top = difference_units(rows, cols, differences, 1)
    if top.bit_length() > MAX_WEIGHT_BITS:
        return None
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(nodes.wins)))
    weights = [top - units[d] for d in differences.tolist()]
    graph.add_edges_from(list(zip(rows.tolist(), cols.tolist(), weights, strict=True)))
    mates = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(mates) < len(nodes.wins):
        return None
    found = (abs(int(nodes.wins[a] - nodes.wins[b])) for a, b in mates)
    return tuple(sorted((d for d in found if d), reverse=True))


@dataclass(frozen=True, slots=True)
class _Nodes:
    """The relaxation's nodes: ``player`` is a position, or -1 for a token."""

    wins: np.ndarray
    group: np.ndarray
    player: np.ndarray
    optional: np.ndarray

    @classmethod
    def build(cls, groups: Sequence[Group], legal: np.ndarray, seated: np.ndarray) -> _Nodes:
        most_illegal = int((~legal[np.ix_(seated, seated)]).sum(axis=1).max()) - 1
        threshold = max(MIN_POOL, 2 * most_illegal + POOL_MARGIN)
        pooled = [len(g.members) >= threshold for g in groups]
        exact = np.concatenate(
            [g.members for g, p in zip(groups, pooled, strict=True) if not p] or [np.array([], int)]
        )
        reach = _partners_bound(groups, pooled, legal, exact)
        wins, group, player, optional = [], [], [], []
        for index, (g, is_pooled) in enumerate(zip(groups, pooled, strict=True)):
            if is_pooled:
                spare = len(g.members) - g.must_leave
                extra = min(spare, max(0, 2 * reach - g.must_leave) // 2 * 2)
                kinds = [False] * g.must_leave + [True] * extra
                players = [-1] * len(kinds)
            else:
                kinds = [False] * len(g.members)
                players = g.members.tolist()
            wins += [g.wins] * len(kinds)
            group += [index] * len(kinds)
            player += players
            optional += kinds
        return cls(np.array(wins, int), np.array(group), np.array(player), np.array(optional, bool))

    def edges(self, legal: np.ndarray, cap: int) -> tuple[np.ndarray, np.ndarray]:
        """The relaxation's pairs within the cap, as an upper-triangle edge list."""
        is_player = self.player >= 0
        both_players = is_player[:, None] & is_player[None, :]
        safe = np.where(is_player, self.player, 0)
        players_legal = both_players & legal[np.ix_(safe, safe)]
        same_group = self.group[:, None] == self.group[None, :]
        at_home = same_group & self.optional[:, None] & self.optional[None, :]
        with_token = ~both_players & (~same_group | at_home)
        within = np.abs(self.wins[:, None] - self.wins[None, :]) <= cap
        rows, cols = np.nonzero(np.triu((players_legal | with_token) & within, 1))
        return rows, cols


def _partners_bound(
    groups: Sequence[Group], pooled: Sequence[bool], legal: np.ndarray, exact: np.ndarray
) -> int:
    """The most partners a pooled group's floaters can have on one side (docstring)."""
    clique = 1
    if len(exact):
        clique += int((~legal[np.ix_(exact, exact)]).sum(axis=1).max()) - 1
    required = [g.must_leave for g, p in zip(groups, pooled, strict=True) if p]
    return max(clique, max(required, default=0) + 1)
