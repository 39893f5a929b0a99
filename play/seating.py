"""The seats of a table of three or four as a reader sees them, named from where they sit.

Terms (docs/rules.md §7): seats are numbered clockwise, so the seat after the reader's is
on their *left*; with four, the seat across the table is their *partner* and the two
others, *left* and *right*, the other partnership. A *side* keeps one score: each player
with three, each partnership with four. The names are the reader's language's, made when
asked (``table_seats``), so that a practice game and, later, a table of members share them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from play.board import CardFace, face
from play.narration import Seats
from scoring.rules.game import Game
from scoring.rules.seats import seating


def seat_names(seats: int, *, viewer: int = 0) -> tuple[str, ...]:
    """Each seat's name as ``viewer`` sees the table: "You", "Left", ("Partner"), "Right"."""
    relative = {
        3: (_("You"), _("Left"), _("Right")),
        4: (_("You"), _("Left"), _("Partner"), _("Right")),
    }[seats]
    return tuple(relative[(seat - viewer) % seats] for seat in range(seats))


def side_names(seats: int, *, viewer: int = 0) -> tuple[str, ...]:
    """Each side's name: the seats' own with three; with four "You and your partner" and
    "Left and Right", the reader's partnership first or second as its side is."""
    if seats == 3:
        return seat_names(seats, viewer=viewer)
    ours, theirs = _("You and your partner"), _("Left and Right")
    return (ours, theirs) if viewer % 2 == 0 else (theirs, ours)


def member_sides(names: tuple[str, ...], *, viewer: int | None) -> tuple[str, ...]:
    """Each side's name at a table of members (``names`` by seat): with three, each
    player's, "You" for the reader's; with four, each partnership's two names, the reader's
    "You and <partner>" (a spectator reads every name)."""
    if len(names) == 3:
        return tuple(_("You") if seat == viewer else name for seat, name in enumerate(names))
    sides = []
    for side in (0, 1):
        first, second = side, side + 2
        if viewer in (first, second):
            partner = second if viewer == first else first
            sides.append(_("You and %(name)s") % {"name": names[partner]})
        else:
            pair = {"first": names[first], "second": names[second]}
            sides.append(_("%(first)s and %(second)s") % pair)
    return tuple(sides)


def table_seats(seats: int, *, viewer: int = 0) -> Seats:
    """The narration's seats of a table of three or four, read from ``viewer``'s seat."""
    return Seats(
        viewer=viewer,
        names=seat_names(seats, viewer=viewer),
        side_of=seating(seats).side_of,
        side_names=side_names(seats, viewer=viewer),
    )


@dataclass(frozen=True)
class SeatView:
    """One seat of a table of three or four as the reader sees it: its name, how many cards
    it holds (face down but the reader's), the cards it laid in this deal's play, whether it
    deals, whether the game waits for it, and whether it is the reader's or their partner's."""

    seat: int
    name: str
    holds: int
    laid: list[CardFace]
    dealer: bool
    to_move: bool
    mine: bool
    partner: bool

    @property
    def backs(self) -> range:
        return range(self.holds)


@dataclass(frozen=True)
class SideView:
    """One side's score (a player, or a partnership of four): its name and pegs."""

    side: int
    name: str
    score: int
    previous: int
    mine: bool


def seat_views(game: Game, seats: Seats, *, viewer: int | None) -> list[SeatView]:
    """Every seat but ``viewer``'s, from their left round the table (every seat, seat 0
    first, for a spectator)."""
    count = game.seats
    if viewer is None:
        order = list(range(count))
    else:
        order = [(viewer + step) % count for step in range(1, count)]
    return [
        SeatView(
            seat=seat,
            name=seats.name(seat),
            holds=len(game.hand(seat)),
            laid=[face(card) for who, card in game.played if who == seat],
            dealer=seat == game.dealer,
            to_move=seat in game.awaiting,
            mine=seat == viewer,
            partner=viewer is not None
            and seat != viewer
            and seats.side(seat) == seats.side(viewer),
        )
        for seat in order
    ]


def side_views(game: Game, seats: Seats) -> list[SideView]:
    """Every side's score, the reader's first."""
    mine = None if seats.viewer is None else seats.side(seats.viewer)
    order = sorted(range(game.seating.sides), key=lambda side: side != mine)
    return [
        SideView(
            side,
            seats.side_names[side],
            game.scores[side],
            game.previous_scores[side],
            side == mine,
        )
        for side in order
    ]
