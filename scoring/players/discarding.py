"""Choosing the two cards to lay away: the expected value of each choice.

Terms: of the six cards dealt, a player *keeps* four (their *hand*) and
*throws* two to the crib. The *hand EV* of a choice is the exact mean show
of the kept four over the 46 starters the player cannot see (every card but
their own six is equally likely to be turned). The *crib EV* is what the two
thrown cards are expected to bring the crib, from the crib table
(``scoring.players.crib_table``); it counts for the dealer, who owns the crib, and
against the pone. The *peg EV* is the mean net the kept ranks make in the
play, from the hand table (``scoring.players.crib_table``). The *total EV* is hand EV
+ crib EV for the dealer and hand EV - crib EV for the pone, plus peg EV.

How much is known depends on the level: ``expert`` uses the crib table by
ranks and suitedness and the peg EV, ``standard`` the crib table with suits
ignored and no peg EV, and ``easy`` ignores both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from scoring.players.crib_table import crib_means, peg_value, rank_pair_means, throw_of
from scoring.players.handarray import IntArray, score_many
from scoring.rules.cards import DECK, Card

LEVELS = ("easy", "standard", "expert")
JUDGE_LEVEL = "expert"
"""The strongest level. Its reckoning is the one judge of the best play: the discard it
makes is ``analyse_discards``' first at this level, and so are the hint's and the review's;
its card in the play is ``scoring.players.pegplay.evaluate_play``'s, and so are theirs
(docs/review.md)."""
STARTERS = 46
"""The cards a player cannot see while discarding: 52 less their own six."""


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One way to lay away two of six cards, with what it is expected to be worth."""

    discard: tuple[Card, Card]
    kept: tuple[Card, Card, Card, Card]
    hand_ev: float
    crib_ev: float
    total_ev: float
    peg_ev: float = 0.0


def hand_points(six: Sequence[Card]) -> dict[tuple[Card, Card], int]:
    """For each of the 15 throws, the summed show of the kept four over the 46 starters.

    Divided by 46 this is the exact hand EV; every show is counted, none sampled.
    """
    return {throw: int(shows.sum()) for throw, shows in show_points(six).items()}


def show_points(six: Sequence[Card]) -> dict[tuple[Card, Card], IntArray]:
    """For each of the 15 throws, the show of the kept four with each of the 46 starters."""
    throws = list(combinations(six, 2))
    starters = np.array([card.index for card in DECK if card not in six], dtype=np.int64)
    kept = np.array(
        [[card.index for card in six if card not in throw] for throw in throws], dtype=np.int64
    )
    rows = np.column_stack([np.repeat(kept, len(starters), axis=0), np.tile(starters, len(throws))])
    shows = score_many(rows).reshape(len(throws), len(starters))
    return {(throw[0], throw[1]): row for throw, row in zip(throws, shows, strict=True)}


def crib_value(throw: tuple[Card, Card], *, level: str) -> float:
    """What the thrown pair is expected to bring the crib, as known at ``level``."""
    if level == "easy":
        return 0.0
    if level == "standard":
        low, high, _ = throw_of(*throw)
        return rank_pair_means()[low, high]
    return crib_means()[throw_of(*throw)]


def analyse_discards(
    six: Sequence[Card], *, dealer: bool, level: str = "expert"
) -> list[DiscardOption]:
    """Every way to lay away two of ``six``, best total EV first.

    Ties keep the order of ``combinations(six, 2)``, so the result is the same
    for the same six in the same order.
    """
    if len(six) != 6 or len(set(six)) != 6:
        raise ValueError("a discard is chosen from six different cards")
    if level not in LEVELS:
        raise ValueError(f"the level is one of {', '.join(LEVELS)}, not {level!r}")
    sign = 1.0 if dealer else -1.0
    options = []
    for throw, points in hand_points(six).items():
        hand_ev = points / STARTERS
        crib_ev = crib_value(throw, level=level)
        kept = tuple(card for card in six if card not in throw)
        assert len(kept) == 4
        peg_ev = peg_value([c.rank for c in kept], dealer=dealer) if level == "expert" else 0.0
        options.append(
            DiscardOption(
                discard=throw,
                kept=(kept[0], kept[1], kept[2], kept[3]),
                hand_ev=hand_ev,
                crib_ev=crib_ev,
                total_ev=hand_ev + sign * crib_ev + peg_ev,
                peg_ev=peg_ev,
            )
        )
    return sorted(options, key=lambda option: -option.total_ev)
