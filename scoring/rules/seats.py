"""Who sits at the table: two, three or four seats, and the sides that keep a score.

Terms (docs/rules.md §7): seats are numbered clockwise from 0, so the seat on the *left*
of seat s is s + 1 (round the table). A *side* keeps one score and wins or loses as one:
each player alone with two or three seats, a *partnership* of the two seats opposite
each other with four (seats 0 and 2 are side 0, seats 1 and 3 side 1). The dealer deals
``dealt`` cards to each seat, one at a time from their left, and ``from_pack`` straight
to the crib; each seat lays ``laid_away`` of them away, so that every hand and the crib
hold four. Everything that differs between two, three and four at a table is in a
``Seating``; the rules (``scoring.rules.game``) read it and have no case of their own.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules.events import WINNING_SCORE

HAND = 4
"""Cards in every hand after the lay-away, and in the crib."""
TARGETS = (61, 91, WINNING_SCORE)
"""The game lengths the rules know: 121, or 61 and 91 for practice (docs/rules.md §7)."""


@dataclass(frozen=True, slots=True)
class Seating:
    """How many sit at the table and how the cards and the scores are shared among them."""

    seats: int
    dealt: int
    """Cards dealt to each seat."""
    laid_away: int
    """Cards each seat lays away to the crib."""
    from_pack: int
    """Cards the dealer deals straight to the crib."""
    side_of: tuple[int, ...]
    """Each seat's side (the score it pegs on)."""
    cutters: int
    """Seats 0 to ``cutters`` - 1 cut for first deal (with four, one of each partnership)."""

    @property
    def sides(self) -> int:
        return max(self.side_of) + 1

    def left_of(self, seat: int) -> int:
        """The next seat clockwise."""
        return (seat + 1) % self.seats

    def round_from(self, dealer: int) -> tuple[int, ...]:
        """Every seat from the dealer's left clockwise, the dealer last: who is dealt to,
        lays away, plays and shows in that order."""
        return tuple((dealer + step) % self.seats for step in range(1, self.seats + 1))

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(seat for seat in range(self.seats) if self.side_of[seat] == side)

    def deal_size(self) -> int:
        """Cards taken from the shuffled pack for a deal, the starter included."""
        return self.seats * self.dealt + self.from_pack + 1


SEATINGS = {
    2: Seating(seats=2, dealt=6, laid_away=2, from_pack=0, side_of=(0, 1), cutters=2),
    3: Seating(seats=3, dealt=5, laid_away=1, from_pack=1, side_of=(0, 1, 2), cutters=3),
    4: Seating(seats=4, dealt=5, laid_away=1, from_pack=0, side_of=(0, 1, 0, 1), cutters=2),
}
"""The three tables the rules know, by the number of seats."""
TWO = SEATINGS[2]


def seating(seats: int) -> Seating:
    """The seating of ``seats`` players; ``ValueError`` for any number but 2, 3 or 4."""
    try:
        return SEATINGS[seats]
    except (KeyError, TypeError):
        raise ValueError(f"cribbage is played by 2, 3 or 4 seats, not {seats!r}") from None


def check_target(target: int) -> int:
    if target not in TARGETS or isinstance(target, bool):
        raise ValueError(f"a game is played to 61, 91 or 121 points, not {target!r}")
    return target
