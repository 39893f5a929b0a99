"""The global weighted matching behind Swiss pairing, over plain positions.

Terms used here:

- *position*: a player's place in the pairing order, 0 = top. The order is by
  score group (match wins, most first), then by standings rank.
- *score group*: the players with the same number of match wins.
- *cross pair*: a pair whose two players come from different score groups; both
  players *float* (the higher one down, the lower one up). Its *difference* is the
  gap in match wins between the two.
- *float differences*: the differences of a pairing's cross pairs, largest first:
  ``(2, 1, 1)``.
- *cap*: the largest difference a matching may use; pairs above it are left out.
- *window*: a sparse edge set: each player joined to its ``k`` nearest legal
  opponents above and below in the pairing order (the *band*), plus every legal
  pair between the last ``k`` players of a score group and the first ``k`` of a
  lower one (the *ends*: a group of ``2k`` or fewer is all ends). ``None`` means
  the complete graph of legal pairs.

Every perfect matching is scored by a cost vector, compared lexicographically:

0. which bye: the bye player's index in the bye preference order (0 = preferred);
1. the float differences, as counts from the largest difference down: the fewest
   pairs at the largest difference, then at the next, down to the pairs one win
   apart (RULES.md 4). Comparing the tuples of float differences is the same
   order: ``(2,) > (1, 1, 1) > (1, 1)``;
2. the sum of squared distances in the pairing order (so 1st v 2nd, 3rd v 4th:
   the Monrad order);
3. a seeded random number per pair, so ties are broken reproducibly.

Tier 0 is settled first (``best_bye``): the first player of the bye order whose
bye leaves a perfect matching of the rest. Then the smallest cap that still
leaves a perfect matching of the edge set is found with unweighted matchings
(cheap); no best matching uses a larger difference, since one within the cap
exists and a larger difference is worse in tier 1 whatever comes below. Tiers
1-3 are packed into one integer weight per edge with a mixed radix (one level per
difference up to the cap) and rustworkx finds the maximum-weight perfect matching
(Edmonds' blossom algorithm, exact on the edges it is given). Its weights are
128-bit integers; tiers 2-3 are coarsened when the levels leave them too little
room, and a field whose levels alone pass 120 bits is refused.

Big fields are matched in a window first. Its answer is kept only when tiers 0-1
are provably those of the complete graph: when the window holds every legal pair
within the cap, or when its float differences equal the lower bound of
``tournaments.float_bound``. Otherwise the ends grow, ending with the complete
graph (within the cap). Only tiers 2-3 may then be a little worse than the best.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import rustworkx as rx

from tournaments.float_bound import difference_units, least_differences, maximum_matching

NOISE_RANGE = 1 << 10
FIRST_WINDOW = 12
WINDOW_GROWTH = 4
# The blossom algorithm costs about (nodes x edges); up to this much work the
# complete graph is cheap enough (256 players, ~32,000 edges), above it the
# windowed graph is tried first.
FULL_GRAPH_WORK = 20_000_000
# rustworkx keeps weights as 128-bit integers; leave headroom for its sums.
MAX_WEIGHT_BITS = 120

Edges = tuple[np.ndarray, np.ndarray]


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
    a window of ``FIRST_WINDOW``. A windowed answer is kept only when tiers 0-1 are
    provably those of the complete graph (see ``_proven``); otherwise its ends
    grow, ending with the complete graph. Raises ``Unpairable`` when no perfect
    matching exists.
    """
    if window == "auto":
        window = None if _full_graph_is_cheap(field) else FIRST_WINDOW
    bye = best_bye(field)
    ends = window
    while True:
        if ends is not None and 2 * ends >= field.size:
            ends = None
        matching = _best_matching(field, _edges(field, window, ends), bye, ends)
        if matching is not None and (ends is None or _proven(field, matching)):
            return matching
        if ends is None:
            raise Unpairable(_left_over(field))
        ends *= WINDOW_GROWTH


