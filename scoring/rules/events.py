"""What happens in a game: its phases, its events and the errors a decision can raise.

Terms: the *game* is won by the first player (with four, the first partnership) to peg
*121* points, or the game's shorter target; in a game to 121 the loser is *skunked* with
90 or fewer and *double skunked* with 60 or fewer (docs/rules.md §2.9, §7). An *event* is
one thing the table sees happen (a card laid, a go, a hand shown); every event that
scores names its ``player`` (the seat) and ``points`` and carries the ``scores`` of every
side after it, so a board can be animated from the events alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scoring.rules.cards import Card, parse_cards
from scoring.rules.items import ScoreItem, ScoreKind

WINNING_SCORE = 121
"""The game hole: the first player to peg it wins (docs/rules.md §2.7)."""
SKUNK_LINE = 90
"""A loser on this score or fewer is skunked (docs/rules.md §2.9); the board draws the line
after it."""
DOUBLE_SKUNK_LINE = 60
"""A loser on this score or fewer is double skunked."""


class EventType(StrEnum):
    """What an ``Event`` is: the cut, the deal, ... the win (a ``str``: JSON keeps the value)."""

    CUT = "cut"
    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    HEELS = "heels"
    PLAY = "play"
    GO = "go"
    LAST = "last"
    RESET = "reset"
    SHOW = "show"
    CLAIM = "claim"
    """A count claimed by a player whose opponent checks it (one of the ``callers``):
    ``points`` is the claim, pegged provisionally until the call settles it with a
    ``SHOW`` (docs/muggins.md). Not in the record: the show and the call say it all."""
    MUGGINS = "muggins"
    WIN = "win"


# Events a game record keeps: the cut, deal, discards and starter are in the
# record's own fields, and a reset, a claim or a win follows from the others.
RECORD_TYPES = frozenset(
    {
        EventType.HEELS,
        EventType.PLAY,
        EventType.GO,
        EventType.LAST,
        EventType.SHOW,
        EventType.MUGGINS,
    }
)


class Skunk(StrEnum):
    """How badly a game was lost: not at all, a skunk, a double skunk (docs/rules.md §2.9)."""

    NONE = "none"
    SKUNK = "skunk"
    DOUBLE = "double"


class Phase(StrEnum):
    """What the game waits for: discards, a card in the play, a self-counted hand, a call, nothing.

    ``MUGGINS``: with muggins on, the opponent of a player who counted their own hand
    checks the count and takes any points it missed, or lets it stand (only for the
    players the game calls its ``callers``; for the others the engine calls at once).
    Meanwhile the claim is pegged provisionally, whatever it is worth, and a claim that
    reaches 121 has not won yet: the call settles it.
    """

    DISCARD = "discard"
    PLAY = "play"
    COUNT = "count"
    MUGGINS = "muggins"
    DONE = "done"


class Refusal(StrEnum):
    """Why the rules refuse a decision (``IllegalPlayError.reason``)."""

    GAME_OVER = "game_over"
    NO_SUCH_PLAYER = "no_such_player"
    WRONG_PHASE = "wrong_phase"
    """The game waits for another kind of decision (``phase``: the one it waits for)."""
    ALREADY_DISCARDED = "already_discarded"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_HELD = "not_held"
    """``card`` is not in the player's hand."""
    NOT_TWO_CARDS = "not_two_cards"
    """A discard is two different cards (two seats)."""
    NOT_ONE_CARD = "not_one_card"
    """A discard is one card (three or four seats)."""
    PAST_31 = "past_31"
    """``card`` would take the count past 31."""
    NOT_A_COUNT = "not_a_count"
    """A claimed count is a whole number of points, 0 or more."""
    MORE_THAN_WORTH = "more_than_worth"
    """The claim is more than the hand (or crib) shown is worth (only where nobody checks
    the count: with a caller the claim is final, ``Event.claimed``)."""
    MORE_THAN_MISSED = "more_than_missed"
    """No longer raised: a call of muggins above the points missed wins nothing
    (``Event.called``); kept so that a site's table of refusals stays whole."""


