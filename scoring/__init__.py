"""The cribbage engine: the one place the rules of cribbage live.

Plain Python with no Django import. The site's championship checks reported
results with it, the practice-game pages play through it and the tournament
simulator drives it. The rules it implements are stated in docs/rules.md
(sections 1-3, and 7 for three and four at a table and games to 61 and 91).

A game of two, three or four seats to 121, 61 or 91:
``Game.new(seed=..., seats=4, target=91)`` (seats 0 and 2 partners against 1 and 3).
It is read by ``phase``, ``to_move`` and ``awaiting`` (whose decision it waits for),
``scores`` (one a side: a player, or with four a partnership; ``side_of``, ``score_of``
for a seat), ``hand``, ``legal_discards`` and ``legal_plays``, and moved on by
``discard`` and ``play`` (``apply`` for a saved decision); ``to_json``/``from_json`` save
and load it, ``record`` writes it (docs/game-record.md). The computer decides for a seat
with ``ComputerPlayer(level, seed).decide(game, seat)`` (``play_computers`` for several),
the hint is ``discard_options`` and ``judge_play`` (``scoring.players.strategy``) and a
record's review ``scoring.review.review_game``.

The engine is grouped by what each part is:

- ``scoring.rules``: cards, items and the count of a hand (``hand``), the play
  (``pegging``), the table's seats (``seats``), a deal, a game and its events, a
  best-of-N match (of two), and the replay of a game record: the rules, and the only
  judge of them;
- ``scoring.players``: the computer players (``strategy``: ``ComputerPlayer``,
  ``play_computers``), their discards, their play and their tables;
- ``scoring.tools``: ``python -m scoring`` (``cli``), a game in the terminal,
  self-play, benchmarks, the full count distributions and the table builder;
- ``scoring.review``: a recorded game's review, each decision weighed by the engine
  (docs/review.md).

The rules' everyday names are importable from ``scoring`` itself.
"""

from scoring.rules.cards import DECK, Card, InvalidCardError, format_cards, parse_cards
from scoring.rules.events import (
    WINNING_SCORE,
    Event,
    EventType,
    IllegalPlayError,
    Phase,
    Refusal,
    Skunk,
    skunk_of,
)
from scoring.rules.game import Game
from scoring.rules.hand import HandScore, score_hand
from scoring.rules.items import ScoreItem, ScoreKind
from scoring.rules.match import (
    GamePoints,
    Match,
    MatchReportError,
    MatchResult,
    ReportFault,
    check_match,
)
from scoring.rules.pegging import MAX_COUNT, score_play
from scoring.rules.replay import RecordError, game_from_record, replay
from scoring.rules.seats import SEATINGS, TARGETS, Seating

__all__ = [
    "DECK",
    "MAX_COUNT",
    "SEATINGS",
    "TARGETS",
    "WINNING_SCORE",
    "Card",
    "Event",
    "EventType",
    "Game",
    "GamePoints",
    "HandScore",
    "IllegalPlayError",
    "InvalidCardError",
    "Match",
    "MatchReportError",
    "MatchResult",
    "Phase",
    "RecordError",
    "Refusal",
    "ReportFault",
    "ScoreItem",
    "ScoreKind",
    "Seating",
    "Skunk",
    "check_match",
    "format_cards",
    "game_from_record",
    "parse_cards",
    "replay",
    "score_hand",
    "score_play",
    "skunk_of",
]
