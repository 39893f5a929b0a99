"""What happens in a game: its phases, its events and the errors a decision can raise.

Terms: the *game* is won by the first player to peg *121* points; the loser is
*skunked* with 90 or fewer and *double skunked* with 60 or fewer (RULES 2.9).
An *event* is one thing the table sees happen (a card laid, a go, a hand shown);
every event that scores names its ``player`` and ``points`` and carries the
``scores`` after it, so a board can be animated from the events alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scoring.cards import Card, parse_cards
from scoring.hand import ScoreItem

WINNING_SCORE = 121
SKUNK_LINE = 90
DOUBLE_SKUNK_LINE = 60

EVENT_TYPES = frozenset(
    {"cut", "deal", "discard", "starter", "heels", "play", "go", "last", "reset", "show"}
    | {"muggins", "win"}
)

# Events a game record keeps: the cut, deal, discards and starter are in the
# record's own fields, and a reset or win follows from the others.
RECORD_TYPES = frozenset({"heels", "play", "go", "last", "show", "muggins"})


class IllegalPlayError(ValueError):
    """A decision the rules do not allow; the game is left exactly as it was."""


class Phase(StrEnum):
    """What the game waits for: discards, a card in the play, a self-counted hand, nothing."""

    DISCARD = "discard"
    PLAY = "play"
    COUNT = "count"
    DONE = "done"


def skunk_of(loser_score: int) -> str:
    """``"none"``, ``"skunk"`` (90 or fewer) or ``"double"`` (60 or fewer)."""
    if loser_score <= DOUBLE_SKUNK_LINE:
        return "double"
    if loser_score <= SKUNK_LINE:
        return "skunk"
    return "none"


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened at the table.

    ``type`` is one of ``EVENT_TYPES``. Fields not used by a type stay ``None``
    or empty: ``card`` (play, starter), ``cards`` (cut, discard, show),
    ``count`` (the running count after a play, go or last card), ``what``
    (``"hand"`` or ``"crib"`` for a show), ``items`` (the scoring breakdown),
    ``said`` (the count as a player says it aloud), ``skunk`` (win).
    """

    type: str
    player: int | None = None
    points: int | None = None
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    count: int | None = None
    what: str | None = None
    items: tuple[ScoreItem, ...] = ()
    said: str | None = None
    skunk: str | None = None
    scores: tuple[int, int] | None = None

    def to_json(self, *, items: bool = True) -> dict[str, Any]:
        """The event as JSON-safe data, leaving out unused fields.

        With ``items=False`` the breakdown and spoken count are left out (a game
        record stays small; a replay recomputes them).
        """
        data: dict[str, Any] = {"type": self.type}
        if self.player is not None:
            data["player"] = self.player
        if self.card is not None:
            data["card"] = str(self.card)
        if self.cards:
            data["cards"] = [str(card) for card in self.cards]
        for name in ("count", "what", "points", "skunk"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
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
            type=data["type"],
            player=data.get("player"),
            points=data.get("points"),
            card=Card.parse(data["card"]) if "card" in data else None,
            cards=tuple(parse_cards(data.get("cards", []))),
            count=data.get("count"),
            what=data.get("what"),
            items=tuple(item_from_json(item) for item in data.get("items", [])),
            said=data.get("said"),
            skunk=data.get("skunk"),
            scores=(scores[0], scores[1]) if scores is not None else None,
        )


def item_to_json(item: ScoreItem) -> dict[str, Any]:
    return {"kind": item.kind, "cards": [str(card) for card in item.cards], "points": item.points}


def item_from_json(data: Mapping[str, Any]) -> ScoreItem:
    return ScoreItem(data["kind"], tuple(parse_cards(data["cards"])), data["points"])
