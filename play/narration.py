"""What the practice pages say: each event of a game as a sentence in the reader's language.

Terms: a *line* is one event told to the player, with the cards it shows, the
count said aloud (``scoring.rules.speech``: "femton två och ett par blir fyra"), the
*breakdown* (each scoring item with its cards and points) and where both
players' pegs stand after it (front and back, as on the board). The player is
seat 0 ("you"), the computer seat 1. A *missed* count is what a player who
counts their own hand left unclaimed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from play.board import CardFace, card_name, card_names, face, faces
from scoring.rules.cards import Card
from scoring.rules.events import Event, EventType, Skunk
from scoring.rules.items import ScoreItem, ScoreKind
from scoring.rules.speech import say_count

YOU = 0
Pegs = tuple[int, int, int, int]
"""Front and back peg of the player, then of the computer."""

START_PEGS: Pegs = (0, 0, 0, 0)


def speech_language() -> str:
    """The language counts are said in: English for English readers, Swedish otherwise."""
    return "en" if (get_language() or "sv").startswith("en") else "sv"


@dataclass(frozen=True)
class ItemLine:
    label: str
    cards: tuple[CardFace, ...]
    points: int


@dataclass(frozen=True)
class Line:
    """One event as the player reads it."""

    index: int
    type: EventType
    text: str
    player: int | None
    points: int
    scores: tuple[int, int]
    pegs: Pegs
    said: str = ""
    cards: tuple[CardFace, ...] = ()
    starter: CardFace | None = None
    items: tuple[ItemLine, ...] = ()
    missed: int = 0

    @property
    def logged(self) -> bool:
        """Worth a place in the game log: points, a hand shown, the win, and each new deal."""
        return bool(self.points) or self.type in LOGGED_TYPES

    @property
    def mine(self) -> bool:
        return self.player == YOU

    @property
    def data_pegs(self) -> str:
        return " ".join(str(peg) for peg in self.pegs)


LOGGED_TYPES = (EventType.SHOW, EventType.WIN, EventType.DEAL)


def logged(event: Event) -> bool:
    """Whether the event's line goes in the game log (``Line.logged``)."""
    return bool(event.points) or event.type in LOGGED_TYPES


def narrate(
    events: Sequence[Event],
    *,
    language: str | None = None,
    told: Callable[[int, Event], bool] | None = None,
) -> list[Line]:
    """Every event of one game as a line, the pegs moved as the points fall.

    With ``told``, only the events it accepts (by index and event) are written
    out: a page that shows the latest news and the log needs no sentence for
    every card laid before.
    """
    language = language or speech_language()
    front_back = list(START_PEGS)
    starter: Card | None = None
    lines = []
    for index, event in enumerate(events):
        if event.points and event.player is not None and event.scores is not None:
            seat = 2 * event.player
            front_back[seat + 1] = front_back[seat]
            front_back[seat] = event.scores[event.player]
        if event.type is EventType.STARTER:
            starter = event.card
        if told is None or told(index, event):
            pegs: Pegs = (front_back[0], front_back[1], front_back[2], front_back[3])
            lines.append(_line(event, index, pegs, starter, language, get_language()))
    return lines


@lru_cache(maxsize=1 << 13)
def _line(
    event: Event, index: int, pegs: Pegs, starter: Card | None, language: str, active: str | None
) -> Line:
    """The line of one event: a function of its arguments alone, so written once.

    A game's past events never change, and a page tells the whole log again with
    each decision; the lines are immutable, so one line serves every request
    that tells it. ``language`` is the counts' (``speech_language``), ``active``
    the active language, which writes the sentences: both are part of the key.
    """
    items = event.items
    worth = sum(item.points for item in items)
    points = event.points or 0
    said = (
        say_count(items, language)
        if event.type in (EventType.PLAY, EventType.SHOW) and items
        else ""
    )
    if event.type is EventType.SHOW and not items:
        said = say_count([], language)
    return Line(
        index=index,
        type=event.type,
        text=_TEXTS[event.type](event),
        player=event.player,
        points=points,
        scores=event.scores or (0, 0),
        pegs=pegs,
        said=said,
        cards=_shown_cards(event),
        starter=face(starter) if event.type is EventType.SHOW and starter else None,
        items=tuple(_item_line(item) for item in items),
        missed=max(0, worth - points) if event.type is EventType.SHOW else 0,
    )


