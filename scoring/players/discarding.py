"""Choosing the cards to lay away: the expected value of each choice.

Terms: of the six cards dealt, a player *keeps* four (their *hand*) and
*throws* two to the crib; with three or four at the table, four of five are kept and
one thrown. The *hand EV* of a choice is the exact mean show
of the kept four over the starters the player cannot see (every card but
their own six, or five, is equally likely to be turned: 46 or 47). The *crib EV* is what
the thrown cards are expected to bring the crib, from the crib table
(``scoring.players.crib_table``, or for one card ``scoring.players.crib_one``); it counts
for the crib's side, the dealer's (with four the dealer's partner's too), and against
every other side, shared among them: with three, each of the two others' crib counts
half against (one measure for every table: a side's points less the mean of the
others'). The *peg EV* is the mean net the kept ranks make in the play of two, from the
hand table (``scoring.players.crib_table``). The *total EV* is hand EV + crib EV for the
crib's side and hand EV - crib EV for the pone of two, plus peg EV.

How much is known depends on the level: ``expert`` uses the crib table by
ranks and suitedness and the peg EV (with one card thrown, the crib by the thrown rank
and each starter's, with the hand, and no peg EV: the hand table is the play of two),
``standard`` the crib table with suits ignored (one card: its mean) and no peg EV, and
``easy`` ignores both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from scoring.players.crib_one import crib_one_means
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
"""The cards a player of two cannot see while discarding: 52 less their own six."""
KEPT = 4


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One way to lay away two of six cards (one of five), with what it is expected to be
    worth."""

    discard: tuple[Card, ...]
    kept: tuple[Card, Card, Card, Card]
    hand_ev: float
    crib_ev: float
    total_ev: float
    peg_ev: float = 0.0


def hand_points(six: Sequence[Card]) -> dict[tuple[Card, ...], int]:
    """For each throw (15 of six cards, 5 of five), the summed show of the kept four over
    the starters the player cannot see.

    Divided by their number (46, or 47) this is the exact hand EV; every show is counted,
    none sampled.
    """
    return {throw: int(shows.sum()) for throw, shows in show_points(six).items()}


def show_points(six: Sequence[Card]) -> dict[tuple[Card, ...], IntArray]:
    """For each throw, the show of the kept four with each starter the player cannot see,
    in the order of the deck."""
    throws = list(combinations(six, len(six) - KEPT))
    starters = np.array([card.index for card in DECK if card not in six], dtype=np.int64)
    kept = np.array(
        [[card.index for card in six if card not in throw] for throw in throws], dtype=np.int64
    )
    rows = np.column_stack([np.repeat(kept, len(starters), axis=0), np.tile(starters, len(throws))])
    shows = score_many(rows).reshape(len(throws), len(starters))
    return dict(zip(throws, shows, strict=True))


def crib_value(throw: tuple[Card, ...], *, level: str) -> float:
    """What the thrown pair (or card) is expected to bring the crib, as known at ``level``."""
    if level == "easy":
        return 0.0
    if len(throw) == 1:
        return float(crib_one_means()[0][throw[0].rank])
    first, second = throw
    if level == "standard":
        low, high, _ = throw_of(first, second)
        return rank_pair_means()[low, high]
    return crib_means()[throw_of(first, second)]


def analyse_discards(
    six: Sequence[Card],
    *,
    dealer: bool,
    level: str = "expert",
    sides: int = 2,
    laid_away: int = 2,
) -> list[DiscardOption]:
    """Every way to lay away two of ``six`` (one of five, with three or four at the table),
    best total EV first.

    ``dealer``: the crib is the player's side's (their own, or with four their
    partner's); ``sides``: how many sides play (2, or 3 with three players), the crib of
    another side counting against by a share of ``1 / (sides - 1)``; ``laid_away``: 2
    of six, or 1 of five (``scoring.rules.seats``).
    Ties keep the order of ``combinations(six, k)``, so the result is the same
    for the same cards in the same order.
    """
    if len(six) != KEPT + laid_away or len(set(six)) != len(six):
        dealt = "six" if laid_away == 2 else "five"
        raise ValueError(f"a discard is chosen from {dealt} different cards")
    if level not in LEVELS:
        raise ValueError(f"the level is one of {', '.join(LEVELS)}, not {level!r}")
    sign = 1.0 if dealer else -1.0 / (sides - 1)
    if len(six) == 5:
        return _one_card_options(six, sign=sign, level=level)
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


def _one_card_options(five: Sequence[Card], *, sign: float, level: str) -> list[DiscardOption]:
    """The five ways to lay one card away. The expert weighs the crib by the starter's
    rank, starter by starter with the hand: the starter that makes the crib also makes
    (or spoils) the kept four."""
    means, by_starter = crib_one_means()
    starter_ranks = np.array([card.rank for card in DECK if card not in five], dtype=np.int64)
    options = []
    for throw, shows in show_points(five).items():
        hand_ev = float(shows.mean())
        card = throw[0]
        if level == "expert":
            crib = by_starter[card.rank, starter_ranks]
            crib_ev = float(crib.mean())
            total = float((shows + sign * crib).mean())
        else:
            crib_ev = float(means[card.rank]) if level == "standard" else 0.0
            total = hand_ev + sign * crib_ev
        kept = tuple(c for c in five if c != card)
        options.append(
            DiscardOption(
                discard=throw,
                kept=(kept[0], kept[1], kept[2], kept[3]),
                hand_ev=hand_ev,
                crib_ev=crib_ev,
                total_ev=total,
            )
        )
    return sorted(options, key=lambda option: -option.total_ev)
