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
   apart (docs/rules.md §4.4). Comparing the tuples of float differences is the same
   order: ``(2,) > (1, 1, 1) > (1, 1)``;
2. the sum of squared distances in the pairing order (so 1st v 2nd, 3rd v 4th:
   the Monrad order);
3. a seeded random number per pair, so ties are broken reproducibly.

Tier 0 is settled first (``best_bye``): the first player of the bye order whose
bye leaves a perfect matching of the rest. Then the smallest cap that still
leaves a perfect matching of the edge set is found (``competition.window``); no
best matching uses a larger difference, since one within the cap exists and a
larger difference is worse in tier 1 whatever comes below. Tiers 1-3 are packed
into one integer weight per edge with a mixed radix (one level per difference up
to the cap) and rustworkx finds the maximum-weight perfect matching (Edmonds'
blossom algorithm, exact on the edges it is given; ``competition.lexicographic``).
Its weights are 128-bit integers: tiers 2-3 are coarsened when the levels leave
them too little room, and levels too many to fit are settled in stages.

Big fields are matched in a window first. Its answer is kept only when tiers 0-1
are provably those of the complete graph: when the window holds every legal pair
within the cap, or when its float differences equal the lower bound of
``competition.float_bound``. If they do not, but the bound's own pairing can be
made of real players (then a best pairing, as it reaches the bound), its pairs
join the window, and the window's answer is a best pairing too. Only else do the
ends grow, ending with the complete graph (within the cap). Tiers 2-3 may be a
little worse in a window than on the complete graph; tiers 0-1 never are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from competition.field import NOISE_RANGE, Field
from competition.float_bound import lower_bound
from competition.lexicographic import best_matching
from competition.window import (
    Edges,
    edge_list,
    maximum_matching,
    nobody_alone,
    parity_cap,
    perfect_matching_exists,
    player_caps,
    smallest_cap,
    without,
)

