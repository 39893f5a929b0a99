"""What the practice pages draw: the cribbage board's holes and pegs, and card faces.

Terms: the board has a *track* for each player of 120 holes in groups of five,
plus two *start holes* and the *game hole* (121). Each player has two *pegs*:
the *front peg* stands on the current score, the *back peg* on the score before
the latest points (docs/rules.md §2). Here the track runs in four
lanes of 30 holes, back and forth, the players' rows side by side in each
lane so that a glance compares them. Seat 0 is the player, seat 1 the computer. A game of
three has three tracks (a row each in every lane), a game of four two (one a partnership);
a game to 61 or 91 ends at the *finish*, a ring round that hole of each track.

A *card face* is what a card shows (rank and suit glyph) and its accessible
name in the reader's language ("5 of hearts", "hjärter 5").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scoring.rules.cards import Card
from scoring.rules.events import WINNING_SCORE

LANE_HOLES = 30
PITCH = 10
GROUP = 5
GROUP_GAP = 6
LEFT = 34
TOP = 16
ROW = 11
LANE_GAP = 34
WIDTH = LEFT + (LANE_HOLES - 1) * PITCH + (LANE_HOLES // GROUP - 1) * GROUP_GAP + 12
HEIGHT = TOP + 3 * LANE_GAP + ROW + 16
START_X = (10, 21)
GAME_X = 15


def _lane_gap(tracks: int) -> int:
    return LANE_GAP + (tracks - 2) * ROW


def board_height(tracks: int = 2) -> int:
    """The board's height with ``tracks`` rows in each lane (``HEIGHT`` with two)."""
    return TOP + 3 * _lane_gap(tracks) + (tracks - 1) * ROW + 16


def _row_y(player: int, lane: int, tracks: int = 2) -> int:
    """The computer's row is on top in each lane, the player's at the bottom of it."""
    return TOP + lane * _lane_gap(tracks) + (tracks - 1 - player) * ROW


def hole_xy(player: int, hole: int | str, tracks: int = 2) -> tuple[int, int]:
    """Where ``player``'s hole is: 1-120 on the track, 121 the game hole, "0a"/"0b" the start
    (on a board of ``tracks`` tracks)."""
    if hole in ("0a", "0b"):
        return START_X[1 if hole == "0a" else 0], _row_y(player, 0, tracks)
    assert isinstance(hole, int)
    if hole >= WINNING_SCORE:
        return GAME_X, _row_y(player, 3, tracks)
    lane, place = divmod(hole - 1, LANE_HOLES)
    if lane % 2:
        place = LANE_HOLES - 1 - place
    return LEFT + place * PITCH + (place // GROUP) * GROUP_GAP, _row_y(player, lane, tracks)


def peg_hole(score: int, *, back: bool) -> int | str:
    """The hole a peg stands in; at 0 the two pegs share the start, each in its own hole."""
    if score <= 0:
        return "0b" if back else "0a"
    return min(score, WINNING_SCORE)


@dataclass(frozen=True, slots=True)
class Hole:
    player: int
    key: str
    x: int
    y: int
    game: bool = False


@dataclass(frozen=True, slots=True)
class Peg:
    player: int
    back: bool
    score: int
    x: int
    y: int

    @property
    def id(self) -> str:
        return f"peg-{self.player}-{'back' if self.back else 'front'}"


@dataclass(frozen=True)
class Board:
    """The board with every side's pegs for the given front and back scores (a track a
    side: two, or three in a game of three), to ``target``."""

    scores: tuple[int, ...]
    previous: tuple[int, ...]
    target: int = WINNING_SCORE

    width = WIDTH

    @property
    def tracks(self) -> int:
        return len(self.scores)

    @property
    def height(self) -> int:
        return board_height(self.tracks)

    @property
    def holes(self) -> tuple[Hole, ...]:
        return _holes(self.tracks)

    @property
    def pegs(self) -> list[Peg]:
        pegs = []
        for player in range(self.tracks):
            for back, score in ((True, self.previous[player]), (False, self.scores[player])):
                x, y = hole_xy(player, peg_hole(score, back=back), self.tracks)
                pegs.append(Peg(player, back, score, x, y))
        return pegs

    @property
    def lane_marks(self) -> list[tuple[int, int, str]]:
        """Small numbers at the turns of the track: where holes 1, 31, 61 and 91 are."""
        marks = []
        for first in (1, 31, 61, 91):
            x, y = hole_xy(0, first, self.tracks)
            marks.append((x, y + 11, str(first)))
        return marks

    @property
    def finish(self) -> list[tuple[int, int]]:
        """Where a game to 61 or 91 ends on each track (none in a game to 121: the game hole)."""
        if self.target >= WINNING_SCORE:
            return []
        return [hole_xy(player, self.target, self.tracks) for player in range(self.tracks)]


@cache
def _holes(tracks: int = 2) -> tuple[Hole, ...]:
    """Every hole of every track: the same on every board of as many tracks, so made once."""
    return tuple(
        Hole(player, str(key), *hole_xy(player, key, tracks), game=key == WINNING_SCORE)
        for player in range(tracks)
        for key in ("0a", "0b", *range(1, WINNING_SCORE + 1))
    )


SUIT_GLYPHS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {
    "C": gettext_lazy("clubs"),
    "D": gettext_lazy("diamonds"),
    "H": gettext_lazy("hearts"),
    "S": gettext_lazy("spades"),
}
RANK_NAMES = {
    1: gettext_lazy("ace"),
    11: gettext_lazy("jack"),
    12: gettext_lazy("queen"),
    13: gettext_lazy("king"),
}
RANK_SIGNS = {1: "A", 11: "J", 12: "Q", 13: "K"}


def card_name(card: Card) -> str:
    """The card's name in the reader's language: "5 of hearts", "hjärter 5"."""
    return _card_name(card, get_language())


@cache
def _card_name(card: Card, language: str | None) -> str:
    """``card_name`` in ``language``, the active one: named once per card and language.

    A game page names a card a few hundred times (the hand, the board, every line
    of the log), three translations a name; the 52 cards of two languages are
    kept instead. ``language`` is only the key: the active language translates.
    """
    rank = RANK_NAMES.get(card.rank, str(card.rank))
    # Translators: a card's name; Swedish puts the suit first: "%(suit)s %(rank)s".
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_NAMES[card.suit]}


def card_names(cards: tuple[Card, ...] | list[Card]) -> str:
    return ", ".join(card_name(card) for card in cards)


@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as drawn: ``code`` "5H", ``rank`` "5", ``glyph`` "♥", ``suit`` "H", ``name``."""

    code: str
    rank: str
    glyph: str
    suit: str
    name: str


def face(card: Card) -> CardFace:
    return _face(card, get_language())


@cache
def _face(card: Card, language: str | None) -> CardFace:
    """``face`` in ``language``, the active one (a face is immutable, so one serves every page)."""
    rank = RANK_SIGNS.get(card.rank, str(card.rank))
    return CardFace(str(card), rank, SUIT_GLYPHS[card.suit], card.suit, _card_name(card, language))


def faces(cards: tuple[Card, ...] | list[Card]) -> list[CardFace]:
    return [face(card) for card in cards]
