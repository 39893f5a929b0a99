"""The crib table: the mean crib for each pair of cards a player lays away.

Terms: a *throw* is the two cards one player lays away to the crib, described
by its two ranks (``low`` <= ``high``) and whether the two cards share a suit
(*suited*; never for a pair). There are 91 unsuited and 78 suited throws.

Definition (exhaustive, no sampling): for a throw, take one representative
pair of cards (any two cards with those ranks and suitedness give the same
mean, by the symmetry of the suits), then count the crib for every way the
other player can lay away two of the 50 remaining cards (C(50, 2) = 1225, all
taken as equally likely) and every starter among the 48 left after that:
58,800 cribs a throw. ``total`` is the sum of their points and ``mean`` =
``total / 58800``. The other cards of the player's own hand are not removed,
so one table serves every hand, as in Schell's published tables; unlike his,
the other player's throw is uniform rather than taken from real play.

Build it with ``python -m scoring.crib_table`` (about 15 s) which writes
``scoring/data/crib_table.csv``; ``crib_means()`` loads the shipped file.
"""

from __future__ import annotations

import csv
import io
import sys
from functools import cache
from importlib import resources
from itertools import combinations
from pathlib import Path

import numpy as np

from scoring.cards import DECK, Card
from scoring.handarray import IntArray, score_many

Throw = tuple[int, int, bool]
"""(low rank, high rank, suited)."""

FILENAME = "crib_table.csv"
COLUMNS = ("low", "high", "suited", "total", "cribs", "mean")


def throw_of(first: Card, second: Card) -> Throw:
    """The table key for two cards laid away, in either order."""
    low, high = sorted((first.rank, second.rank))
    return low, high, first.suit == second.suit


def all_throws() -> list[Throw]:
    """Every table key: 91 unsuited then 78 suited throws, ranks ascending."""
    unsuited = [(low, high, False) for low in range(1, 14) for high in range(low, 14)]
    suited = [(low, high, True) for low in range(1, 14) for high in range(low + 1, 14)]
    return unsuited + suited


def crib_points(throw: Throw) -> tuple[int, int]:
    """(total points, number of cribs) over every other throw and starter."""
    low, high, suited = throw
    mine = (Card(low, "C"), Card(high, "C" if suited else "D"))
    rest = np.array([card.index for card in DECK if card not in mine], dtype=np.int64)
    theirs = np.array(list(combinations(rest, 2)), dtype=np.int64)
    # Every (their throw, starter) pair, less the starters that are in their throw.
    their_rows = np.repeat(theirs, len(rest), axis=0)
    starters = np.tile(rest, len(theirs))
    keep = (starters != their_rows[:, 0]) & (starters != their_rows[:, 1])
    ours = np.tile([mine[0].index, mine[1].index], (int(keep.sum()), 1))
    rows = np.column_stack([ours, their_rows[keep], starters[keep]])
    points: IntArray = score_many(rows, crib=True)
    return int(points.sum()), len(points)


def build() -> str:
    """The whole table as CSV text (the exhaustive computation; about 15 s)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for throw in all_throws():
        total, cribs = crib_points(throw)
        writer.writerow([throw[0], throw[1], int(throw[2]), total, cribs, f"{total / cribs:.6f}"])
    return out.getvalue()


@cache
def crib_means() -> dict[Throw, float]:
    """The shipped table: mean crib points for each throw."""
    text = resources.files("scoring").joinpath("data", FILENAME).read_text(encoding="utf-8")
    return {
        (int(row["low"]), int(row["high"]), row["suited"] == "1"): int(row["total"])
        / int(row["cribs"])
        for row in csv.DictReader(io.StringIO(text))
    }


@cache
def rank_pair_means() -> dict[tuple[int, int], float]:
    """The table with suits ignored: the mean over all suit combinations of a rank pair.

    Of the 16 ways to give suits to two different ranks, 4 are suited.
    """
    means = crib_means()
    table = {}
    for low, high, suited in means:
        if suited:
            continue
        if low == high:
            table[low, high] = means[low, high, False]
        else:
            table[low, high] = (4 * means[low, high, True] + 12 * means[low, high, False]) / 16
    return table


def main(argv: list[str] | None = None) -> int:
    """Rebuild the table into ``scoring/data/crib_table.csv`` (or the path given)."""
    args = sys.argv[1:] if argv is None else argv
    target = Path(args[0]) if args else Path(__file__).parent / "data" / FILENAME
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(build(), encoding="utf-8")
    print(f"wrote {len(all_throws())} throws to {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