class IllegalPlayError(ValueError):
    """A decision the rules do not allow; the game is left exactly as it was.

    ``reason`` says why, with the ``card`` or the ``phase`` it concerns; the
    message is the engine's English, and a site words the reason itself.
    """

    def __init__(
        self,
        reason: Refusal,
        message: str,
        *,
        card: Card | None = None,
        phase: Phase | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.card = card
        self.phase = phase


def skunk_of(loser_score: int) -> Skunk:
    """``Skunk.DOUBLE`` with 60 or fewer, ``Skunk.SKUNK`` with 90 or fewer, else ``NONE``."""
    if loser_score <= DOUBLE_SKUNK_LINE:
        return Skunk.DOUBLE
    if loser_score <= SKUNK_LINE:
        return Skunk.SKUNK
    return Skunk.NONE


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened at the table.

    ``type`` is an ``EventType``. Fields not used by a type stay ``None``
    or empty: ``card`` (play, starter), ``cards`` (cut, discard, show),
    ``count`` (the running count after a play, go or last card), ``what``
    (``"hand"`` or ``"crib"`` for a show), ``items`` (the scoring breakdown),
    ``said`` (the count as a player says it aloud), ``skunk`` (win: of the best-placed
    loser). A win's ``player`` is the seat whose points reached the target; its side wins.
    """

    type: EventType
    player: int | None = None
    points: int | None = None
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    count: int | None = None
    what: str | None = None
    items: tuple[ScoreItem, ...] = ()
    said: str | None = None
    skunk: Skunk | None = None
    scores: tuple[int, ...] | None = None
    """Every side's score after the event (with two or three seats a side is a player,
    with four a partnership: ``scoring.rules.seats``)."""
    claimed: int | None = None
    """On a show: the points claimed when they were more than the hand's worth (an
    over-count, which pegs nothing once the call has settled it: ``points`` is 0); None
    otherwise."""
    called: int | None = None
    """On a call of muggins: the points called when they were more than the count
    missed (the call wins nothing: ``points`` is 0); None otherwise."""

    def to_json(self, *, items: bool = True) -> dict[str, Any]:
        """The event as JSON-safe data, leaving out unused fields.

        With ``items=False`` the breakdown and spoken count are left out (a game
        record stays small; a replay recomputes them).
        """
        data: dict[str, Any] = {"type": self.type.value}
        if self.player is not None:
            data["player"] = self.player
        if self.card is not None:
            data["card"] = str(self.card)
        if self.cards:
            data["cards"] = [str(card) for card in self.cards]
        for name in ("count", "what", "points", "claimed", "called"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.skunk is not None:
            data["skunk"] = self.skunk.value
        if items and self.items:
            data["items"] = [item_to_json(item) for item in self.items]
        if items and self.said is not None:
            data["said"] = self.said
        if self.scores is not None:
            data["scores"] = list(self.scores)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """The inverse of ``to_json``."""
        scores = data.get("scores")
        return cls(
            type=EventType(data["type"]),
            player=data.get("player"),
            points=data.get("points"),
            card=Card.parse(data["card"]) if "card" in data else None,
            cards=tuple(parse_cards(data.get("cards", []))),
            count=data.get("count"),
            what=data.get("what"),
            items=tuple(item_from_json(item) for item in data.get("items", [])),
            said=data.get("said"),
            skunk=Skunk(data["skunk"]) if data.get("skunk") is not None else None,
            scores=tuple(scores) if scores is not None else None,
            claimed=data.get("claimed"),
            called=data.get("called"),
        )


def item_to_json(item: ScoreItem) -> dict[str, Any]:
    return {
        "kind": item.kind.value,
        "cards": [str(card) for card in item.cards],
        "points": item.points,
    }


def item_from_json(data: Mapping[str, Any]) -> ScoreItem:
    return ScoreItem(ScoreKind(data["kind"]), tuple(parse_cards(data["cards"])), data["points"])
