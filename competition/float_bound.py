"""A lower bound on the float differences of every legal pairing of a field.

``competition.matching`` pairs big fields on a sparse window of the legal pairs.
This bound proves such a pairing as good as the best on the complete graph: if
its float differences equal the bound, no legal pairing does better.

Terms (position, score group, difference, float differences and cap are those of
``competition.matching``):

- *illegal partner*: someone a player has met or may not meet.
- *caps*: one per player (``competition.window.player_caps``); a pair is within
  them if its difference is at most the larger of its two players' caps.
- *outlier*: a player with fewer than ``OUTLIER_PARTNERS`` legal partners in the
  other score groups within the caps, or with a cap above the smallest: if they
  float, who exactly they can meet matters.
- *pool*: a score group of ``MIN_POOL`` players or more, less its outliers (when
  they are at most a quarter of it). Which of its players float hardly matters,
  so the relaxation below keeps only how many do, as *tokens*.
- *must leave*: a pool's legal pairs inside it form a matching; at least
  ``size - 2 x (largest such matching)`` of its players pair outside it.
- *exact player*: everyone not in a pool; they stay players, with their own
  legal pairs.

The relaxation: exact players as they are; each pool as ``must_leave``
*required* tokens and an even number of *optional* ones. Two optional tokens of a
pool may pair (two of its players who stay in it). A token pairs with a token of
another pool if some player of the one may meet some player of the other, and
with an exact player who has a legal partner in its pool (an outlier of the same
score group among them, at difference 0). Every legal pairing within the caps
maps to a pairing of the relaxation with the same float differences (the players
of a pool who pair outside it become its tokens, all required ones and some
optional), provided the pool has optional tokens enough.
So the relaxation's best, an exact matching on a small graph, is a lower bound.

How many optional tokens are enough: take a best pairing of the relaxation with
unlimited optional tokens, and a pool sending out two optional tokens or more.
Two of its tokens paired with ``y`` and ``z``, both below it (or both above),
could stay in the pool while ``y`` meets ``z``: that removes a pair at the larger
of the two differences and adds one at a smaller, strictly better (and within the
caps, as the pool's players have the smallest cap); so ``y`` and ``z`` cannot
meet in the relaxation. The pool's partners below are then exact
players who pairwise cannot meet (a clique of illegal pairs: at most one more
than the degeneracy of the illegal pairs among exact players), and tokens of
pools that pairwise cannot meet, or of one pool that cannot spare two more (at
most its ``must_leave`` plus one each). The same above; with the pool's own
outliers, that bounds how many of its tokens go out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from competition.lexicographic import best_matching
from competition.window import maximum_matching, nobody_alone

# A score group of this many players or more is pooled (less its outliers, if they
# are at most a quarter of it); a player with fewer legal partners than this in the
# other score groups within the cap is an outlier.
MIN_POOL = 16
OUTLIER_PARTNERS = 16


def largest_matching(legal: np.ndarray) -> int:
    """The size of a maximum matching of the graph with adjacency matrix ``legal``."""
    size = len(legal)
    # Dirac: every player legal with at least half the others -> a Hamiltonian
    # cycle, so all but at most one can pair. Big groups end here, cheaply.
    if size >= 3 and 2 * int(legal.sum(axis=1).min()) >= size:
        return size // 2
    rows, cols = np.nonzero(np.triu(legal, 1))
    return len(maximum_matching(size, rows, cols))


def lower_bound(
    wins: np.ndarray, legal: np.ndarray, seated: np.ndarray, caps: np.ndarray
) -> Bound | None:
    """The best of the relaxation (module docstring) for the ``seated`` positions
    and pairs within ``caps`` (per position): its float differences are a lower
    bound for every legal pairing within them. None when the relaxation has no
    pairing within them."""
    nodes = _Nodes.build(wins, legal, seated, caps)
    rows, cols = nodes.edges(legal)
    everyone = np.ones(len(nodes.wins), dtype=bool)
    if not nobody_alone(everyone, rows, cols):
        return None
    differences = np.abs(nodes.wins[rows] - nodes.wins[cols])
    mates = best_matching(len(nodes.wins), len(nodes.wins) // 2, (rows, cols, differences))
    if mates is None:
        return None
    gaps = (abs(int(nodes.wins[a] - nodes.wins[b])) for a, b in mates)
    return Bound(tuple(sorted((d for d in gaps if d), reverse=True)), nodes, tuple(mates))


@dataclass(frozen=True, slots=True)
class Bound:
    """The relaxation's best: ``differences`` is the lower bound."""

    differences: tuple[int, ...]
    nodes: _Nodes
    mates: tuple[tuple[int, int], ...]

    def pairing(self, legal: np.ndarray) -> list[tuple[int, int]] | None:
        """A legal pairing of the seated players with exactly these differences (so
        a best one), made from the relaxation's best; None when it cannot be made.

        The exact pairs stay. Then each pool, most wins first, is matched at once
        with its partners: the exact players its tokens meet, the players already
        chosen in pools above whose tokens meet it, and a *slot* for each of its
        tokens that meets a pool below (open to its players with a legal partner
        there). A perfect matching of that graph chooses who floats and pairs the
        rest of the pool inside it.
        """
        pairs, partners, crossing = self._sorted_out()
        pools = self.nodes.pools
        chosen: dict[int, list[int]] = {index: [] for index in range(len(pools))}
        for index in sorted(range(len(pools)), key=lambda i: -pools[i].wins):
            below = [b if a == index else a for a, b in crossing if index in (a, b)]
            below = [other for other in below if pools[other].wins < pools[index].wins]
            fixed = partners[index] + chosen[index]
            matched = _match_pool(pools[index].members, fixed, [pools[o] for o in below], legal)
            if matched is None:
                return None
            inside, slots = matched
            pairs += inside
            for other, member in zip(below, slots, strict=True):
                chosen[other].append(member)
        return sorted((min(a, b), max(a, b)) for a, b in pairs)

    def _sorted_out(
        self,
    ) -> tuple[list[tuple[int, int]], list[list[int]], list[tuple[int, int]]]:
        """The best's pairs of exact players, each pool's exact partners, and the
        pairs of pools whose tokens meet (two tokens of one pool stay in it)."""
        pairs: list[tuple[int, int]] = []
        partners: list[list[int]] = [[] for _ in self.nodes.pools]
        crossing: list[tuple[int, int]] = []
        player, pool = self.nodes.player.tolist(), self.nodes.pool.tolist()
        for a, b in self.mates:
            if player[a] >= 0 and player[b] >= 0:
                pairs.append((player[a], player[b]))
            elif player[a] >= 0 or player[b] >= 0:
                exact, token = (a, b) if player[a] >= 0 else (b, a)
                partners[pool[token]].append(player[exact])
            elif pool[a] != pool[b]:
                crossing.append((pool[a], pool[b]))
        return pairs, partners, crossing


