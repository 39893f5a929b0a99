"""The weighted matching behind Swiss pairing: its cost order against a brute force,
the lower bound against the best pairing, and the windowed search against the
complete graph."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from competition import float_bound, lexicographic, matching, window
from competition.field import Field
from competition.matching import Matching, Unpairable, cost_tiers, solve
from tests.profiles import examples


def make_field(wins: Sequence[int], blocked: Sequence[tuple[int, int]], seed: int = 0) -> Field:
    """Positions in order (wins not increasing); every position may take the bye,
    the last one preferred."""
    size = len(wins)
    legal = ~np.eye(size, dtype=bool)
    for a, b in blocked:
        legal[a, b] = legal[b, a] = False
    return Field.build(sorted(wins, reverse=True), legal, list(reversed(range(size))), seed=seed)


@st.composite
def fields(
    draw: st.DrawFn, sizes: st.SearchStrategy[int], *, near: int | None = None, spread: int = 3
) -> Field:
    """Random fields: win counts up to ``size // spread``, and blocked pairs (earlier
    meetings or forbidden pairs); with ``near``, many blocked pairs at most ``near``
    apart in the order, so small score groups are often blocked."""
    size = draw(sizes)
    wins = draw(st.lists(st.integers(0, size // spread), min_size=size, max_size=size))
    first = st.integers(0, size - 1)
    if near is None:
        pairs = st.tuples(first, first)
    else:
        pairs = st.tuples(first, st.integers(1, near)).map(
            lambda p: (p[0], min(p[0] + p[1], size - 1))
        )
    blocked = [(a, b) for a, b in draw(st.lists(pairs, max_size=3 * size)) if a != b]
    return make_field(wins, blocked, draw(st.integers(0, 2**31)))


def matchings(field: Field) -> Iterator[Matching]:
    """Every perfect matching of the legal pairs, with each possible bye."""
    everyone = list(range(field.size))
    byes: list[int | None] = list(field.bye_order) if field.needs_bye else [None]
    for bye in byes:
        for pairs in _pairings([p for p in everyone if p != bye], field.legal):
            yield Matching(tuple(pairs), bye, None, 0)


def _pairings(players: list[int], legal: np.ndarray) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, partner in enumerate(rest):
        if legal[first, partner]:
            for more in _pairings(rest[:k] + rest[k + 1 :], legal):
                yield [(first, partner), *more]


def differences_largest_first(field: Field, pairs: Sequence[tuple[int, int]]) -> list[int]:
    """Written out here, not taken from the module: the multiset of differences."""
    return sorted((abs(int(field.wins[a] - field.wins[b])) for a, b in pairs), reverse=True)


@settings(max_examples=examples(300), deadline=None)
@given(fields(st.integers(1, 10), spread=2))
def test_brute_force_agrees_on_the_differences_largest_first(field: Field) -> None:
    # Among the pairings with the best bye, none has a smaller multiset of win
    # differences compared largest first (the rule of docs/rules.md §4.4).
    everything = list(matchings(field))
    if not everything:
        with pytest.raises(Unpairable):
            solve(field)
        return
    result = solve(field)
    best_bye = min(field.bye_order.index(m.bye) if m.bye is not None else 0 for m in everything)
    assert (field.bye_order.index(result.bye) if result.bye is not None else 0) == best_bye
    same_bye = [m for m in everything if m.bye == result.bye]
    best = min(_without_zeros(differences_largest_first(field, m.pairs)) for m in same_bye)
    assert _without_zeros(differences_largest_first(field, result.pairs)) == best


def _without_zeros(differences: list[int]) -> list[int]:
    return [d for d in differences if d]


@settings(max_examples=examples(200), deadline=None)
@given(fields(st.integers(1, 9)))
def test_the_matching_is_the_least_cost_one(field: Field) -> None:
    costs = [cost_tiers(field, m) for m in matchings(field)]
    if not costs:
        with pytest.raises(Unpairable):
            solve(field)
        return
    assert cost_tiers(field, solve(field)) == min(costs)


@pytest.mark.parametrize(
    ("wins", "differences"),
    [
        ([2, 1, 1, 0], (1, 1)),  # docs/rules.md §4.4: 2 v 1 and 1 v 0, not 2 v 0 and 1 v 1
        ([3, 2, 2, 2, 2, 0], (2, 1)),  # a chain of two beats one float three apart
        ([3, 3, 3, 2, 1, 1, 1, 0], (1, 1)),  # 3 v 2 and 1 v 0
        ([1, 1, 1, 1], ()),
    ],
)
def test_worked_costs(wins: list[int], differences: tuple[int, ...]) -> None:
    field = make_field(wins, [])
    assert cost_tiers(field, solve(field))[1] == differences


POOLING = {"default": None, "all pooled": 1, "threes pooled": 3}


@contextmanager
def pooled(smallest: int | None) -> Iterator[None]:
    """The bound as it runs, or with groups of ``smallest`` players or more pooled
    whatever their rematches, to test the token cap on small fields."""
    saved = float_bound.MIN_POOL, float_bound.OUTLIER_PARTNERS
    if smallest is not None:
        float_bound.MIN_POOL, float_bound.OUTLIER_PARTNERS = smallest, 0
    try:
        yield
    finally:
        float_bound.MIN_POOL, float_bound.OUTLIER_PARTNERS = saved


@pytest.mark.parametrize("pooling", POOLING)
@settings(max_examples=examples(150), deadline=None)
@given(field=fields(st.integers(2, 10), near=3, spread=2))
def test_the_lower_bound_is_never_above_the_best_pairing(field: Field, pooling: str) -> None:
    try:
        bye = matching.best_bye(field)
    except Unpairable:
        return
    possible = [
        tuple(_without_zeros(differences_largest_first(field, m.pairs)))
        for m in matchings(field)
        if m.bye == bye
    ]
    best = min(possible)
    seated = np.array([p for p in range(field.size) if p != bye], dtype=np.int64)
    peeled = window.player_caps(field.wins, field.legal, seated, best)
    uniform = {best[0] if best else 0, (best[0] if best else 0) + 1, field.size}
    for caps in [peeled, *(np.full(field.size, cap) for cap in uniform)]:
        with pooled(POOLING[pooling]):
            bound = float_bound.lower_bound(field.wins, field.legal, seated, caps)
        assert bound is not None
        assert bound.differences <= best
        pairing = bound.pairing(field.legal)
        if pairing is not None:
            # Made from the relaxation, it is a legal pairing of the seated players
            # reaching the bound: a best one.
            assert sorted(p for pair in pairing for p in pair) == seated.tolist()
            assert all(field.legal[a, b] for a, b in pairing)
            assert tuple(_without_zeros(differences_largest_first(field, pairing))) == (
                bound.differences
            )


@pytest.mark.parametrize("pooling", POOLING)
@settings(max_examples=examples(60), deadline=None)
@given(field=fields(st.integers(10, 48), near=3))
def test_a_window_finds_the_same_floats_as_the_complete_graph(field: Field, pooling: str) -> None:
    try:
        full = solve(field, window=None)
    except Unpairable:
        with pytest.raises(Unpairable), pooled(POOLING[pooling]):
            solve(field, window=2)
        return
    with pooled(POOLING[pooling]):
        windowed = solve(field, window=2)
    assert cost_tiers(field, windowed)[:2] == cost_tiers(field, full)[:2]


def test_a_window_reaches_across_even_groups() -> None:
    # One leader, a big even group, one trailer: the leader floats into the group
    # and one of the group floats to the trailer, two wins down, far outside a
    # band of 2 along the order.
    field = make_field([3] + [2] * 20 + [0], [])
    result = solve(field, window=2)
    assert cost_tiers(field, result)[1] == (2, 1)
    assert (0, 1) in result.pairs
    assert any(j == 21 for _, j in result.pairs)


def test_unpairable_names_players_left_over() -> None:
    # 0, 1 and 2 may only play 3.
    field = make_field([1, 1, 0, 0], [(0, 1), (0, 2), (1, 2)])
    with pytest.raises(Unpairable) as caught:
        solve(field)
    assert len(caught.value.unpaired) == 2
    assert set(caught.value.unpaired) <= {0, 1, 2}


def test_a_field_too_large_to_weigh_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not even one level (up to 2 pairs one win apart: radix 3) fits in one bit.
    monkeypatch.setattr(lexicographic, "MAX_WEIGHT_BITS", 1)
    with pytest.raises(ValueError, match="too many to weigh"):
        solve(make_field([2, 1, 1, 0], []))


def test_little_room_coarsens_the_order_but_never_the_floats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(5)
    wins = sorted(rng.integers(0, 12, size=60).tolist(), reverse=True)
    field = make_field(wins, [(int(a), int(a) + 1) for a in rng.integers(0, 59, size=40)])
    exact = cost_tiers(field, solve(field))
    monkeypatch.setattr(lexicographic, "MAX_WEIGHT_BITS", 16)
    coarse = cost_tiers(field, solve(field))
    assert coarse[:2] == exact[:2]


@contextmanager
def weight_bits(bits: int) -> Iterator[None]:
    saved = lexicographic.MAX_WEIGHT_BITS
    lexicographic.MAX_WEIGHT_BITS = bits
    try:
        yield
    finally:
        lexicographic.MAX_WEIGHT_BITS = saved


@settings(max_examples=examples(200), deadline=None)
@given(fields(st.integers(2, 10), spread=1), st.integers(8, 12))
def test_levels_settled_in_stages_agree_with_the_brute_force(field: Field, bits: int) -> None:
    # So few bits that the levels (win counts up to 10 apart) are settled a few
    # at a time, and the Monrad order and tie-break are coarsened away. (Each
    # level in use keeps a bit at least; five pairs and an open level fit in 8.)
    everything = list(matchings(field))
    if not everything:
        return
    with weight_bits(bits):
        result = solve(field)
    same_bye = [m for m in everything if m.bye == result.bye]
    best = min(_without_zeros(differences_largest_first(field, m.pairs)) for m in same_bye)
    assert _without_zeros(differences_largest_first(field, result.pairs)) == best


def test_a_far_outlier_among_one_player_groups() -> None:
    # 60 players on 59, 58, ..., 0 wins; the one on 30 may meet only the two at
    # the ends, 29 and 30 wins away: 30 levels, too many to pack at once.
    size = 60
    field = make_field(list(range(size)), [(29, p) for p in range(1, size - 1) if p != 29])
    for k in (None, 3):
        differences = cost_tiers(field, solve(field, window=k))[1]
        assert differences[0] == 29
        assert differences[1:] == (1,) * 28 + (2,) or differences[1:].count(29) == 0
    assert cost_tiers(field, solve(field, window=3))[1] == cost_tiers(field, solve(field))[1]


def test_a_blocked_group_is_proven_in_a_window() -> None:
    # The four leaders have all met: all four float, to the 1-win players below
    # (differences of 1). A window of 4 holds that pairing, and the lower bound
    # proves it best.
    leaders = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    field = make_field([2] * 4 + [1] * 20 + [0] * 16, leaders)
    result = solve(field, window=4)
    assert result.window == 4
    assert cost_tiers(field, result)[1] == (1, 1, 1, 1)


def test_big_groups_are_proven_by_the_bound_not_the_complete_graph() -> None:
    # 300 players in five groups, two of them odd: the window holds few of the pairs within the
    # cap, so only the lower bound (with pooled groups) can prove it.
    wins = [4] * 21 + [3] * 80 + [2] * 99 + [1] * 80 + [0] * 20
    field = make_field(wins, [(p, p + 1) for p in range(0, 300, 2)])
    result = solve(field, window=6)
    assert result.window == 6
    assert result.edges < 300 * 40
    assert cost_tiers(field, result)[1] == (1, 1)


def test_distinct_score_groups_pair_neighbours() -> None:
    # Everyone on a different number of wins, neighbours 0-1, 2-3, ... have met:
    # the best is one pair one win apart at the top and bottom, the rest two
    # apart, with no difference beyond.
    size = 40
    met = [(p, p + 1) for p in range(0, size, 2)]
    field = make_field(list(range(size)), met)
    result = solve(field, window=3)
    differences = cost_tiers(field, result)[1]
    full = cost_tiers(field, solve(field, window=None))[1]
    assert differences == full
    assert max(differences) == 2


@st.composite
def level_graphs(draw: st.DrawFn) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Random graphs on an even number of nodes, each edge with a level 0-12."""
    size = draw(st.sampled_from([2, 4, 6, 8, 10]))
    every = [(a, b) for a in range(size) for b in range(a + 1, size)]
    chosen = draw(st.lists(st.sampled_from(every), min_size=1, unique=True))
    levels = draw(st.lists(st.integers(0, 12), min_size=len(chosen), max_size=len(chosen)))
    rows = np.array([a for a, _ in chosen], dtype=np.int64)
    cols = np.array([b for _, b in chosen], dtype=np.int64)
    return size, rows, cols, np.array(levels, dtype=np.int64)


