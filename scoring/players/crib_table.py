"""The computer players' tables: the mean crib of each throw, and the worth of a kept hand.

The *crib table* (``scoring/players/data/crib_table.csv``) gives the mean crib for
each pair of cards a player lays away. Terms: a *throw* is the two cards one
player lays away to the crib, described by its two ranks (``low`` <=
``high``) and whether the two cards share a suit (*suited*; never for a
pair). There are 91 unsuited and 78 suited throws.

Definition (exhaustive, no sampling): for a throw, take one representative
pair of cards (any two cards with those ranks and suitedness give the same
mean, by the symmetry of the suits), then count the crib for every way the
other player can lay away two of the 50 remaining cards (C(50, 2) = 1225, all
taken as equally likely) and every starter among the 48 left after that:
58,800 cribs a throw. ``total`` is the sum of their points and ``mean`` =
``total / 58800``. The other cards of the player's own hand are not removed,
so one table serves every hand, as in Schell's published tables; unlike his,
the other player's throw is uniform rather than taken from real play.

The *hand table* (``scoring/players/data/hand_table.csv``) has a row for each of
the 1,820 multisets of four ranks a player can keep, for each seat:

- ``keep``: how much likelier a sensible player is to keep those ranks than
  four cards taken at random. The sensible player weighs each of the 15
  ways to lay away two of six cards by its hand EV over the 46 starters
  plus (as dealer) or minus (as pone) the crib table with suits ignored,
  all by ranks, and picks each way with a chance proportional to
  ``exp(KEEP_SHARPNESS * total)``; the table sums that over every multiset
  of six ranks, each weighted by its number of suit choices. The expert
  uses it to tell which hands the opponent is likely to hold in the play.
- ``peg``: the mean net points in the play for a player keeping those ranks,
  against every hand the other player may keep (weighted by its suit
  choices and its ``keep``), both laying as ``pegplay.simulate_play`` does.
  The expert adds it to the value of a discard.

Build both with ``python -m scoring.tools.table_builder`` (about 15 s for the crib
table and 3 minutes on one core for the hand table; ``--jobs 2`` halves
that), which writes the two CSV files in ``scoring/players/data/``; ``crib_means()``
and ``hand_table()`` load the shipped files.
"""

from __future__ import annotations

import csv
import io
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import cache
from importlib import resources
from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from scoring.players.handarray import IntArray, score_many
from scoring.rules.cards import DECK, RANKS, Card
from scoring.rules.hand import rank_points

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
    text = resources.files("scoring.players").joinpath("data", FILENAME).read_text(encoding="utf-8")
    return parse_crib(text)


def parse_crib(text: str) -> dict[Throw, float]:
    return {
        (int(row["low"]), int(row["high"]), row["suited"] == "1"): int(row["total"])
        / int(row["cribs"])
        for row in csv.DictReader(io.StringIO(text))
    }


@cache
def rank_pair_means() -> dict[tuple[int, int], float]:
    """The table with suits ignored: the mean over all suit combinations of a rank pair."""
    return rank_pair_means_of(crib_means())


def rank_pair_means_of(means: dict[Throw, float]) -> dict[tuple[int, int], float]:
    """Of the 16 ways to give suits to two different ranks, 4 are suited."""
    table = {}
    for low, high, suited in means:
        if suited:
            continue
        if low == high:
            table[low, high] = means[low, high, False]
        else:
            table[low, high] = (4 * means[low, high, True] + 12 * means[low, high, False]) / 16
    return table


# ------------------------------------------------------------------ the hand table
HAND_FILENAME = "hand_table.csv"
HAND_COLUMNS = ("ranks", "keep_pone", "keep_dealer", "peg_pone", "peg_dealer")
KEEP_SHARPNESS = 2.0
"""How sharply the sensible player prefers the better discard, per point of total EV."""
KEEP_FLOOR = 0.02
"""The least ``keep_weight``: a hand nobody sensible keeps is still possible."""
STARTERS = 46

Ranks = tuple[int, ...]
FloatArray = npt.NDArray[np.float64]


