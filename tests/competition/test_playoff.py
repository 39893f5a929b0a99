"""The play-off bracket (docs/rules.md §4.6): seeding, byes, rounds to a champion."""

from __future__ import annotations

import pytest

from competition.playoff import (
    PlayoffPairing,
    bracket_order,
    bracket_size,
    champion,
    first_round,
    next_round,
    round_label,
    seeds_of,
)


def seeds(pairings: list[PlayoffPairing], qualified: list[int]) -> list[tuple[int, int | None]]:
    """The pairings as seed numbers, easier to read than ids."""
    seed = seeds_of(qualified)
    return [(seed[p.high], seed[p.low] if p.low is not None else None) for p in pairings]


# Ids unlike the seeds, so a test cannot pass by mixing them up.
def ids(count: int) -> list[int]:
    return [100 + 7 * n for n in range(count)]


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
        (16, [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]),
    ],
)
def test_bracket_order(size: int, order: list[int]) -> None:
    assert bracket_order(size) == order


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_the_best_seeds_meet_as_late_as_possible(size: int) -> None:
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Every first-round match adds up to size + 1 (1 v N, 2 v N-1, ...) ...
    assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2], strict=True))
    # ... and each block of the bracket holds the best seeds of its size at its
    # edges: seeds 1 and 2 in different halves, 1-4 in different quarters, ...
    block = size
    while block > 1:
        tops = [min(order[i : i + block]) for i in range(0, size, block)]
        assert sorted(tops) == list(range(1, size // block + 1))
        block //= 2


@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (2, [(1, 2)]),
        (4, [(1, 4), (2, 3)]),
        (8, [(1, 8), (4, 5), (2, 7), (3, 6)]),
        # Six in a bracket of eight: seeds 1 and 2 have byes.
        (6, [(1, None), (4, 5), (2, None), (3, 6)]),
        (3, [(1, None), (2, 3)]),
        (5, [(1, None), (4, 5), (2, None), (3, None)]),
    ],
)
def test_first_round(count: int, expected: list[tuple[int, int | None]]) -> None:
    qualified = ids(count)
    pairings = first_round(qualified)
    assert [p.slot for p in pairings] == list(range(len(expected)))
    assert seeds(pairings, qualified) == expected


def test_a_full_bracket_played_to_a_champion() -> None:
    qualified = ids(8)
    seed = seeds_of(qualified)
    s1, s2, s3, _, s5, _, s7, _ = qualified
    quarter = first_round(qualified)
    assert round_label(8) == "quarter_final"
    # Upsets: 5 beats 4 and 7 beats 2.
    semi = next_round(quarter, {0: s1, 1: s5, 2: s7, 3: s3}, seeds=seed)
    assert seeds(semi, qualified) == [(1, 5), (3, 7)]
    assert round_label(4) == "semi_final"
    final = next_round(semi, {0: s5, 1: s3}, seeds=seed)
    # Seed 3 is the better seed left, so "high" even though 5 is in slot 0.
    assert final == [PlayoffPairing(0, s3, s5)]
    assert round_label(2) == "final"
    with pytest.raises(ValueError, match="final"):
        next_round(final, {0: s5}, seeds=seed)
    assert champion(final, {0: s5}) == s5
    with pytest.raises(ValueError, match="did not play"):
        champion(final, {0: s2})
    with pytest.raises(ValueError, match="one match"):
        champion(semi, {0: s5, 1: s3})


def test_byes_advance_without_a_result() -> None:
    qualified = ids(6)
    seed = seeds_of(qualified)
    first = first_round(qualified)
    # Slots 0 and 2 are byes; their winners may be left out or given.
    second = next_round(first, {1: qualified[4], 3: qualified[2], 0: qualified[0]}, seeds=seed)
    assert seeds(second, qualified) == [(1, 5), (2, 3)]


@pytest.mark.parametrize(
    ("winners", "message"),
    [
        ({0: 999, 1: 100}, "did not play"),  # a winner who isn't in the slot
        ({0: 121}, "no winner"),  # slot 1 not decided
        ({0: 100, 1: 121, 2: 100}, "do not exist"),
    ],
)
def test_bad_winners_raise(winners: dict[int, int], message: str) -> None:
    qualified = ids(4)  # 100, 107, 114, 121: slot 0 is 100 v 121, slot 1 107 v 114
    with pytest.raises(ValueError, match=message):
        next_round(first_round(qualified), winners, seeds=seeds_of(qualified))


def test_bad_brackets_raise() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        first_round([100])
    with pytest.raises(ValueError, match="twice"):
        first_round([100, 100, 107])
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)
    with pytest.raises(ValueError, match="0 to"):
        next_round([PlayoffPairing(0, 1, 2), PlayoffPairing(2, 3, 4)], {}, seeds={})
    with pytest.raises(ValueError, match="did not play"):
        next_round([PlayoffPairing(0, 1, None), PlayoffPairing(1, 2, None)], {0: 2}, seeds={})


@pytest.mark.parametrize(
    ("players", "label"),
    [(2, "final"), (3, "semi_final"), (4, "semi_final"), (6, "quarter_final"),
     (8, "quarter_final"), (16, "round_of_16"), (20, "round_of_32"), (64, "round_of_64")],
)  # fmt: skip
def test_round_label(players: int, label: str) -> None:
    assert round_label(players) == label
    assert bracket_size(players) >= players
