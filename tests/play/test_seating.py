"""A table of three or four as a reader sees it: the seats named from where they sit, the
sides, the board's tracks and the pegs the narration moves by side (play.seating,
play.board, play.narration)."""

from __future__ import annotations

import pytest
from django.utils import translation

from play.board import HEIGHT, Board, board_height, hole_xy
from play.narration import narrate
from play.seating import seat_names, side_names, table_seats
from scoring.rules.events import EventType, Phase
from scoring.rules.game import Game


@pytest.mark.parametrize(
    ("seats", "viewer", "names", "sides"),
    [
        (3, 0, ("You", "Left", "Right"), ("You", "Left", "Right")),
        (3, 1, ("Right", "You", "Left"), ("Right", "You", "Left")),
        (4, 0, ("You", "Left", "Partner", "Right"), ("You and your partner", "Left and Right")),
        (4, 1, ("Right", "You", "Left", "Partner"), ("Left and Right", "You and your partner")),
        (4, 2, ("Partner", "Right", "You", "Left"), ("You and your partner", "Left and Right")),
    ],
)
def test_each_seat_is_named_from_where_the_reader_sits(
    seats: int, viewer: int, names: tuple[str, ...], sides: tuple[str, ...]
) -> None:
    with translation.override("en"):
        assert seat_names(seats, viewer=viewer) == names
        assert side_names(seats, viewer=viewer) == sides


def test_the_names_are_swedish_for_a_swedish_reader() -> None:
    with translation.override("sv"):
        assert seat_names(4) == ("Du", "Vänster", "Partnern", "Höger")
        assert side_names(4) == ("Du och din partner", "Vänster och Höger")


@pytest.mark.parametrize("tracks", [2, 3])
def test_a_board_has_a_track_a_side_each_hole_its_own(tracks: int) -> None:
    board = Board((5,) * tracks, (0,) * tracks, target=61)
    assert board.height == board_height(tracks)
    assert len(board.holes) == tracks * 123
    assert len({(hole.x, hole.y) for hole in board.holes}) == len(board.holes)
    assert len(board.pegs) == 2 * tracks
    assert board.finish == [hole_xy(side, 61, tracks) for side in range(tracks)]
    assert Board((0, 0), (0, 0)).height == HEIGHT  # two as before
    assert Board((0, 0), (0, 0)).finish == []  # a game to 121 ends in the game hole


@pytest.mark.parametrize("seats", [3, 4])
def test_the_narration_moves_each_sides_pegs(seats: int) -> None:
    game = Game.new(seed=36, seats=seats, target=61)
    while game.phase is not Phase.DONE:
        seat = next(iter(sorted(game.awaiting)))
        if game.phase is Phase.DISCARD:
            game.discard(seat, game.legal_discards(seat)[0])
        else:
            game.play(seat, game.legal_plays(seat)[0])
    with translation.override("en"):
        lines = narrate(game.events, seats=table_seats(seats))
    sides = game.seating.sides
    assert all(len(line.pegs) == 2 * sides for line in lines)
    assert [lines[-1].pegs[2 * side] for side in range(sides)] == list(game.scores)
    win = lines[-1]
    assert win.type is EventType.WIN
    assert ("win the game" if seats == 4 else "win") in win.text
    for line in lines:
        if line.type is EventType.DISCARD and line.player != 0:
            assert line.cards == ()  # another's card laid away stays face down
            assert line.text.endswith("lays away a card.")