class HandRow(NamedTuple):
    """One row of the hand table: keep weight and mean net in the play, as pone and dealer."""

    keep_pone: float
    keep_dealer: float
    peg_pone: float
    peg_dealer: float


def kept_hands() -> list[Ranks]:
    """Every multiset of four ranks, ascending: 1,820 of them."""
    return list(combinations_with_replacement(range(1, 14), 4))


def suit_choices(ranks: Sequence[int], taken: Counter[int] | None = None) -> int:
    """How many sets of cards have these ranks, with ``taken`` cards of each rank gone."""
    taken = taken or Counter()
    return math.prod(math.comb(4 - taken[r], n) for r, n in Counter(ranks).items())


def keep_shares(
    crib: dict[tuple[int, int], float],
) -> tuple[defaultdict[Ranks, float], defaultdict[Ranks, float]]:
    """How often the sensible player keeps each multiset of four ranks, as (pone, dealer)."""
    shares: tuple[defaultdict[Ranks, float], defaultdict[Ranks, float]]
    shares = (defaultdict(float), defaultdict(float))
    for six in combinations_with_replacement(range(1, 14), 6):
        dealt = Counter(six)
        if max(dealt.values()) > 4:
            continue
        ways = suit_choices(six)
        options = []
        for low, high in dict.fromkeys(combinations(six, 2)):
            four = list(six)
            four.remove(low)
            four.remove(high)
            hand = sum(
                (4 - dealt[rank]) * rank_points((*four, rank))
                for rank in range(1, 14)
                if dealt[rank] < 4
            )
            options.append((tuple(four), hand / STARTERS, crib[low, high]))
        for seat, sign in ((0, -1.0), (1, 1.0)):
            totals = [hand + sign * thrown for _, hand, thrown in options]
            best = max(totals)
            chances = [math.exp(KEEP_SHARPNESS * (total - best)) for total in totals]
            for (kept, _, _), chance in zip(options, chances, strict=True):
                shares[seat][kept] += ways * chance / sum(chances)
    return shares


def keep_ratios(hands: list[Ranks], crib: dict[tuple[int, int], float]) -> FloatArray:
    """``[seat, i]``: how often hand i is kept over how often a random four has its ranks."""
    shares = keep_shares(crib)
    total = sum(suit_choices(hand) for hand in hands)
    random_four = np.array([suit_choices(hand) / total for hand in hands])
    kept = [np.array([shares[seat][hand] for hand in hands]) for seat in (0, 1)]
    return np.array([share / share.sum() / random_four for share in kept])


def hand_ways(hands: list[Ranks]) -> FloatArray:
    """``[i, j]``: how many sets of cards have the ranks of hand j once hand i's are taken."""
    counts = np.array([[hand.count(rank) for rank in range(1, 14)] for hand in hands])
    choose = np.array([[math.comb(n, k) for k in range(5)] for n in range(5)], dtype=float)
    ways = np.ones((len(hands), len(hands)))
    for rank in range(13):
        ways *= choose[4 - counts[:, rank][:, None], counts[:, rank][None, :]]
    return ways


@cache
def hand_table() -> dict[Ranks, HandRow]:
    """The shipped hand table, by ascending ranks."""
    text = (
        resources.files("scoring.players")
        .joinpath("data", HAND_FILENAME)
        .read_text(encoding="utf-8")
    )
    return {
        tuple(sorted(RANKS.index(r) + 1 for r in row["ranks"])): HandRow(
            *(float(row[name]) for name in HAND_COLUMNS[1:])
        )
        for row in csv.DictReader(io.StringIO(text))
    }


def keep_weight(ranks: Sequence[int], *, dealer: bool) -> float:
    """How much likelier a sensible player is to keep these four ranks than a random four."""
    row = hand_table()[tuple(sorted(ranks))]
    return max(row.keep_dealer if dealer else row.keep_pone, KEEP_FLOOR)


def peg_value(ranks: Sequence[int], *, dealer: bool) -> float:
    """The mean net in the play for a player keeping these four ranks."""
    row = hand_table()[tuple(sorted(ranks))]
    return row.peg_dealer if dealer else row.peg_pone
