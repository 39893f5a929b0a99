"""The play-off: single elimination among the top of the Swiss standings.

Terms used here (docs/rules.md §4.6):

- *seed*: a qualified player's place in the Swiss standings, 1 = top.
- *bracket*: the next power of two at or above the number qualified; the
  places beyond the last seed are *byes*, so with 6 qualified in a bracket of 8
  seeds 1 and 2 go straight to the second round.
- *slot*: a match's place in its round, 0 first. The winners of slots ``2i`` and
  ``2i + 1`` meet in slot ``i`` of the next round.
- *bracket order*: the seeds by slot in the usual order (8: 1 v 8, 4 v 5, 2 v 7,
  3 v 6): seeded 1 v N, 2 v N-1, ..., and the two best seeds left meet only as
  late as they can (1 and 2 only in the final, 1 to 4 not before the semi-finals).
- *high* / *low*: the better and the worse seed of a match; ``low`` None is a bye,
  and ``high`` advances.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "PlayoffPairing",
    "bracket_order",
    "bracket_size",
    "champion",
    "first_round",
    "next_round",
    "round_label",
    "seeds_of",
]


@dataclass(frozen=True)
class PlayoffPairing:
    """A match of a play-off round, by entrant ids; ``low`` None = a bye for ``high``."""

    slot: int
    high: int
    low: int | None

    @property
    def is_bye(self) -> bool:
        return self.low is None


def bracket_size(qualified: int) -> int:
    """The power of two at or above ``qualified`` (2 or more)."""
    if qualified < 2:
        raise ValueError(f"a play-off needs at least 2 players, not {qualified}")
    return 1 << (qualified - 1).bit_length()


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket position order for ``size`` (a power of two): 8 -> 1 8 4 5 2 7 3 6.

    Each doubling puts every seed ``s`` beside its new opponent ``2 x size + 1 - s``,
    which keeps the top seeds as far apart as the bracket allows.
    """
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two places, 2 or more, not {size}")
    order = [1]
    while len(order) < size:
        opponent_of = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, opponent_of - s)]
    return order


def seeds_of(qualified: Sequence[int]) -> dict[int, int]:
    """Entrant id -> seed (1 = top) for the qualified ids in seed order."""
    return {entrant: seed for seed, entrant in enumerate(qualified, start=1)}


def first_round(qualified: Sequence[int]) -> list[PlayoffPairing]:
    """The first round for the qualified ids in seed order (1st first), with byes.

    Raises ``ValueError`` for fewer than two players or an id given twice.
    """
    if len(set(qualified)) != len(qualified):
        raise ValueError("a qualified player appears twice")
    order = bracket_order(bracket_size(len(qualified)))
    pairings = []
    for slot in range(len(order) // 2):
        high, low = sorted(order[2 * slot : 2 * slot + 2])
        opponent = qualified[low - 1] if low <= len(qualified) else None
        pairings.append(PlayoffPairing(slot, qualified[high - 1], opponent))
    return pairings


def next_round(
    previous: Sequence[PlayoffPairing], winners: Mapping[int, int], *, seeds: Mapping[int, int]
) -> list[PlayoffPairing]:
    """The round after ``previous``, given the winner of each slot (``winners[slot]``).

    A bye's winner is its ``high`` and may be left out of ``winners``. ``seeds``
    maps every entrant id to its seed (``seeds_of``), which decides ``high``.
    Raises ``ValueError`` when ``previous`` was the final, its slots are not
    0, 1, 2, ..., or a winner is missing or did not play in that slot.
    """
    ordered = sorted(previous, key=lambda p: p.slot)
    if [p.slot for p in ordered] != list(range(len(ordered))):
        raise ValueError(f"the slots are not 0 to {len(ordered) - 1}")
    if len(ordered) < 2 or len(ordered) % 2:
        raise ValueError("a round of one match is the final; nothing comes after it")
    extra = set(winners) - {p.slot for p in ordered}
    if extra:
        raise ValueError(f"winners given for slots that do not exist: {sorted(extra)}")
    advancing = [_winner(pairing, winners) for pairing in ordered]
    pairings = []
    for slot in range(len(advancing) // 2):
        a, b = advancing[2 * slot], advancing[2 * slot + 1]
        high, low = sorted((a, b), key=lambda entrant: _seed(seeds, entrant))
        pairings.append(PlayoffPairing(slot, high, low))
    return pairings


def champion(final: Sequence[PlayoffPairing], winners: Mapping[int, int]) -> int:
    """The winner of the final (slot 0, the only match); ``ValueError`` if it is not one."""
    if len(final) != 1 or final[0].slot != 0:
        raise ValueError("the final is one match, in slot 0")
    return _winner(final[0], winners)


def _winner(pairing: PlayoffPairing, winners: Mapping[int, int]) -> int:
    if pairing.low is None:
        winner = winners.get(pairing.slot, pairing.high)
    elif pairing.slot not in winners:
        raise ValueError(f"slot {pairing.slot} has no winner yet")
    else:
        winner = winners[pairing.slot]
    if winner not in (pairing.high, pairing.low):
        raise ValueError(f"{winner} did not play in slot {pairing.slot}")
    return winner


def _seed(seeds: Mapping[int, int], entrant: int) -> int:
    if entrant not in seeds:
        raise ValueError(f"{entrant} has no seed")
    return seeds[entrant]


def round_label(players_left: int) -> str:
    """A code for the round with ``players_left`` places (rounded up to a power of two).

    "final", "semi_final", "quarter_final", then "round_of_16", "round_of_32", ...
    The site translates the code.
    """
    places = bracket_size(players_left)
    return {2: "final", 4: "semi_final", 8: "quarter_final"}.get(places, f"round_of_{places}")