FIRST_WINDOW = 12
WINDOW_GROWTH = 4
# How many caps the relaxation tries when a window has no perfect matching.
RELAXED_CAPS = 4
# The blossom algorithm costs about (nodes x edges); up to this much work the
# complete graph is cheap enough (256 players, ~32,000 edges), above it the
# windowed graph is tried first.
FULL_GRAPH_WORK = 20_000_000


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
    provably those of the complete graph (``_proven_in_window``); otherwise the
    window's ends grow, ending with the complete graph. Raises ``Unpairable`` when
    no perfect matching exists.
    """
    if window == "auto":
        window = None if _full_graph_is_cheap(field) else FIRST_WINDOW
    bye = best_bye(field)
    ends = window
    while ends is not None and 2 * ends < field.size:
        matching = _proven_in_window(field, edge_list(field, window, ends), bye, ends)
        if matching is not None:
            return matching
        ends *= WINDOW_GROWTH
    matching = _best_matching(field, edge_list(field, None, None), bye, None)
    if matching is None:
        raise Unpairable(_left_over(field))
    return matching


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
    """Whether everyone but ``bye`` can be paired legally: nobody without a legal
    partner, then Dirac's condition, a perfect matching in the band, or else an
    unweighted matching of every pair."""
    seated = _seated(field, bye)
    legal = field.legal[np.ix_(seated, seated)]
    count = len(seated)
    if count == 0:
        return True
    least = int(legal.sum(axis=1).min())
    if least == 0:
        return False
    if count >= 3 and 2 * least >= count:
        return True
    rows, cols = without(edge_list(field, FIRST_WINDOW, None, band_only=True), bye)
    if 2 * len(maximum_matching(field.size, rows, cols)) == count:
        return True
    rows, cols = np.nonzero(np.triu(legal, 1))
    return 2 * len(maximum_matching(count, rows, cols)) == count


def _seated(field: Field, bye: int | None) -> np.ndarray:
    return np.array([p for p in range(field.size) if p != bye], dtype=np.int64)


def _full_graph_is_cheap(field: Field) -> bool:
    edges = int(np.count_nonzero(field.legal)) // 2
    return field.size * edges <= FULL_GRAPH_WORK


def _best_matching(
    field: Field, edges: Edges, bye: int | None, ends: int | None
) -> Matching | None:
    """The best matching on ``edges`` within the smallest cap; None if they have no
    perfect matching.

    The cap is at least the largest gap between neighbouring score groups with an
    odd number of players above it (some pair must cross it); one weighted solve
    there usually succeeds, and only if it does not is the cap searched for.
    """
    rows, cols = without(edges, bye)
    seated = np.ones(field.size, dtype=bool)
    if bye is not None:
        seated[bye] = False
    if not perfect_matching_exists(seated, rows, cols):
        return None
    differences = np.abs(field.wins[rows] - field.wins[cols])
    caps = np.unique(differences).tolist()
    least = parity_cap(field.wins[seated])
    keep = differences <= least
    if nobody_alone(seated, rows[keep], cols[keep]):
        matching = _match(field, rows[keep], cols[keep], bye, ends)
        if matching is not None:
            return matching
    failed = sum(1 for cap in caps if cap <= least) - 1
    cap = smallest_cap(seated, rows, cols, differences, caps, failed)
    keep = differences <= cap
    return _match(field, rows[keep], cols[keep], bye, ends)


def _proven_in_window(
    field: Field, edges: Edges, bye: int | None, ends: int | None
) -> Matching | None:
    """The window's best matching if its tiers 0-1 are provably the complete
    graph's, else None.

    Tier 0 was settled on the complete graph. Tier 1: an answer without floats is
    best; else the cap is its largest difference. If the window holds every legal
    pair within it, the answer is the complete graph's; if its float differences
    reach the lower bound of ``competition.float_bound``, no pairing does better.
    Else (or if the window has no perfect matching) the window gets the pairs of
    a best pairing made from the bound (``_bound_pairing``), and its answer is a
    best pairing.
    """
    matching = _best_matching(field, edges, bye, ends)
    seated = _seated(field, bye)
    caps = [np.full(field.size, cap) for cap in _caps_to_try(field.wins[seated])]
    if matching is not None:
        found = float_differences(field, matching.pairs)
        if not found:
            return matching
        caps = [player_caps(field.wins, field.legal, seated, found)]
        if _holds_every_pair(field, edges, seated, caps[0]):
            return matching
        bound = lower_bound(field.wins, field.legal, seated, caps[0])
        if bound is not None and bound.differences == found:
            return matching
    made = _bound_pairing(field, seated, caps)
    if made is None:
        return None
    matching = _best_matching(field, _joined(field.size, edges, made[1]), bye, ends)
    if matching is None or float_differences(field, matching.pairs) != made[0]:
        raise AssertionError("the window with a best pairing added found a worse one")
    return matching


def _caps_to_try(wins: np.ndarray) -> list[int]:
    """The first few differences between score groups from the parity bound up."""
    values = np.unique(wins)
    gaps = np.unique(np.abs(values[:, None] - values[None, :]))
    least = parity_cap(wins)
    return [int(gap) for gap in gaps if gap >= least][:RELAXED_CAPS]


def _bound_pairing(
    field: Field, seated: np.ndarray, caps: list[np.ndarray]
) -> tuple[tuple[int, ...], list[tuple[int, int]]] | None:
    """A best pairing made of the relaxation's best within one of ``caps``.

    Made of real players, it reaches the relaxation's lower bound for pairings
    within those caps; a best pairing is within them (they are caps no best
    pairing exceeds, or a cap no larger than this pairing's largest difference,
    which a best pairing, being no worse, does not exceed either), so this one
    is a best pairing.
    """
    for cap in caps:
        bound = lower_bound(field.wins, field.legal, seated, cap)
        made = None if bound is None else bound.pairing(field.legal)
        if bound is not None and made is not None:
            return bound.differences, made
    return None


def _joined(size: int, edges: Edges, pairs: Sequence[tuple[int, int]]) -> Edges:
    """The edges and the pairs (``a < b``), each once."""
    rows = np.concatenate([edges[0], np.array([a for a, _ in pairs], dtype=np.int64)])
    cols = np.concatenate([edges[1], np.array([b for _, b in pairs], dtype=np.int64)])
    unique = np.unique(rows * size + cols)
    return unique // size, unique % size


def _holds_every_pair(field: Field, edges: Edges, seated: np.ndarray, caps: np.ndarray) -> bool:
    """Whether ``edges`` hold every legal pair of the seated within their caps."""
    wins = field.wins[seated]
    cap = np.maximum(caps[seated][:, None], caps[seated][None, :])
    needed = np.triu(
        field.legal[np.ix_(seated, seated)] & (np.abs(wins[:, None] - wins[None, :]) <= cap), 1
    )
    held = np.zeros((field.size, field.size), dtype=bool)
    held[edges[0], edges[1]] = True
    return bool(held[np.ix_(seated, seated)][needed].all())


def _match(
    field: Field, rows: np.ndarray, cols: np.ndarray, bye: int | None, window: int | None
) -> Matching | None:
    """The best perfect matching on the given edges, or None if there is none."""
    pairs = (field.size - (bye is not None)) // 2
    differences = np.abs(field.wins[rows] - field.wins[cols])
    distance = (cols - rows) ** 2
    noise = field.noise[rows, cols]

    def lower(room: int) -> tuple[list[int], int]:
        return _lower_tiers(pairs, distance, noise, room)

    mates = best_matching(field.size, pairs, (rows, cols, differences), lower)
    if mates is None:
        return None
    return Matching(tuple(mates), bye, window, len(rows))


def _lower_tiers(
    pairs: int, distance: np.ndarray, noise: np.ndarray, room: int
) -> tuple[list[int], int]:
    """Tiers 2 and 3 per edge, packed, and their radix (at most ``room``).

    Each radix is one more than the most its tier adds up to over the pairs of a
    matching. With too little room, the noise is coarsened first, then the Monrad
    distances (right shifts): tiers 0-1 never are.
    """
    distance_shift = noise_shift = 0
    largest = int(distance.max(initial=0))
    while True:
        noise_radix = pairs * ((NOISE_RANGE - 1) >> noise_shift) + 1
        radix = noise_radix * (pairs * (largest >> distance_shift) + 1)
        if radix <= room:
            break
        if noise_radix > 1:
            noise_shift += 1
        else:
            distance_shift += 1
    costs = (distance >> distance_shift) * noise_radix + (noise >> noise_shift)
    return costs.tolist(), radix


def _left_over(field: Field) -> tuple[int, ...]:
    """Positions a maximum-cardinality matching leaves unpaired (a hint for why)."""
    rows, cols = np.nonzero(np.triu(field.legal, 1))
    if field.needs_bye:
        rows = np.concatenate([rows, np.array(field.bye_order, dtype=np.int64)])
        cols = np.concatenate([cols, np.full(len(field.bye_order), field.size)])
    mates = maximum_matching(field.size + field.needs_bye, rows, cols)
    paired = {node for pair in mates for node in pair}
    return tuple(p for p in range(field.size) if p not in paired)