def _match_pool(
    members: np.ndarray, fixed: list[int], below: list[_Pool], legal: np.ndarray
) -> tuple[list[tuple[int, int]], list[int]] | None:
    """Pairs covering a pool's members and its ``fixed`` partners (each with a
    member), and for each pool in ``below`` the member who floats down to it; None
    if there is no perfect matching of that graph."""
    size = len(members)
    inside_rows, inside_cols = np.nonzero(np.triu(legal[np.ix_(members, members)], 1))
    others = [legal[np.ix_(members, np.array(fixed, dtype=np.int64))].T] if fixed else []
    others += [legal[np.ix_(members, pool.members)].any(axis=1)[None, :] for pool in below]
    extra = np.concatenate(others) if others else np.zeros((0, size), dtype=bool)
    extra_rows, extra_members = np.nonzero(extra)
    rows = np.concatenate([inside_rows, extra_members])
    cols = np.concatenate([inside_cols, extra_rows + size])
    nodes = size + len(fixed) + len(below)
    mates = maximum_matching(nodes, rows, cols)
    if 2 * len(mates) < nodes:
        return None
    partner = {a: b for pair in mates for a, b in (pair, pair[::-1])}
    whole = [*members.tolist(), *fixed]
    pairs = [(whole[a], whole[b]) for a, b in mates if max(a, b) < size + len(fixed)]
    slots = [int(members[partner[size + len(fixed) + k]]) for k in range(len(below))]
    return pairs, slots


@dataclass(frozen=True, slots=True)
class _Pool:
    """A pool (module docstring) and how many outliers its score group keeps exact."""

    wins: int
    members: np.ndarray
    must_leave: int
    outliers: int


def _pools(
    wins: np.ndarray, legal: np.ndarray, seated: np.ndarray, caps: np.ndarray
) -> list[_Pool]:
    """The pools of the ``seated`` players (module docstring), most wins last."""
    seated_wins = wins[seated]
    gaps = np.abs(seated_wins[:, None] - seated_wins[None, :])
    within = gaps <= np.maximum(caps[seated][:, None], caps[seated][None, :])
    elsewhere = legal[np.ix_(seated, seated)] & (gaps > 0) & within
    outlier = elsewhere.sum(axis=1) < OUTLIER_PARTNERS
    outlier |= caps[seated] > caps[seated].min()
    pools = []
    for value in np.unique(seated_wins).tolist():
        inside = seated_wins == value
        members = seated[inside & ~outlier]
        if len(members) >= MIN_POOL and 4 * len(members) >= 3 * inside.sum():
            must_leave = len(members) - 2 * largest_matching(legal[np.ix_(members, members)])
            outliers = int(inside.sum()) - len(members)
            pools.append(_Pool(value, members, must_leave, outliers))
    return pools


def _allowance(
    index: int,
    pools: list[_Pool],
    meet: np.ndarray,
    exact_wins: np.ndarray,
    illegal: np.ndarray,
    cap: int,
) -> int:
    """How many of a pool's tokens a best pairing of the relaxation sends out, at
    most (module docstring): on each side within the cap, a clique of exact
    players who cannot meet plus the tokens of pools that cannot meet each other
    (or of one pool that cannot spare two); and its own outliers."""
    pool = pools[index]
    total = pool.outliers
    for side in (1, -1):
        gaps = (exact_wins - pool.wins) * side
        near = (gaps > 0) & (gaps <= cap)
        beside = [i for i, p in enumerate(pools) if 0 < (p.wins - pool.wins) * side <= cap]
        spare = [pools[i].must_leave + 1 for i in beside]
        apart = any(not meet[i, j] for i in beside for j in beside if i != j)
        tokens = sum(spare) if apart else max(spare, default=0)
        if near.any() or spare:
            clique = _clique_bound(illegal[np.ix_(near, near)]) if near.any() else 0
            total += max(1, clique + tokens)
    return total


