"""Replays of finished games: one decision per step, every hand face up.

Terms as in ``play.selectors``: a *replay* steps through a finished game's record (the
engine's, ``scoring.rules.replay``), one decision per step, with every hand face up, told
from the reader's seat (``play.narration.Seats``; at a table of three or four the seats
are named as the player sees the table, ``play.seating``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from play.board import Board, CardFace, face, faces
from play.models import PracticeGame
from play.narration import PRACTICE, Line, Seats, narrate
from play.seating import SideView, side_views, table_seats
from play.services import HUMAN, load_match
from scoring.rules.cards import Card
from scoring.rules.events import Phase
from scoring.rules.game import Game
from scoring.rules.replay import replay_live


@dataclass
class ReplayView:
    """One step of a finished game's replay."""

    practice: PracticeGame | None
    game_number: int
    games: int
    step: int
    steps: int
    deal_number: int
    dealer_is_you: bool
    dealer: int
    scores: tuple[int, ...]
    board: Board
    hands: tuple[list[CardFace], list[CardFace]]
    crib: list[CardFace]
    starter: CardFace | None
    count: int
    sequence: list[tuple[CardFace, bool]]
    lines: list[Line]
    cut: list[tuple[CardFace, CardFace]]
    decision: dict[str, Any] | None
    names: tuple[str, ...] | None = None
    """The players' names in a game between members (None: you and the computer, or at a
    table of three or four the seats named in ``seat_hands``)."""
    seat_hands: list[tuple[str, list[CardFace]]] = field(default_factory=list)
    """At a table of three or four, each seat's name and cards face up (else ``hands``)."""
    side_views: list[SideView] = field(default_factory=list)
    """At a table of three or four, each side's score, the reader's first."""
    dealer_name: str = ""
    cuts: list[list[CardFace]] = field(default_factory=list)
    """At a table of three or four, each cut for deal: the cutters' cards, seat 0 first."""

    @property
    def many(self) -> bool:
        return bool(self.seat_hands)

    @property
    def previous_step(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next_step(self) -> int | None:
        return self.step + 1 if self.step + 1 < self.steps else None

    @property
    def last_step(self) -> int:
        return self.steps - 1

    @property
    def game_numbers(self) -> range:
        return range(1, self.games + 1)


def replayable_records(practice: PracticeGame) -> list[dict[str, Any]]:
    """The records of the games of this practice that are over."""
    if practice.finished and practice.record:
        return list(practice.record["games"])
    match = load_match(practice)
    return [game.record() for game in match.games if game.phase is Phase.DONE]


def practice_replay(
    *, practice: PracticeGame, game_number: int, step: int, language: str | None = None
) -> ReplayView | None:
    """Step ``step`` (0 is the first deal) of game ``game_number``; None when there is none."""
    records = replayable_records(practice)
    seats = PRACTICE if practice.seats == 2 else table_seats(practice.seats, viewer=HUMAN)
    view = replay_view(records, game_number=game_number, step=step, language=language, seats=seats)
    if view is not None:
        view.practice = practice
    return view


def replay_view(
    records: list[dict[str, Any]],
    *,
    game_number: int,
    step: int,
    language: str | None = None,
    seats: Seats = PRACTICE,
) -> ReplayView | None:
    """Step ``step`` of game ``game_number`` of ``records``, told as ``seats`` says; None
    when there is no such game or step."""
    if not 1 <= game_number <= len(records) or step < 0:
        return None
    record = records[game_number - 1]
    view: ReplayView | None = None
    steps = 0
    for game, (decision, events) in replay_live(record):
        if steps == step:
            view = _replay_view(game, decision, len(events), language, seats)
        steps += 1
    if view is None:
        return None
    cut = record.get("cut", []) if step == 0 else []
    view.game_number, view.games = game_number, len(records)
    view.step, view.steps = step, steps
    if seats.many:
        view.cuts = [[face(Card.parse(card)) for card in cards] for cards in cut]
    else:
        view.names = seats.names
        view.cut = [(face(Card.parse(first)), face(Card.parse(second))) for first, second in cut]
    return view


def _replay_view(
    game: Game, decision: dict[str, Any] | None, new: int, language: str | None, seats: Seats
) -> ReplayView:
    """The replayed game's table; which practice, game and step it is are filled in after."""
    lines = narrate(game.events, language=language, seats=seats)
    view = ReplayView(
        practice=None,
        game_number=0,
        games=0,
        step=0,
        steps=0,
        deal_number=game.deal_number,
        dealer_is_you=game.dealer == seats.viewer,
        dealer=game.dealer,
        scores=game.scores,
        board=Board(game.scores, game.previous_scores, game.target),
        hands=(_held_or_kept(game, 0), _held_or_kept(game, 1)),
        crib=faces(game.crib),
        starter=face(game.starter) if game.starter else None,
        count=game.count,
        sequence=[(face(card), who == seats.viewer) for who, card in game.sequence],
        lines=lines[len(lines) - new :] if new else [],
        cut=[],
        decision=decision,
    )
    if seats.many:
        view.seat_hands = [
            (seats.name(seat), _held_or_kept(game, seat)) for seat in range(game.seats)
        ]
        view.side_views = side_views(game, seats)
        view.dealer_name = seats.name(game.dealer)
    return view


def _held_or_kept(game: Game, seat: int) -> list[CardFace]:
    """In the show the kept four are face up again; before it, the cards still held."""
    if game.phase in (Phase.COUNT, Phase.DONE) and game.kept(seat):
        return faces(game.kept(seat))
    return faces(game.hand(seat))
