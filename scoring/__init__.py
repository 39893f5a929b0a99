"""The cribbage engine: the one place the rules of cribbage live.

Plain Python with no Django import. The site's championship checks reported
results with it, the practice-game pages play through it and the tournament
simulator drives it. The rules it implements are stated in RULES.md
(sections 1-3).

The engine is grouped by what each part is:

- ``scoring.rules``: cards, items and the count of a hand (``hand``), the play
  (``pegging``), a deal, a game to 121 and its events, a best-of-N match, and
  the replay of a game record: the rules, and the only judge of them;
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

__all__ = [
    "DECK",
    "MAX_COUNT",
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
