"""The weighted matching behind Swiss pairing: its cost order against a brute force,
and the windowed search against the complete graph."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import matching
from tournaments.matching import Field, Matching, Unpairable, cost_tiers, solve


def make_field(wins: Sequence[int], blocked: Sequence[tuple[int, int]], seed: int = 0) -> Field:
    """Positions in order (wins not increasing); every position may take the bye,
    the last one preferred."""
    size = len(wins)
    legal = ~np.eye(size, dtype=bool)
    for a, b in blocked:
        legal[a, b] = legal[b, a] = False
    return Field.build(sorted(wins, reverse=True), legal, list(reversed(range(size))), seed=seed)


@st.composite
def fields(draw: st.DrawFn, sizes: st.SearchStrategy[int], *, near: int | None = None) -> Field:
    """Random fields; with ``near``, many blocked pairs at most ``near`` apart in the
    order, so small score groups are often blocked and need extra floats."""
    size = draw(sizes)
    wins = draw(st.lists(st.integers(0, size // 3), min_size=size, max_size=size))
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


@settings(max_examples=200, deadline=None)
@given(fields(st.integers(1, 9)))
def test_the_matching_is_the_least_cost_one(field: Field) -> None:
    costs = [cost_tiers(field, m) for m in matchings(field)]
    if not costs:
        with pytest.raises(Unpairable):
            solve(field)
        return
    assert cost_tiers(field, solve(field)) == min(costs)


@settings(max_examples=60, deadline=None)
@given(fields(st.integers(10, 48), near=3))
def test_a_window_finds_the_same_floats_as_the_complete_graph(field: Field) -> None:
    try:
        full = solve(field, window=None)
    except Unpairable:
        with pytest.raises(Unpairable):
            solve(field, window=2)
        return
    windowed = solve(field, window=2)
    assert cost_tiers(field, windowed)[:3] == cost_tiers(field, full)[:3]


def test_a_window_reaches_across_even_groups() -> None:
    # One leader, a big even group, one trailer: the leader's one cross pair is
    # with the trailer, far outside a window of 2 along the order.
    field = make_field([3] + [2] * 20 + [0], [])
    result = solve(field, window=2)
    assert result.window == 2
    assert (0, 21) in result.pairs


def test_unpairable_names_players_left_over() -> None:
    # 0, 1 and 2 may only play 3.
    field = make_field([1, 1, 0, 0], [(0, 1), (0, 2), (1, 2)])
    with pytest.raises(Unpairable) as caught:
        solve(field)
    assert len(caught.value.unpaired) == 2
    assert set(caught.value.unpaired) <= {0, 1, 2}


def test_a_field_too_large_to_weigh_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matching, "MAX_WEIGHT_BITS", 20)
    with pytest.raises(ValueError, match="too large"):
        solve(make_field([1, 1, 0, 0], []))


@settings(max_examples=200, deadline=None)
@given(fields(st.integers(2, 9), near=3))
def test_the_lower_bound_is_never_above_the_best_pairing(field: Field) -> None:
    preferred = field.bye_order[0] if field.needs_bye else None
    costs = [cost_tiers(field, m)[1:3] for m in matchings(field) if m.bye == preferred]
    least = matching._least_floats(matching._groups(field, preferred))
    if costs and least is not None:
        assert least <= min(costs)


def test_a_blocked_group_is_proven_in_a_window() -> None:
    # The four leaders have all met: all four float, to the 1-win players below
    # (differences of 1). A window of 4 (each leader's four nearest legal opponents
    # below) holds that pairing, and the lower bound proves it best.
    leaders = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    field = make_field([2] * 4 + [1] * 20 + [0] * 16, leaders)
    result = solve(field, window=4)
    assert result.window == 4
    assert cost_tiers(field, result)[1:3] == (4, 4)
