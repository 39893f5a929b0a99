"""Round 1 seeded by rating (docs/rules.md §4.4, competition.seeding): the seeding order, the top
half against the bottom half, the bye to the lowest seeded, forbidden pairs kept apart with
the fewest changes, and the words; worked cases by hand, then a brute force over every
pairing of small fields. No database."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competition.pairing import (
    ByeReason,
    Entrant,
    Explanation,
    NoLegalPairing,
    PairingMethod,
    PairingResult,
    pair_round,
)
from competition.seeding import Seed, SeedingChange, draw_order, seeding_order
from tests.profiles import examples


def fresh(count: int) -> list[Entrant]:
    """``count`` entrants, ids 1 to ``count``, before round 1."""
    return [Entrant(i, 0, 1) for i in range(1, count + 1)]


def by_id(count: int) -> dict[int, float]:
    """Player 1 rated highest, then 2, ...: the seeding order is the ids'."""
    return {i: 2000.0 - 10 * i for i in range(1, count + 1)}


def seeded_pairs(order: Sequence[int]) -> tuple[tuple[int, int], ...]:
    half = len(order) // 2
    return tuple(zip(order[:half], order[half : 2 * half], strict=True))


# --- the seeding order ---------------------------------------------------------------

# (players, ratings, seed, the seeding order as groups: each group's players follow one
# another in the order of the draw; the unrated are one group, equal ratings another).
ORDERS = [
    pytest.param(
        [1, 2, 3, 4], {1: 1500, 2: 1720, 3: 1380, 4: 1610}, 1, [{2}, {4}, {1}, {3}], id="rated"
    ),
    pytest.param([5, 6, 7, 8], {}, 4, [{5, 6, 7, 8}], id="nobody-rated"),
    pytest.param([1, 2, 3, 4, 5], {4: 1400, 2: 1600}, 9, [{2}, {4}, {1, 3, 5}], id="unrated-below"),
    pytest.param(
        [1, 2, 3, 4, 5, 6], {1: 1700, 2: 1550, 3: 1550, 4: 1550, 5: 1300}, 2,
        [{1}, {2, 3, 4}, {5}, {6}], id="ties-by-the-draw",
    ),
    pytest.param(
        [11, 12, 13], {11: 1499.99, 12: 1500.0, 13: 1500.01}, 3, [{13}, {12}, {11}],
        id="fractions-count",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("players", "ratings", "seed", "groups"), ORDERS)
def test_the_seeding_order_is_by_rating_then_the_draw(
    players: list[int], ratings: dict[int, float], seed: int, groups: list[set[int]]
) -> None:
    drawn = draw_order(players, seed)
    order = [s.player for s in seeding_order(players, ratings, seed=seed)]
    assert order == [p for group in groups for p in sorted(group, key=drawn.index)]
    # Whatever order the players come in, the same seeding.
    assert order == [s.player for s in seeding_order(players[::-1], ratings, seed=seed)]


def test_each_seed_keeps_the_rating_it_was_seeded_by() -> None:
    seeding = seeding_order([1, 2, 3], {1: 1612.4, 3: 1700.0}, seed=0)
    assert seeding == (Seed(3, 1700.0), Seed(1, 1612.4), Seed(2, None))


# --- round 1: the top half against the bottom half ------------------------------------

# (field size, seed): even and odd fields, from the smallest.
FIELDS = [(2, 0), (3, 1), (4, 2), (5, 3), (8, 4), (9, 5), (16, 6), (33, 7)]


@pytest.mark.parametrize(("size", "seed"), FIELDS)
def test_round_one_pairs_the_top_half_against_the_bottom_half(size: int, seed: int) -> None:
    result = pair_round(fresh(size), seed=seed, ratings=by_id(size))
    order = list(range(1, size + 1))
    assert result.explanation.method is PairingMethod.BY_RATING
    assert result.explanation.order == tuple(order)
    assert result.pairs == seeded_pairs(order[: size - size % 2])  # 1 v n/2+1, ... in table order
    assert result.bye == (size if size % 2 else None)  # the lowest seeded
    if size % 2:
        assert result.explanation.bye is not None
        assert result.explanation.bye.reason is ByeReason.LOWEST_SEEDED
    assert result.explanation.seeding == tuple(Seed(p, 2000.0 - 10 * p) for p in order)
    assert result.explanation.seeding_changes == ()


def test_unrated_players_are_seeded_below_in_the_draw_order() -> None:
    # Six players, two rated: the rated two lead; the unrated follow as drawn, and the last
    # drawn of them has the bye in a field of seven.
    field = fresh(7)
    result = pair_round(field, seed=12, ratings={6: 1450.0, 3: 1800.0})
    unrated = [p for p in draw_order(range(1, 8), 12) if p not in (3, 6)]
    order = [3, 6, *unrated]
    assert result.explanation.order == tuple(order)
    assert result.pairs == seeded_pairs(order[:6])
    assert result.bye == unrated[-1]
    assert [s.rating for s in result.explanation.seeding] == [1800.0, 1450.0] + [None] * 5


def test_without_ratings_round_one_is_the_random_draw_it_always_was() -> None:
    field = fresh(8)
    result = pair_round(field, seed=7)
    drawn = draw_order(range(1, 9), 7)
    assert result.explanation.method is PairingMethod.RANDOM_DRAW
    assert result.pairs == tuple(zip(drawn[::2], drawn[1::2], strict=True))
    assert result.explanation.seeding == ()
    # Seeded with nobody rated: the same draw, but the halves meet.
    seeded = pair_round(field, seed=7, ratings={})
    assert seeded.pairs == seeded_pairs(drawn)


def test_later_rounds_ignore_the_ratings() -> None:
    field = [
        Entrant(1, 1, 1, frozenset({3})),
        Entrant(2, 1, 2, frozenset({4})),
        Entrant(3, 0, 3, frozenset({1})),
        Entrant(4, 0, 4, frozenset({2})),
    ]
    result = pair_round(field, seed=3, ratings={3: 2100.0, 4: 2000.0})
    assert result == pair_round(field, seed=3)
    assert result.explanation.method is PairingMethod.SWISS


# --- forbidden pairs ----------------------------------------------------------------

# Eight players seeded 1 to 8 (boards 1 v 5, 2 v 6, 3 v 7, 4 v 8), or nine (9 sits
# out): (size, forbidden, pairs, bye).
FORBIDDEN = [
    pytest.param(8, [(2, 6)], ((1, 5), (2, 7), (3, 6), (4, 8)), None, id="swap-with-board-below"),
    pytest.param(8, [(4, 8)], ((1, 5), (2, 6), (3, 8), (4, 7)), None, id="last-board-swaps-above"),
    pytest.param(
        8, [(2, 6), (2, 7)], ((1, 6), (2, 5), (3, 7), (4, 8)), None, id="below-ruled-out-too",
    ),
    pytest.param(
        8, [(1, 5), (2, 6), (3, 7), (4, 8)], ((1, 6), (2, 5), (3, 8), (4, 7)), None,
        id="every-board-forbidden",
    ),
    pytest.param(9, [(4, 9)], ((1, 5), (2, 6), (3, 7), (4, 8)), 9, id="forbidden-with-the-bye"),
    pytest.param(3, [(1, 2)], ((1, 3),), 2, id="the-bye-moves-up"),
    pytest.param(4, [(1, 3), (1, 4)], ((1, 2), (3, 4)), None, id="halves-must-meet-themselves"),
]  # fmt: skip


@pytest.mark.parametrize(("size", "forbidden", "pairs", "bye"), FORBIDDEN)
def test_forbidden_pairs_change_the_seeded_pairs_as_little_as_possible(
    size: int,
    forbidden: list[tuple[int, int]],
    pairs: tuple[tuple[int, int], ...],
    bye: int | None,
) -> None:
    apart = [frozenset(pair) for pair in forbidden]
    # Every player is rated: the seed changes nothing, not even between equal changes.
    for seed in range(12):
        result = pair_round(fresh(size), seed=seed, forbidden=apart, ratings=by_id(size))
        assert (result.pairs, result.bye) == (pairs, bye)
    seated = [p for p in range(1, size + 1) if p != bye]
    opponent = dict(pairs) | {b: a for a, b in pairs}
    moved = [
        SeedingChange(top, opponent[top], seeded)
        for top, seeded in seeded_pairs(seated)
        if opponent[top] != seeded
    ]
    assert list(result.explanation.seeding_changes) == moved


def test_the_bye_passes_over_the_lowest_seeded_when_the_rest_could_not_be_paired() -> None:
    result = pair_round(fresh(3), seed=1, forbidden=[frozenset({1, 2})], ratings=by_id(3))
    choice = result.explanation.bye
    assert choice is not None
    assert (choice.player, choice.reason, choice.passed_over_blocked) == (
        2,
        ByeReason.LOWEST_SEEDED,
        (3,),
    )


def test_no_legal_seeded_pairing_is_refused_like_a_draw() -> None:
    forbidden = [frozenset({1, 2}), frozenset({1, 3}), frozenset({1, 4})]
    with pytest.raises(NoLegalPairing) as seeded:
        pair_round(fresh(4), seed=1, forbidden=forbidden, ratings=by_id(4))
    with pytest.raises(NoLegalPairing) as drawn:
        pair_round(fresh(4), seed=1, forbidden=forbidden)
    assert (seeded.value.reason, seeded.value.players) == (drawn.value.reason, (1,))


# --- small fields: the best pairing by brute force ----------------------------------


def pairings(players: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, partner in enumerate(rest):
        for pairing in pairings([*rest[:k], *rest[k + 1 :]]):
            yield [(first, partner), *pairing]


Cost = tuple[int, int, int]


def cost(order: Sequence[int], bye: int | None, pairs: Sequence[tuple[int, int]]) -> Cost:
    """(how far up the bye is, pairs inside a half, the squared shifts): the seeding's
    first three priorities, the module docstring's ``competition.seeding``."""
    seated = [p for p in order if p != bye]
    place = {p: k for k, p in enumerate(seated)}
    half = len(seated) // 2
    spots = [sorted((place[a], place[b])) for a, b in pairs]
    inside = sum((high < half) == (low < half) for high, low in spots)
    shifts = sum((low - high - half) ** 2 for high, low in spots)
    return -order.index(bye) if bye is not None else 0, inside, shifts


def best(order: Sequence[int], forbidden: set[frozenset[int]]) -> Cost | None:
    byes: Sequence[int | None] = order[::-1] if len(order) % 2 else [None]
    found = [
        cost(order, bye, pairing)
        for bye in byes
        for pairing in pairings([p for p in order if p != bye])
        if not any(frozenset(pair) in forbidden for pair in pairing)
    ]
    return min(found, default=None)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.integers(2, 9),
    st.integers(0, 2**31),
    st.lists(st.sampled_from([1400.0, 1500.0, 1600.0, None]), min_size=9, max_size=9),
    st.lists(st.tuples(st.integers(1, 9), st.integers(1, 9)), max_size=4),
)
def test_small_fields_get_the_best_seeded_pairing(
    size: int, seed: int, ratings: list[float | None], forbidden: list[tuple[int, int]]
) -> None:
    rated = {p: r for p, r in zip(range(1, size + 1), ratings, strict=False) if r is not None}
    apart = {frozenset(pair) for pair in forbidden if pair[0] != pair[1]}
    order = [s.player for s in seeding_order(range(1, size + 1), rated, seed=seed)]
    wanted = best(order, apart)
    try:
        result = pair_round(fresh(size), seed=seed, forbidden=apart, ratings=rated)
    except NoLegalPairing:
        assert wanted is None
        return
    assert result.explanation.order == tuple(order)
    assert not any(frozenset(pair) in apart for pair in result.pairs)
    assert cost(order, result.bye, result.pairs) == wanted


# --- the explanation: kept as JSON, said in words ------------------------------------


def seeded_round() -> PairingResult:
    """Nine players, 1-6 rated (1 highest), 7-9 unrated; 2 and 6 may not meet."""
    ratings = {p: 1800.4 - 50 * p for p in range(1, 7)}
    return pair_round(fresh(9), seed=5, forbidden=[frozenset({2, 6})], ratings=ratings)


def test_the_seeding_survives_json() -> None:
    explanation = seeded_round().explanation
    data = json.loads(json.dumps(explanation.to_json()))
    assert data["method"] == "by_rating"
    assert data["seeding"][0] == {"player": 1, "rating": 1750.4}
    assert data["seeding"][-1]["rating"] is None
    assert Explanation.from_json(data) == explanation
    # Explanations stored before seeding have neither key.
    del data["seeding"], data["seeding_changes"]
    assert Explanation.from_json(data).seeding == ()
