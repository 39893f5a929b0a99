"""The global weighted matching behind Swiss pairing, over plain positions.

Terms used here:

- *position*: a player's place in the pairing order, 0 = top. The order is by
  score group (match wins, most first), then by standings rank.
- *score group*: the players with the same number of match wins.
- *cross pair*: a pair whose two players come from different score groups; both
  players *float* (the higher one down, the lower one up).
- *bye node*: an extra node, present when the field is odd, joined to every player
  who may take the bye; the player matched to it sits out.
- *window*: a sparse edge set (each player joined to its ``k`` nearest legal
  opponents above and below in the pairing order, plus bridges between the score
  groups that must send players out); ``None`` means the complete graph of legal
  pairs.

Every perfect matching is scored by a cost vector, compared lexicographically:

0. which bye: the bye player's index in the bye preference order (0 = preferred);
1. the number of cross pairs;
2. the sum of squared match-win differences;
3. the sum of squared distances in the pairing order (so 1st v 2nd, 3rd v 4th:
   the Monrad order);
4. a seeded random number per pair, so ties are broken reproducibly.

The tiers are packed into one integer weight per edge with a mixed radix big
enough that no sum of lower tiers can carry into a higher one (Python ints;
rustworkx keeps them as 128-bit integers, room for fields of thousands), and the
maximum-weight perfect matching is found with rustworkx (Edmonds' blossom
algorithm, exact on the edges it is given).

Big fields are matched in a window first. Its answer is kept only when its tiers
0-2 reach a lower bound for the complete graph (``_least_floats``), so they are
exactly the complete graph's; tier 3 may then be a little worse than the best.
Otherwise the window grows, ending with the complete graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

import numpy as np
import rustworkx as rx

NOISE_RANGE = 1 << 10
FIRST_WINDOW = 12
WINDOW_GROWTH = 4
# The blossom algorithm costs about (nodes x edges); up to this much work the
# complete graph is cheap enough (256 players, ~32,000 edges: ~0.1 s), above it
# the windowed graph is tried first.
FULL_GRAPH_WORK = 20_000_000
# Beyond this many tokens the lower bound of ``_least_floats`` is not worth
# computing (the token graph is complete); the window grows instead.
MAX_TOKENS = 400
# rustworkx keeps weights as 128-bit integers; leave headroom for its sums.
MAX_WEIGHT_BITS = 120


@dataclass(frozen=True, slots=True)
class Field:
    """What the matching needs to know, by position.

    ``legal[i, j]`` is true when ``i`` and ``j`` may meet (never met, not
    forbidden); ``bye_order`` lists the positions that may take the bye,
    preferred first (lowest-ranked first).
    """

    wins: np.ndarray
    legal: np.ndarray
    bye_order: tuple[int, ...]
    noise: np.ndarray

    @classmethod
    def build(
        cls, wins: Sequence[int], legal: np.ndarray, bye_order: Sequence[int], *, seed: int
    ) -> Field:
        size = len(wins)
        noise = np.random.default_rng(seed).integers(0, NOISE_RANGE, size=(size, size))
        return cls(np.asarray(wins, dtype=np.int64), legal, tuple(bye_order), noise)

    @property
    def size(self) -> int:
        return len(self.wins)

    @property
    def needs_bye(self) -> bool:
        return self.size % 2 == 1


@dataclass(frozen=True, slots=True)
class Matching:
    """Pairs of positions (``i < j``), the bye position, and the edge set used."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    window: int | None
    edges: int


class Unpairable(ValueError):
    """No perfect matching exists; ``unpaired`` are the positions left over."""

    def __init__(self, unpaired: tuple[int, ...]) -> None:
        super().__init__(f"no perfect matching; left over: {unpaired}")
        self.unpaired = unpaired


def solve(field: Field, *, window: int | None | Literal["auto"] = "auto") -> Matching:
    """The best perfect matching by the cost vector of the module docstring.

    ``window="auto"`` (the default) picks the complete graph when it is cheap, else
    windows of growing size. A windowed answer is kept only when tiers 0-2 are
    provably those of the complete graph (see ``_proven``); otherwise the window
    grows, ending with the complete graph, so a legal pairing is never missed.
    Raises ``Unpairable`` when not even the complete graph has a perfect matching.
    """
    if window == "auto":
        window = None if _full_graph_is_cheap(field) else FIRST_WINDOW
    while True:
        if window is not None and window >= field.size:
            window = None
        rows, cols = _edges(field, window)
        matching = _match(field, rows, cols, window)
        if matching is not None and (window is None or _proven(field, matching)):
            return matching
        if window is None:
            raise Unpairable(_left_over(field, rows, cols))
        window *= WINDOW_GROWTH