def _clique_bound(illegal: np.ndarray) -> int:
    """No clique is larger than one more than the graph's degeneracy (the largest
    least degree met while removing a least-degree node at a time)."""
    degrees = illegal.sum(axis=1).astype(np.int64)
    alive = np.ones(len(degrees), dtype=bool)
    worst = 0
    for _ in range(len(degrees)):
        node = int(np.argmin(np.where(alive, degrees, len(degrees) + 1)))
        worst = max(worst, int(degrees[node]))
        alive[node] = False
        degrees -= illegal[node]
    return worst + 1


@dataclass(frozen=True, slots=True)
class _Nodes:
    """The relaxation's nodes: an exact player (``player`` its position, ``pool``
    -1) or a token (``player`` -1, ``pool`` its pool's index); ``cap`` is the
    largest difference of a pair it may be in (a pair: the larger of the two)."""

    wins: np.ndarray
    cap: np.ndarray
    player: np.ndarray
    pool: np.ndarray
    optional: np.ndarray
    pools: tuple[_Pool, ...]

    @classmethod
    def build(
        cls, wins: np.ndarray, legal: np.ndarray, seated: np.ndarray, caps: np.ndarray
    ) -> _Nodes:
        pools = _pools(wins, legal, seated, caps)
        cap = int(caps[seated].max(initial=0))
        pooled = np.zeros(len(wins), dtype=bool)
        for pool in pools:
            pooled[pool.members] = True
        exact = seated[~pooled[seated]]
        illegal = ~legal[np.ix_(exact, exact)]
        np.fill_diagonal(illegal, False)
        node_wins, player = wins[exact].tolist(), exact.tolist()
        node_caps = caps[exact].tolist()
        pool_of, optional = [-1] * len(exact), [False] * len(exact)
        meet = _pools_meet(tuple(pools), legal)
        for index, pool in enumerate(pools):
            out = _allowance(index, pools, meet, wins[exact], illegal, cap)
            wanted = max(0, out - pool.must_leave) // 2 * 2
            kinds = [False] * pool.must_leave + [True] * min(
                len(pool.members) - pool.must_leave, wanted
            )
            node_wins += [pool.wins] * len(kinds)
            node_caps += [int(caps[pool.members].max())] * len(kinds)
            player += [-1] * len(kinds)
            pool_of += [index] * len(kinds)
            optional += kinds
        return cls(
            np.array(node_wins, dtype=np.int64),
            np.array(node_caps, dtype=np.int64),
            np.array(player, dtype=np.int64),
            np.array(pool_of, dtype=np.int64),
            np.array(optional, dtype=bool),
            tuple(pools),
        )

    def edges(self, legal: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The relaxation's pairs within the caps, as an upper-triangle edge list."""
        is_player = self.player >= 0
        safe_player = np.where(is_player, self.player, 0)
        safe_pool = np.where(is_player, 0, self.pool)
        players = is_player[:, None] & is_player[None, :] & legal[np.ix_(safe_player, safe_player)]
        reachable = self._reachable(legal)[safe_player][:, safe_pool]
        player_token = is_player[:, None] & ~is_player[None, :] & reachable
        tokens = ~is_player[:, None] & ~is_player[None, :]
        same_pool = self.pool[:, None] == self.pool[None, :]
        both_optional = self.optional[:, None] & self.optional[None, :]
        pools_meet = _pools_meet(self.pools, legal)[safe_pool][:, safe_pool]
        token_pairs = tokens & ((~same_pool & pools_meet) | (same_pool & both_optional))
        allowed = players | player_token | player_token.T | token_pairs
        cap = np.maximum(self.cap[:, None], self.cap[None, :])
        allowed &= np.abs(self.wins[:, None] - self.wins[None, :]) <= cap
        rows, cols = np.nonzero(np.triu(allowed, 1))
        return rows, cols

    def _reachable(self, legal: np.ndarray) -> np.ndarray:
        """``[position, pool]``: whether the player has a legal partner in the pool."""
        if not self.pools:
            return np.zeros((len(legal), 1), dtype=bool)
        return np.stack([legal[:, p.members].any(axis=1) for p in self.pools], axis=1)


def _pools_meet(pools: tuple[_Pool, ...], legal: np.ndarray) -> np.ndarray:
    """``[pool, pool]``: whether some player of the one may meet some of the other."""
    meet = np.zeros((max(1, len(pools)), max(1, len(pools))), dtype=bool)
    for i, first in enumerate(pools):
        for j, second in enumerate(pools):
            meet[i, j] = bool(legal[np.ix_(first.members, second.members)].any())
    return meet