def _shown_cards(event: Event) -> tuple[CardFace, ...]:
    if event.type is EventType.DISCARD and event.player != YOU:
        return ()  # the computer's discards stay face down, as at the table
    if event.card is not None:
        return (face(event.card),)
    return tuple(faces(event.cards))


def item_label(item: ScoreItem) -> str:
    if item.kind == ScoreKind.PAIR:
        return {2: _("pair"), 3: _("pair royal"), 4: _("double pair royal")}[len(item.cards)]
    if item.kind == ScoreKind.RUN:
        return _("run of %(length)s") % {"length": len(item.cards)}
    return {
        ScoreKind.FIFTEEN: _("fifteen"),
        ScoreKind.THIRTY_ONE: _("thirty-one"),
        ScoreKind.FLUSH: _("flush"),
        ScoreKind.NOBS: _("nobs"),
    }[item.kind]


def _item_line(item: ScoreItem) -> ItemLine:
    return ItemLine(item_label(item), tuple(faces(item.cards)), item.points)


def _card(event: Event) -> Card:
    assert event.card is not None
    return event.card


def _who(event: Event, yours: str, theirs: str) -> str:
    return yours if event.player == YOU else theirs


def _cut(event: Event) -> str:
    names = {"yours": card_name(event.cards[0]), "theirs": card_name(event.cards[1])}
    cut = _("Cut for deal: you cut %(yours)s, the computer %(theirs)s.") % names
    if event.player is None:
        outcome = _("Equal ranks: cut again.")
    elif event.player == YOU:
        outcome = _("You cut lower and deal first.")
    else:
        outcome = _("The computer cut lower and deals first.")
    return f"{cut} {outcome}"


def _discard(event: Event) -> str:
    if event.player == YOU:
        return _("You lay away %(cards)s.") % {"cards": card_names(event.cards)}
    return _("The computer lays away two cards.")


def _play(event: Event) -> str:
    values = {"card": card_name(_card(event)), "count": event.count}
    if event.points:
        values["points"] = event.points
        return (
            _who(
                event,
                _("You lay %(card)s, count %(count)s: %(points)s points."),
                _("The computer lays %(card)s, count %(count)s: %(points)s points."),
            )
            % values
        )
    return (
        _who(
            event,
            _("You lay %(card)s, count %(count)s."),
            _("The computer lays %(card)s, count %(count)s."),
        )
        % values
    )


def _show(event: Event) -> str:
    values = {"points": event.points or 0}
    if event.what == "crib":
        return (
            _who(
                event,
                _("Your crib: %(points)s points."),
                _("The computer's crib: %(points)s points."),
            )
            % values
        )
    return (
        _who(
            event, _("Your hand: %(points)s points."), _("The computer's hand: %(points)s points.")
        )
        % values
    )


def _win(event: Event) -> str:
    scores = event.scores or (0, 0)
    values = {"you": scores[0], "computer": scores[1]}
    text = (
        _who(
            event,
            _("You win the game, %(you)s to %(computer)s."),
            _("The computer wins the game, %(computer)s to %(you)s."),
        )
        % values
    )
    # Each sentence is written out for the catalogue (an _() inside an f-string is not).
    if event.skunk is Skunk.SKUNK:
        return text + " " + _("A skunk!")
    if event.skunk is Skunk.DOUBLE:
        return text + " " + _("A double skunk!")
    return text


_TEXTS: dict[EventType, Callable[[Event], str]] = {
    EventType.CUT: _cut,
    EventType.DEAL: lambda e: _who(e, _("You deal."), _("The computer deals.")),
    EventType.DISCARD: _discard,
    EventType.STARTER: lambda e: _("The starter is %(card)s.") % {"card": card_name(_card(e))},
    EventType.HEELS: lambda e: _who(
        e,
        _("A jack is turned: 2 for his heels to you."),
        _("A jack is turned: 2 for his heels to the computer."),
    ),
    EventType.PLAY: _play,
    EventType.GO: lambda e: _who(e, _("You say go."), _("The computer says go.")),
    EventType.LAST: lambda e: _who(
        e, _("You score 1 for the last card."), _("The computer scores 1 for the last card.")
    ),
    EventType.RESET: lambda e: _("The count starts again from 0."),
    EventType.SHOW: _show,
    EventType.MUGGINS: lambda e: (
        _who(
            e,
            _("Muggins! You claim the %(points)s points the computer missed."),
            _("Muggins! The computer claims the %(points)s points you missed."),
        )
        % {"points": e.points}
    ),
    EventType.WIN: _win,
}