def cost_tiers(field: Field, matching: Matching) -> tuple[int, int, int, int]:
    """Tiers 0-3 of a matching's cost vector (tier 4 is the random tie-break)."""
    bye_tier = field.bye_order.index(matching.bye) if matching.bye is not None else 0
    wins = field.wins
    cross = sum(1 for i, j in matching.pairs if wins[i] != wins[j])
    squared = sum(int(wins[i] - wins[j]) ** 2 for i, j in matching.pairs)
    distance = sum((j - i) ** 2 for i, j in matching.pairs)
    return bye_tier, cross, squared, distance


def _full_graph_is_cheap(field: Field) -> bool:
    edges = int(np.count_nonzero(field.legal)) // 2
    return field.size * edges <= FULL_GRAPH_WORK


def _edges(field: Field, window: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Upper-triangle edge list (rows < cols) of the legal graph or a window of it."""
    chosen = field.legal if window is None else _window_mask(field, window)
    rows, cols = np.nonzero(np.triu(chosen, 1))
    return rows.astype(np.int64), cols.astype(np.int64)


def _window_mask(field: Field, k: int) -> np.ndarray:
    legal = field.legal
    chosen = np.zeros_like(legal)
    for i in range(field.size):
        below = np.flatnonzero(legal[i, i + 1 :])[:k] + i + 1
        above = np.flatnonzero(legal[i, :i])[-k:]
        chosen[i, below] = True
        chosen[i, above] = True
    # A group's floaters may have to skip whole groups (one cross pair beats a
    # chain of them, however far), which a window along the order cannot reach.
    groups = [g for g in _groups(field, _preferred_bye(field)) if g.must_leave]
    for upper, lower in combinations(groups, 2):
        block = np.ix_(upper.members[-k:], lower.members[:k])
        chosen[block] |= legal[block]
    both: np.ndarray = chosen | chosen.T
    return both


def _preferred_bye(field: Field) -> int | None:
    return field.bye_order[0] if field.needs_bye and field.bye_order else None


@dataclass(frozen=True, slots=True)
class _Group:
    """A score group once the bye is out; ``must_leave`` of its players must float.

    Pairs inside the group form a matching of its legal graph, so at least
    ``size - 2 x (largest such matching)`` players leave it: one for an odd group
    that can pair the rest, more for a group blocked by rematches or forbidden pairs.
    """

    wins: int
    members: np.ndarray
    must_leave: int


def _groups(field: Field, bye: int | None) -> list[_Group]:
    """The score groups in order, highest first, without ``bye``."""
    positions = np.array([p for p in range(field.size) if p != bye], dtype=np.int64)
    result = []
    for value in sorted(set(field.wins[positions].tolist()), reverse=True):
        members = positions[field.wins[positions] == value]
        inside = field.legal[np.ix_(members, members)]
        result.append(_Group(value, members, len(members) - 2 * _largest_matching(inside)))
    return result


def _largest_matching(legal: np.ndarray) -> int:
    size = len(legal)
    # Dirac: every player legal with at least half the others -> a Hamiltonian
    # cycle, so all but at most one can pair. Big groups end here, cheaply.
    if size >= 3 and 2 * int(legal.sum(axis=1).min()) >= size:
        return size // 2
    rows, cols = np.nonzero(np.triu(legal, 1))
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(size))
    graph.add_edges_from_no_data(list(zip(rows.tolist(), cols.tolist(), strict=True)))
    return len(rx.max_weight_matching(graph, max_cardinality=True))


def _proven(field: Field, matching: Matching) -> bool:
    """Whether tiers 0-2 of a windowed answer equal those of the complete graph.

    They do when the preferred player has the bye and cross pairs and squared
    differences reach the lower bound of ``_least_floats``.
    """
    preferred = _preferred_bye(field)
    if matching.bye != preferred:
        return False
    least = _least_floats(_groups(field, preferred))
    _, cross, squared, _ = cost_tiers(field, matching)
    return least is not None and (cross, squared) == least


def _least_floats(groups: list[_Group]) -> tuple[int, int] | None:
    """A lower bound on (cross pairs, squared differences) over all pairings.

    It relaxes the problem to the groups: each sends out its ``must_leave``
    players (*required* tokens) and may send more, in twos so that the rest still
    pairs (*optional* tokens, paired at home for nothing); tokens of different
    groups pair at a cross pair's cost, and rematches across groups are ignored.
    Every real pairing is such a token pairing, so its optimum is a lower bound.
    More optional tokens than there are required ones never help (an optimal
    token pairing sends out no two optional tokens of one group to optional
    ones elsewhere: pairing those two at home saves a cross pair), which keeps
    the token graph small. None when it would still be too big, or has no
    perfect matching.
    """
    required = sum(g.must_leave for g in groups)
    tokens: list[tuple[int, bool]] = []
    for g in groups:
        tokens += [(g.wins, True)] * g.must_leave
        tokens += [(g.wins, False)] * min(len(g.members) - g.must_leave, required)
    if required == 0:
        return 0, 0
    if len(tokens) > MAX_TOKENS:
        return None
    spread = max(g.wins for g in groups) - min(g.wins for g in groups)
    radix = len(tokens) * spread**2 + 1
    top = len(tokens) * radix + 1
    edges = []
    for a, (wins_a, required_a) in enumerate(tokens):
        for b in range(a + 1, len(tokens)):
            wins_b, required_b = tokens[b]
            if wins_a != wins_b:
                edges.append((a, b, top - radix - (wins_a - wins_b) ** 2))
            elif not (required_a or required_b):
                edges.append((a, b, top))
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(len(tokens)))
    graph.add_edges_from(edges)
    mates = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(mates) < len(tokens):
        return None
    cross = [(tokens[a][0], tokens[b][0]) for a, b in mates if tokens[a][0] != tokens[b][0]]
    return len(cross), sum((a - b) ** 2 for a, b in cross)


def _match(field: Field, rows: np.ndarray, cols: np.ndarray, window: int | None) -> Matching | None:
    """Maximum-weight perfect matching on the given edges, or None if there is none."""
    weights, bye_weights = _weights(field, rows, cols)
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(field.size + field.needs_bye))
    graph.add_edges_from(list(zip(rows.tolist(), cols.tolist(), weights, strict=True)))
    bye_node = field.size
    graph.add_edges_from([(p, bye_node, w) for p, w in bye_weights])
    mates = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(mates) < graph.num_nodes():
        return None
    pairs = sorted((min(a, b), max(a, b)) for a, b in mates if bye_node not in (a, b))
    byes = [min(a, b) for a, b in mates if field.needs_bye and bye_node in (a, b)]
    return Matching(tuple(pairs), byes[0] if byes else None, window, len(rows))


def _weights(
    field: Field, rows: np.ndarray, cols: np.ndarray
) -> tuple[list[int], list[tuple[int, int]]]:
    """Edge weights (``top - cost``) with the tiers packed in a mixed radix.

    Each radix is one more than the largest total its tier can reach over the
    ``ceil(n / 2)`` edges of a perfect matching, so comparing weight sums compares
    the cost vectors lexicographically. Python ints: the packed numbers pass 2**63.
    """
    n = field.size
    edges_in_matching = (n + 1) // 2
    spread = int(field.wins.max() - field.wins.min()) if n else 0
    radix1 = edges_in_matching + 1
    radix2 = edges_in_matching * spread**2 + 1
    radix3 = edges_in_matching * (n - 1) ** 2 + 1
    radix4 = edges_in_matching * (NOISE_RANGE - 1) + 1
    top = (len(field.bye_order) + 1) * radix1 * radix2 * radix3 * radix4
    if top.bit_length() > MAX_WEIGHT_BITS:
        raise ValueError(f"a field of {n} players is too large to weigh exactly")
    wins_a, wins_b = field.wins[rows], field.wins[cols]
    high = (wins_a != wins_b).astype(np.int64) * radix2 + (wins_a - wins_b) ** 2
    low = (cols - rows) ** 2 * radix4 + field.noise[rows, cols]
    scale = radix3 * radix4
    weights = [top - h * scale - lo for h, lo in zip(high.tolist(), low.tolist(), strict=True)]
    bye_unit = radix1 * radix2 * radix3 * radix4
    bye_weights = [(p, top - index * bye_unit) for index, p in enumerate(field.bye_order)]
    return weights, bye_weights if field.needs_bye else []


def _left_over(field: Field, rows: np.ndarray, cols: np.ndarray) -> tuple[int, ...]:
    """Positions a maximum-cardinality matching leaves unpaired (a hint for why)."""
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(field.size + field.needs_bye))
    graph.add_edges_from_no_data(list(zip(rows.tolist(), cols.tolist(), strict=True)))
    if field.needs_bye:
        graph.add_edges_from_no_data([(p, field.size) for p in field.bye_order])
    mates = rx.max_weight_matching(graph, max_cardinality=True)
    paired = {node for pair in mates for node in pair}
    return tuple(p for p in range(field.size) if p not in paired)