def float_differences(field: Field, pairs: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """The match-win differences of the cross pairs, largest first."""
    found = (abs(int(field.wins[i] - field.wins[j])) for i, j in pairs)
    return tuple(sorted((d for d in found if d), reverse=True))


def cost_tiers(field: Field, matching: Matching) -> tuple[int, tuple[int, ...], int]:
    """Tiers 0-2 of a matching's cost vector (tier 3 is the random tie-break)."""
    bye_tier = field.bye_order.index(matching.bye) if matching.bye is not None else 0
    distance = sum((j - i) ** 2 for i, j in matching.pairs)
    return bye_tier, float_differences(field, matching.pairs), distance


def best_bye(field: Field) -> int | None:
    """Tier 0, exactly: the first of the bye order whose bye leaves a perfect
    matching of the others (None for an even field). Raises ``Unpairable``."""
    candidates: Sequence[int | None] = field.bye_order if field.needs_bye else [None]
    for bye in candidates:
        if _can_pair(field, bye):
            return bye
    raise Unpairable(_left_over(field))


def _can_pair(field: Field, bye: int | None) -> bool:
    """Whether everyone but ``bye`` can be paired legally: Dirac's condition, a
    perfect matching in the band, or else an unweighted matching of every pair."""
    seated = _seated(field, bye)
    legal = field.legal[np.ix_(seated, seated)]
    count = len(seated)
    if count == 0 or (count >= 3 and 2 * int(legal.sum(axis=1).min()) >= count):
        return True
    rows, cols = _without(_edges(field, FIRST_WINDOW, None, band_only=True), bye)
    if 2 * len(maximum_matching(field.size, rows, cols)) == count:
        return True
    rows, cols = np.nonzero(np.triu(legal, 1))
    return 2 * len(maximum_matching(count, rows, cols)) == count


def _seated(field: Field, bye: int | None) -> np.ndarray:
    return np.array([p for p in range(field.size) if p != bye], dtype=np.int64)


def _full_graph_is_cheap(field: Field) -> bool:
    edges = int(np.count_nonzero(field.legal)) // 2
    return field.size * edges <= FULL_GRAPH_WORK


def _edges(field: Field, band: int | None, ends: int | None, *, band_only: bool = False) -> Edges:
    """Upper-triangle edge list (rows < cols) of the legal graph or a window of it."""
    if band is None or (ends is None and not band_only):
        chosen = field.legal
    else:
        chosen = _band_mask(field, band)
        if ends is not None:
            chosen |= _ends_mask(field, ends)
    rows, cols = np.nonzero(np.triu(chosen, 1))
    return rows.astype(np.int64), cols.astype(np.int64)


def _band_mask(field: Field, k: int) -> np.ndarray:
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
    """Legal pairs between a group's last ``k`` and a lower group's first ``k``.

    A group's floaters may have to skip whole groups (when a group between has
    nobody to spare, or every pair with it is a rematch), which the band cannot
    reach; and the floaters of a big group come from its ends.
    """
    wins = field.wins
    first = np.zeros(field.size, dtype=bool)
    last = np.zeros(field.size, dtype=bool)
    _, starts, counts = np.unique(-wins, return_index=True, return_counts=True)
    for start, count in zip(starts.tolist(), counts.tolist(), strict=True):
        first[start : start + min(k, count)] = True
        last[start + max(0, count - k) : start + count] = True
    chosen = last[:, None] & first[None, :] & (wins[:, None] > wins[None, :]) & field.legal
    both: np.ndarray = chosen | chosen.T
    return both


def _without(edges: Edges, bye: int | None) -> Edges:
    rows, cols = edges
    if bye is None:
        return rows, cols
    keep = (rows != bye) & (cols != bye)
    return rows[keep], cols[keep]


def _best_matching(
    field: Field, edges: Edges, bye: int | None, ends: int | None
) -> Matching | None:
    """The best matching on ``edges`` within the smallest cap; None if they have no
    perfect matching."""
    rows, cols = _without(edges, bye)
    differences = np.abs(field.wins[rows] - field.wins[cols])
    cap = _smallest_cap(field.size, field.size - (bye is not None), rows, cols, differences)
    if cap is None:
        return None
    keep = differences <= cap
    return _match(field, rows[keep], cols[keep], bye, ends)


def _smallest_cap(
    size: int, seated: int, rows: np.ndarray, cols: np.ndarray, differences: np.ndarray
) -> int | None:
    """The least cap leaving a perfect matching of the ``seated`` players: a
    galloping, then binary, search over the differences present."""
    caps = np.unique(differences).tolist()
    if seated == 0:
        return 0

    def works(index: int) -> bool:
        keep = differences <= caps[index]
        return 2 * len(maximum_matching(size, rows[keep], cols[keep])) == seated

    failed, step = -1, 1
    while failed + step < len(caps) and not works(failed + step):
        failed += step
        step *= 2
    good = failed + step
    if good >= len(caps):
        good = len(caps) - 1
        if good <= failed or not works(good):
            return None
    while good - failed > 1:
        middle = (failed + good) // 2
        if works(middle):
            good = middle
        else:
            failed = middle
    return int(caps[good])


def _proven(field: Field, matching: Matching) -> bool:
    """Whether a windowed answer's tiers 0-1 equal those of the complete graph.

    Tier 0 was settled on the complete graph. Tier 1: the cap is the answer's
    largest difference; if the window held every legal pair within it, the
    answer is the complete graph's; else its float differences must reach the
    lower bound of ``tournaments.float_bound``.
    """
    found = float_differences(field, matching.pairs)
    cap = found[0] if found else 0
    seated = _seated(field, matching.bye)
    legal = field.legal[np.ix_(seated, seated)]
    wins = field.wins[seated]
    within = np.abs(wins[:, None] - wins[None, :]) <= cap
    if int(np.count_nonzero(np.triu(legal & within, 1))) == matching.edges:
        return True
    return least_differences(field.wins, field.legal, seated, cap) == found


def _match(
    field: Field, rows: np.ndarray, cols: np.ndarray, bye: int | None, window: int | None
) -> Matching | None:
    """Maximum-weight perfect matching on the given edges, or None if there is none."""
    graph = rx.PyGraph(multigraph=False)
    graph.add_nodes_from(range(field.size))
    weights = _weights(field, rows, cols, bye)
    graph.add_edges_from(list(zip(rows.tolist(), cols.tolist(), weights, strict=True)))
    mates = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(mates) < field.size - (bye is not None):
        return None
    pairs = sorted((min(a, b), max(a, b)) for a, b in mates)
    return Matching(tuple(pairs), bye, window, len(rows))


def _weights(field: Field, rows: np.ndarray, cols: np.ndarray, bye: int | None) -> list[int]:
    """Edge weights (``top - cost``) with tiers 1-3 packed in a mixed radix.

    Tier 2's and 3's radices are one more than the most their tier can add up to
    over the pairs of a perfect matching; tier 1's come from ``difference_units``.
    Python ints: the packed numbers pass 2**63.
    """
    pairs = (field.size - (bye is not None)) // 2
    differences = np.abs(field.wins[rows] - field.wins[cols])
    rule_units, rule_top = difference_units(rows, cols, differences, 1)
    room = (1 << MAX_WEIGHT_BITS) // rule_top
    if room == 0:
        raise ValueError(f"a field of {field.size} players is too large to weigh exactly")
    distance = (cols - rows) ** 2
    distance_shift, noise_shift = _coarsening(pairs, int(distance.max(initial=0)), room)
    noise_radix = pairs * ((NOISE_RANGE - 1) >> noise_shift) + 1
    base = noise_radix * (pairs * (int(distance.max(initial=0)) >> distance_shift) + 1)
    low = (distance >> distance_shift) * noise_radix + (field.noise[rows, cols] >> noise_shift)
    top = rule_top * base
    return [
        top - rule_units[d] * base - lo
        for d, lo in zip(differences.tolist(), low.tolist(), strict=True)
    ]


def _coarsening(pairs: int, distance: int, room: int) -> tuple[int, int]:
    """Right shifts for tiers 2 and 3 so that both fit in ``room`` (noise goes first)."""
    distance_shift = noise_shift = 0
    while True:
        noise = pairs * ((NOISE_RANGE - 1) >> noise_shift) + 1
        if noise * (pairs * (distance >> distance_shift) + 1) <= room:
            return distance_shift, noise_shift
        if noise > 1:
            noise_shift += 1
        else:
            distance_shift += 1


def _left_over(field: Field) -> tuple[int, ...]:
    """Positions a maximum-cardinality matching leaves unpaired (a hint for why)."""
    rows, cols = np.nonzero(np.triu(field.legal, 1))
    if field.needs_bye:
        rows = np.concatenate([rows, np.array(field.bye_order, dtype=np.int64)])
        cols = np.concatenate([cols, np.full(len(field.bye_order), field.size)])
    mates = maximum_matching(field.size + field.needs_bye, rows, cols)
    paired = {node for pair in mates for node in pair}
    return tuple(p for p in range(field.size) if p not in paired)
