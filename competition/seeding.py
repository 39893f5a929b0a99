"""Round 1 seeded by rating: the seeding order, and its top half against its bottom half.

docs/rules.md §4.4 lets the organiser pair round 1 by rating instead of by a random draw.
Plain Python over player ids and pairing positions; ``competition.pairing`` calls it.

Terms used here:

- *draw order*: the players' ids sorted, then shuffled with ``random.Random(seed)``:
  round 1's random draw, and here the order of the players no rating can order.
- *unrated*: a player without a rating on the club's list (no rated match yet).
- *seeding order*: the rated players by rating, highest first, equal ratings in the
  draw order; then the unrated, in the draw order. A player's *place* in it counts
  from 1; in ``seeded_matching`` positions are places less one.
- *halves*: of the players paired (the bye left out) the first half of the seeding
  order is the *top half*, the rest the *bottom half*. A *board* is a place in the
  top half. The *seeded pairs* put board ``i`` against the ``i``-th of the bottom
  half: 1 v n/2+1, 2 v n/2+2, ...
- *bye*: with an odd number of players the lowest in the seeding order sits out (the
  lowest-ranked player), or, if their bye leaves no legal pairing of the rest, the
  lowest whose bye does.

Forbidden pairs are the only illegal pairs of round 1. They are kept apart by the
pairing nearest the seeded pairs, judged in this order: the fewest pairs inside a
half; then the smallest sum of squared *shifts* (how many places a player's opponent
is from their seeded opponent: swapping the bottom players of two neighbouring boards
costs 1 + 1); then the changed boards as low as possible, so the top boards stay as
seeded; then a tie-break drawn from the seed. A forbidden seeded pair therefore swaps
its bottom player with the next board's, or the board's above when that is ruled out.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from competition.field import NOISE_RANGE, Field
from competition.lexicographic import best_matching
from competition.matching import Matching, best_bye


@dataclass(frozen=True, slots=True)
class Seed:
    """A player's line in the seeding order: their rating then, ``None`` if unrated."""

    player: int
    rating: float | None


@dataclass(frozen=True, slots=True)
class SeedingChange:
    """A board whose player meets ``opponent`` instead of ``seeded`` (forbidden pairs)."""

    player: int
    opponent: int
    seeded: int


def draw_order(players: Iterable[int], seed: int) -> list[int]:
    """The ids sorted and shuffled by ``seed``: whatever order they come in, the same draw."""
    draw = sorted(players)
    random.Random(seed).shuffle(draw)
    return draw


def seeding_order(
    players: Iterable[int], ratings: Mapping[int, float], *, seed: int
) -> tuple[Seed, ...]:
    """The seeding order of ``players``; ``ratings`` (by id) leaves out the unrated."""
    drawn_at = {player: place for place, player in enumerate(draw_order(players, seed))}
    rated = sorted(
        (player for player in drawn_at if player in ratings),
        key=lambda player: (-ratings[player], drawn_at[player]),
    )
    unrated = [player for player in drawn_at if player not in ratings]
    return tuple(
        [Seed(player, ratings[player]) for player in rated]
        + [Seed(player, None) for player in unrated]
    )


def seeded_matching(field: Field) -> Matching:
    """The pairs of ``field`` (positions in the seeding order) nearest the seeded pairs.

    The bye is the first of ``field.bye_order`` whose bye leaves a legal pairing
    (``competition.matching.best_bye``); the pairs follow the module docstring's
    order. Raises ``competition.matching.Unpairable`` when no legal pairing exists.
    """
    bye = best_bye(field)
    seated = np.array([p for p in range(field.size) if p != bye], dtype=np.int64)
    half = len(seated) // 2
    place = np.full(field.size, -1, dtype=np.int64)
    place[seated] = np.arange(len(seated))
    rows, cols = np.nonzero(np.triu(field.legal, 1))
    keep = (place[rows] >= 0) & (place[cols] >= 0)
    rows, cols = rows[keep].astype(np.int64), cols[keep].astype(np.int64)
    high, low = place[rows], place[cols]
    inside_a_half = ((high < half) == (low < half)).astype(np.int64)
    shift = (low - high - half) ** 2
    # A changed board weighs more the higher it is; a pair inside the bottom half has none.
    board = np.where((low - high != half) & (high < half), half - high, 0)
    noise = field.noise[rows, cols]

    def lower(room: int) -> tuple[list[int], int]:
        noise_radix = half * (NOISE_RANGE - 1) + 1
        board_radix = half * half + 1
        radix = noise_radix * board_radix * (half * int(shift.max(initial=0)) + 1)
        if radix > room:
            raise ValueError(f"{half} boards are too many to weigh exactly")
        costs = (shift * board_radix + board) * noise_radix + noise
        return costs.tolist(), radix

    mates = best_matching(field.size, half, (rows, cols, inside_a_half), lower)
    if mates is None:  # best_bye found a legal pairing of the rest
        raise AssertionError("the seeded field has no perfect matching after its bye")
    return Matching(tuple(mates), bye, None, len(rows))


def seeding_changes(
    seated: Sequence[int], pairs: Iterable[tuple[int, int]]
) -> tuple[SeedingChange, ...]:
    """The boards of ``seated`` (the seeding order less the bye) not paired as seeded."""
    paired = list(pairs)
    opponent = dict(paired) | {b: a for a, b in paired}
    half = len(seated) // 2
    return tuple(
        SeedingChange(player, opponent[player], seeded)
        for player, seeded in zip(seated[:half], seated[half:], strict=True)
        if opponent[player] != seeded
    )