@settings(max_examples=examples(300), deadline=None)
@given(level_graphs(), st.integers(4, 8))
def test_levels_in_stages_against_a_brute_force(
    graph: tuple[int, np.ndarray, np.ndarray, np.ndarray], bits: int
) -> None:
    size, rows, cols, levels = graph
    level = {(a, b): int(d) for a, b, d in zip(rows, cols, levels, strict=True)}
    legal = np.zeros((size, size), dtype=bool)
    legal[rows, cols] = legal[cols, rows] = True
    possible = [
        sorted((level[pair] for pair in pairs if level[pair]), reverse=True)
        for pairs in _pairings(list(range(size)), legal)
    ]
    try:
        with weight_bits(bits):
            found = lexicographic.best_matching(size, size // 2, (rows, cols, levels))
    except ValueError:
        assume(False)  # the levels in use alone fill the few bits given
        return
    if not possible:
        assert found is None
        return
    assert found is not None
    assert sorted((level[pair] for pair in found if level[pair]), reverse=True) == min(possible)


@settings(max_examples=examples(300), deadline=None)
@given(fields(st.integers(2, 10), spread=1), st.data())
def test_peeled_caps_hold_for_every_best_pairing(field: Field, data: st.DataObject) -> None:
    # From any legal pairing's differences (a best one is no worse), the caps
    # computed by peeling forced floaters never cut off a best pairing.
    everything = list(matchings(field))
    if not everything:
        return
    bye = matching.best_bye(field)
    same_bye = [m for m in everything if m.bye == bye]
    some = data.draw(st.sampled_from(same_bye))
    found = tuple(_without_zeros(differences_largest_first(field, some.pairs)))
    seated = np.array([p for p in range(field.size) if p != bye], dtype=np.int64)
    caps = window.player_caps(field.wins, field.legal, seated, found)
    best = min(_without_zeros(differences_largest_first(field, m.pairs)) for m in same_bye)
    for m in same_bye:
        if _without_zeros(differences_largest_first(field, m.pairs)) == best:
            for a, b in m.pairs:
                assert abs(int(field.wins[a] - field.wins[b])) <= max(caps[a], caps[b])


def test_a_forced_floater_is_peeled() -> None:
    # Everyone on a different number of wins (19 at position 0 down to 0); the
    # player on 10 may meet only the one on 19, so every pairing has that pair
    # nine apart, and the rest pair one apart: the others' cap is 1.
    field = make_field(list(range(20)), [(9, p) for p in range(1, 20) if p != 9])
    found = cost_tiers(field, solve(field))[1]
    assert found == (9,) + (1,) * 9
    caps = window.player_caps(field.wins, field.legal, np.arange(20), found)
    assert caps[9] == 9
    assert caps[[p for p in range(20) if p != 9]].tolist() == [1] * 19
