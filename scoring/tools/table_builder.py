"""Rebuilding the computer players' tables (``scoring.players.crib_table``, ``pegplay``).

``python -m scoring.tools.table_builder [--only crib|hands|lead|one] [--jobs N]`` writes into
``scoring/players/data/``, where the players read them:

- the crib table: the exhaustive mean crib of every throw;
- the hand table: how likely each kept hand is, and its mean net in the play
  (by ``pegplay.simulate_play``);
- the lead table: the expert's search at the first card of the play, for every two
  fours of ranks (some 14 processor minutes: 8.5 minutes with ``--jobs 2`` on two cores);
- the one card table: the exhaustive mean crib of one card laid away, with three or four
  at the table, by the starter's rank (some 20 s).

The definitions are in ``scoring.players.crib_table``, ``scoring.players.crib_one`` and
``scoring.players.pegplay``.
"""

from __future__ import annotations

import argparse
import csv
import io
import lzma
from collections import Counter
from collections.abc import Sequence
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from scoring.players.crib_one import ONE_FILENAME, build_one
from scoring.players.crib_table import (
    FILENAME,
    HAND_COLUMNS,
    HAND_FILENAME,
    KEEP_FLOOR,
    Ranks,
    all_throws,
    build,
    hand_ways,
    keep_ratios,
    kept_hands,
    parse_crib,
    rank_pair_means_of,
    suit_choices,
)
from scoring.players.pegplay import LEAD_FILENAME, LEAD_HANDS, lead_row, simulate_play
from scoring.rules.cards import RANKS


def _peg_row(pone: Ranks) -> list[int]:
    taken = Counter(pone)
    return [
        simulate_play(pone, dealer) if suit_choices(dealer, taken) else 0 for dealer in kept_hands()
    ]


def build_hands(crib: dict[tuple[int, int], float], jobs: int = 1) -> str:
    """The hand table as CSV text; ``crib`` is the crib table with suits ignored."""
    hands = kept_hands()
    keep = keep_ratios(hands, crib)
    if jobs > 1:
        with get_context("spawn").Pool(jobs) as pool:
            rows = pool.map(_peg_row, hands, chunksize=20)
    else:
        rows = [_peg_row(hand) for hand in hands]
    net = np.array(rows, dtype=np.float64)  # the pone's net, pone's hand by dealer's
    ways = hand_ways(hands)
    pone_weights = ways * np.maximum(keep[1], KEEP_FLOOR)[None, :]
    dealer_weights = ways * np.maximum(keep[0], KEEP_FLOOR)[None, :]
    peg_pone = (pone_weights * net).sum(axis=1) / pone_weights.sum(axis=1)
    peg_dealer = -(dealer_weights * net.T).sum(axis=1) / dealer_weights.sum(axis=1)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HAND_COLUMNS)
    for index, hand in enumerate(hands):
        numbers = (keep[0, index], keep[1, index], peg_pone[index], peg_dealer[index])
        writer.writerow(["".join(RANKS[r - 1] for r in hand), *(f"{x:.6f}" for x in numbers)])
    return out.getvalue()


def build_lead(jobs: int = 1) -> bytes:
    """The lead table, compressed as shipped (``pegplay.lead_table`` reads it)."""
    if jobs > 1:
        with get_context("spawn").Pool(jobs) as pool:
            rows = pool.map(lead_row, LEAD_HANDS, chunksize=8)
    else:
        rows = [lead_row(hand) for hand in LEAD_HANDS]
    return lzma.compress(b"".join(rows), preset=9)


def main(argv: Sequence[str] | None = None) -> int:
    """Rebuild the crib table and the hand table into ``scoring/players/data/`` (or ``--data``)."""
    parser = argparse.ArgumentParser(
        prog="python -m scoring.tools.table_builder",
        description="Rebuild the computer players' tables.",
    )
    parser.add_argument(
        "--only", choices=("crib", "hands", "lead", "one"), help="rebuild one table only"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes for the hand and lead tables"
    )
    parser.add_argument(
        "--data", type=Path, default=Path(__file__).parent.parent / "players" / "data"
    )
    args = parser.parse_args(argv)
    args.data.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "crib"):
        (args.data / FILENAME).write_text(build(), encoding="utf-8")
        print(f"wrote {len(all_throws())} throws to {args.data / FILENAME}")
    if args.only in (None, "one"):
        (args.data / ONE_FILENAME).write_text(build_one(), encoding="utf-8")
        print(f"wrote 13 x 13 ranks and starters to {args.data / ONE_FILENAME}")
    if args.only in (None, "lead"):
        (args.data / LEAD_FILENAME).write_bytes(build_lead(args.jobs))
        print(f"wrote {len(LEAD_HANDS) ** 2} pairs of fours to {args.data / LEAD_FILENAME}")
    if args.only in (None, "hands"):
        crib = rank_pair_means_of(parse_crib((args.data / FILENAME).read_text(encoding="utf-8")))
        (args.data / HAND_FILENAME).write_text(build_hands(crib, args.jobs), encoding="utf-8")
        print(f"wrote {len(kept_hands())} hands to {args.data / HAND_FILENAME}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
