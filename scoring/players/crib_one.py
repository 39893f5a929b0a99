"""The crib table for one card laid away: what a card brings the crib with three or four.

With three or four at the table each seat lays one card away, and the crib is that card,
three others (the other seats', with three one from the pack) and the starter. The *one
card table* (``scoring/players/data/crib_one_table.csv``) gives, for each rank laid away
and each rank of the starter, the total of the crib over every such crib, and how many
there are.

Definition (exhaustive, no sampling): take a card of the rank (any suit gives the same,
by the symmetry of the suits), then every three of the 51 other cards (C(51, 3) = 20,825,
all taken as equally likely, as the two-card crib table takes the other throw) and every
starter among the 48 left: 999,600 cribs a rank, counted by ``score_many`` as cribs (a
flush only with all five). The *mean* of a rank is the total over all its cribs by their
number; the mean *given the starter's rank* is that rank's row alone. The standard
computer lays away by the first, the expert by the second, which knows that the starter
that fills the crib is also the fifth card of its own hand (``scoring.players.discarding``).

Build it with ``python -m scoring.tools.table_builder --only one`` (some 20 s);
``crib_one_means`` loads the shipped file.
"""

from __future__ import annotations

import csv
import io
from functools import cache
from importlib import resources
from itertools import combinations

import numpy as np
import numpy.typing as npt

from scoring.players.handarray import score_many
from scoring.rules.cards import DECK, Card

ONE_FILENAME = "crib_one_table.csv"
ONE_COLUMNS = ("rank", "starter", "total", "cribs")
FloatArray = npt.NDArray[np.float64]


def one_card_points(rank: int) -> list[tuple[int, int]]:
    """For each starter rank (1-13), (total points, number of cribs) with ``rank`` laid away."""
    mine = Card(rank, "C")
    rest = np.array([card.index for card in DECK if card != mine], dtype=np.int64)
    theirs = np.array(list(combinations(rest, 3)), dtype=np.int64)
    their_rows = np.repeat(theirs, len(rest), axis=0)
    starters = np.tile(rest, len(theirs))
    keep = (starters[:, None] != their_rows).all(axis=1)
    rows = np.column_stack([np.full(int(keep.sum()), mine.index), their_rows[keep], starters[keep]])
    points = score_many(rows, crib=True)
    starter_ranks = rows[:, 4] // 4
    totals = np.bincount(starter_ranks, weights=points, minlength=13)
    counts = np.bincount(starter_ranks, minlength=13)
    return [(int(total), int(count)) for total, count in zip(totals, counts, strict=True)]


def build_one() -> str:
    """The whole table as CSV text (the exhaustive computation)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(ONE_COLUMNS)
    for rank in range(1, 14):
        for starter, (total, cribs) in enumerate(one_card_points(rank), start=1):
            writer.writerow([rank, starter, total, cribs])
    return out.getvalue()


@cache
def crib_one_means() -> tuple[FloatArray, FloatArray]:
    """The shipped table: (the mean crib of each rank laid away, ``[rank]``; the mean
    given the starter's rank, ``[rank, starter rank]``), ranks 1-13 at 1-13."""
    text = (
        resources.files("scoring.players")
        .joinpath("data", ONE_FILENAME)
        .read_text(encoding="utf-8")
    )
    return parse_one(text)


def parse_one(text: str) -> tuple[FloatArray, FloatArray]:
    totals = np.zeros((14, 14))
    cribs = np.zeros((14, 14))
    for row in csv.DictReader(io.StringIO(text)):
        rank, starter = int(row["rank"]), int(row["starter"])
        totals[rank, starter] = int(row["total"])
        cribs[rank, starter] = int(row["cribs"])
    means = totals.sum(axis=1) / np.maximum(cribs.sum(axis=1), 1)
    return means, totals / np.maximum(cribs, 1)
