"""What the practice pages say: each event of a game as a sentence in the reader's language.

Terms: a *line* is one event told to the player, with the cards it shows, the
count said aloud (``scoring.rules.speech``: "femton två och ett par blir fyra"), the
*breakdown* (each scoring item with its cards and points) and where both
players' pegs stand after it (front and back, as on the board). The reader is
"you" and the other player is named (``Seats``): in a practice game the player is
seat 0 and the computer seat 1; in a game between members each reads their own
seat as "you", and a spectator reads both by name. At a table of three or four the
other seats are named too (``Seats.names``, from ``play.seating``), and the pegs are each
*side*'s (a player, or with four a partnership). Another's discards are never shown.
A *missed* count is what a player who counts their own hand left unclaimed.
A *claim* is a count the opponent checks for muggins: the claimant's pegs move by it at
once, whatever it is worth, and its line says the claim and nothing the engine found in
the hand (no breakdown, no worth, no points missed), to every reader alike. It is
*pending* until the call settles it: then the show is told (the pegs put back first, so
that an over-count pegs nothing) and the call (docs/muggins.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from play.board import CardFace, card_name, card_names, face, faces
from scoring.rules.cards import Card
from scoring.rules.events import Event, EventType, Skunk
from scoring.rules.items import ScoreItem, ScoreKind
from scoring.rules.speech import say_count

YOU = 0
Pegs = tuple[int, ...]
"""Front and back peg of each side: the player's, then the computer's (with three or four
seats, side 0's, side 1's and with three side 2's)."""

START_PEGS: Pegs = (0, 0, 0, 0)


def start_pegs(sides: int) -> Pegs:
    """Every peg of ``sides`` sides at the start."""
    return (0,) * (2 * sides)


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
    scores: tuple[int, ...]
    pegs: Pegs
    said: str = ""
    cards: tuple[CardFace, ...] = ()
    starter: CardFace | None = None
    items: tuple[ItemLine, ...] = ()
    missed: int = 0
    mine: bool = False
    """The reader's own event (their seat's)."""
    missed_text: str = ""
    """What a self-counted show missed, said to its reader ("You claimed 5 and missed 2
    points", "Anna claimed 5 ..."); empty when nothing was missed or the count is pending."""

    @property
    def logged(self) -> bool:
        """Worth a place in the game log: points, a hand shown, the win, and each new deal."""
        return bool(self.points) or self.type in LOGGED_TYPES

    @property
    def data_pegs(self) -> str:
        return " ".join(str(peg) for peg in self.pegs)


LOGGED_TYPES = (EventType.SHOW, EventType.CLAIM, EventType.WIN, EventType.DEAL)


def logged(event: Event) -> bool:
    """Whether the event's line goes in the game log (``Line.logged``)."""
    return bool(event.points) or event.type in LOGGED_TYPES


def narrate(
    events: Sequence[Event],
    *,
    language: str | None = None,
    told: Callable[[int, Event], bool] | None = None,
    seats: Seats | None = None,
) -> list[Line]:
    """Every event of one game as a line, the pegs moved as the points fall.

    A claim is pending while it is the last event (the game waits for the call). When the
    call settles it, the claimant's pegs go back to where they stood before the claim and
    the show pegs what it earns.

    With ``told``, only the events it accepts (by index and event) are written
    out: a page that shows the latest news and the log needs no sentence for
    every card laid before. ``seats`` says who reads them (a practice game's
    player by default) and what the players are called.
    """
    seats = seats or PRACTICE
    language = language or speech_language()
    sides = len(events[0].scores) if events and events[0].scores else 2
    front_back = list(start_pegs(sides))
    unclaimed: list[int] | None = None  # the pegs before a claim, while it is unsettled
    starter: Card | None = None
    lines = []
    pending = len(events) - 1 if events and events[-1].type is EventType.CLAIM else None
    for index, event in enumerate(events):
        if event.type is EventType.CLAIM:
            unclaimed = list(front_back)
        elif event.type is EventType.SHOW and unclaimed is not None:
            front_back, unclaimed = unclaimed, None
        if event.points and event.player is not None and event.scores is not None:
            side = seats.side(event.player)
            front_back[2 * side + 1] = front_back[2 * side]
            front_back[2 * side] = event.scores[side]
        if event.type is EventType.STARTER:
            starter = event.card
        if told is None or told(index, event):
            pegs: Pegs = tuple(front_back)
            lines.append(
                _line(
                    event, index, pegs, starter, seats, language, get_language(), index == pending
                )
            )
    return lines


@lru_cache(maxsize=1 << 13)
def _line(
    event: Event,
    index: int,
    pegs: Pegs,
    starter: Card | None,
    seats: Seats,
    language: str,
    active: str | None,
    pending: bool = False,
) -> Line:
    """The line of one event: a function of its arguments alone, so written once.

    A game's past events never change, and a page tells the whole log again with
    each decision; the lines are immutable, so one line serves every request
    that tells it. ``language`` is the counts' (``speech_language``), ``active``
    the active language, which writes the sentences: both are part of the key.
    """
    if event.type is EventType.CLAIM:  # the claim alone: nothing the engine counted
        return Line(
            index=index,
            type=event.type,
            text=_claim(event, seats, pending=pending),
            player=event.player,
            points=event.points or 0,
            scores=event.scores or (0, 0),
            pegs=pegs,
            cards=_shown_cards(event, seats),
            starter=face(starter) if starter else None,
            mine=event.player is not None and event.player == seats.viewer,
        )
    items = event.items
    worth = sum(item.points for item in items)
    points = event.points or 0
    missed = max(0, worth - points) if event.type is EventType.SHOW else 0
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
        text=_TEXTS[event.type](event, seats),
        player=event.player,
        points=points,
        scores=event.scores or (0, 0),
        pegs=pegs,
        said=said,
        cards=_shown_cards(event, seats),
        starter=face(starter) if event.type is EventType.SHOW and starter else None,
        items=tuple(_item_line(item) for item in items),
        missed=missed,
        mine=event.player is not None and event.player == seats.viewer,
        missed_text=_missed(event, seats, missed) if missed else "",
    )


def _claim(event: Event, seats: Seats, *, pending: bool) -> str:
    """A claim checked for muggins: the points claimed, and while the call is due, that
    the count is being checked."""
    points = event.points or 0
    texts = _pending_claim if pending else _settled_claim
    yours, named = texts(event.what == "crib", points)
    # The computer's count is never checked: its sentence is never told.
    return _who(event, seats, yours, yours, named, points=points)


def _pending_claim(crib: bool, points: int) -> tuple[str, str]:
    """The reader's own pending claim and another's."""
    if crib:
        return ngettext(
            "You claim %(points)s point for your crib; the count is being checked.",
            "You claim %(points)s points for your crib; the count is being checked.",
            points,
        ), ngettext(
            "%(name)s claims %(points)s point for the crib; the count is being checked.",
            "%(name)s claims %(points)s points for the crib; the count is being checked.",
            points,
        )
    return ngettext(
        "You claim %(points)s point for your hand; the count is being checked.",
        "You claim %(points)s points for your hand; the count is being checked.",
        points,
    ), ngettext(
        "%(name)s claims %(points)s point for the hand; the count is being checked.",
        "%(name)s claims %(points)s points for the hand; the count is being checked.",
        points,
    )


def _settled_claim(crib: bool, points: int) -> tuple[str, str]:
    """The reader's own claim once the call has settled it, and another's."""
    if crib:
        return ngettext(
            "You claim %(points)s point for your crib.",
            "You claim %(points)s points for your crib.",
            points,
        ), ngettext(
            "%(name)s claims %(points)s point for the crib.",
            "%(name)s claims %(points)s points for the crib.",
            points,
        )
    return ngettext(
        "You claim %(points)s point for your hand.",
        "You claim %(points)s points for your hand.",
        points,
    ), ngettext(
        "%(name)s claims %(points)s point for the hand.",
        "%(name)s claims %(points)s points for the hand.",
        points,
    )


def _missed(event: Event, seats: Seats, missed: int) -> str:
    """What a self-counted show missed, worded to its reader."""
    if event.claimed is not None:  # an over-count: the call took its pegs back
        return _who(
            event,
            seats,
            _("You claimed %(claimed)s, but it is worth %(worth)s: an over-count pegs nothing."),
            _("The computer claimed %(claimed)s, but it is worth %(worth)s: it pegs nothing."),
            _(
                "%(name)s claimed %(claimed)s, but it is worth %(worth)s: an over-count pegs "
                "nothing."
            ),
            claimed=event.claimed,
            worth=sum(item.points for item in event.items),
        )
    values = {"claimed": event.points or 0, "missed": missed}
    return _who(
        event,
        seats,
        ngettext(
            "You claimed %(claimed)s and missed %(missed)s point: the full count is above.",
            "You claimed %(claimed)s and missed %(missed)s points: the full count is above.",
            missed,
        ),
        ngettext(
            "The computer claimed %(claimed)s and missed %(missed)s point.",
            "The computer claimed %(claimed)s and missed %(missed)s points.",
            missed,
        ),
        ngettext(
            "%(name)s claimed %(claimed)s and missed %(missed)s point: the full count is above.",
            "%(name)s claimed %(claimed)s and missed %(missed)s points: the full count is above.",
            missed,
        ),
        **values,
    )


def _shown_cards(event: Event, seats: Seats) -> tuple[CardFace, ...]:
    if event.type is EventType.DISCARD and event.player != seats.viewer:
        return ()  # another's discards stay face down, as at the table
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


@dataclass(frozen=True)
class Seats:
    """Who reads the lines, and what the players are called.

    ``viewer`` is the reader's seat, told as "you"; None for a spectator, who reads
    both players by name. ``names`` are the players' names by seat; None in a
    practice game of two, whose seat 1 is "the computer". At a table of three or four
    (``many``) ``side_of`` gives each seat's side and ``side_names`` each side's name
    (``play.seating`` names them as the reader sees the table).
    """

    viewer: int | None = YOU
    names: tuple[str, ...] | None = None
    side_of: tuple[int, ...] = ()
    side_names: tuple[str, ...] = ()

    def name(self, seat: int | None) -> str:
        assert self.names is not None, "a practice game's seats have no names"
        assert seat is not None, "an event of no player has no name"
        return self.names[seat]

    @property
    def many(self) -> bool:
        """Whether three or four sit at the table."""
        return self.names is not None and len(self.names) > 2

    def side(self, seat: int) -> int:
        """The side ``seat`` pegs for (the seat itself, but with four seats)."""
        return self.side_of[seat] if self.side_of else seat


PRACTICE = Seats()


def _who(
    event: Event, seats: Seats, yours: str, computers: str, named: str, **values: object
) -> str:
    """The sentence for whoever ``event.player`` is: the reader (``yours``), the practice
    game's computer (``computers``), or a player by name (``named``, with ``%(name)s``);
    then filled in with ``values``."""
    if event.player == seats.viewer:
        return yours % values
    if seats.names is None:
        return computers % values
    return named % {**values, "name": seats.name(event.player)}


def _cut(event: Event, seats: Seats) -> str:
    if seats.many:
        return _cut_of_many(event, seats)
    cards = {"yours": card_name(event.cards[0]), "theirs": card_name(event.cards[1])}
    if seats.names is None:
        cut = _("Cut for deal: you cut %(yours)s, the computer %(theirs)s.") % cards
    elif seats.viewer is None:
        cut = _("Cut for deal: %(first)s cuts %(first_card)s, %(second)s %(second_card)s.") % {
            "first": seats.name(0),
            "first_card": cards["yours"],
            "second": seats.name(1),
            "second_card": cards["theirs"],
        }
    else:
        mine, theirs = event.cards[seats.viewer], event.cards[1 - seats.viewer]
        cut = _("Cut for deal: you cut %(yours)s, %(name)s %(theirs)s.") % {
            "yours": card_name(mine),
            "theirs": card_name(theirs),
            "name": seats.name(1 - seats.viewer),
        }
    if event.player is None:
        outcome = _("Equal ranks: cut again.")
    else:
        outcome = _who(
            event,
            seats,
            _("You cut lower and deal first."),
            _("The computer cut lower and deals first."),
            _("%(name)s cut lower and deals first."),
        )
    return f"{cut} {outcome}"


def _cut_of_many(event: Event, seats: Seats) -> str:
    """The cut at a table of three or four: each cutter's card (seats 0 on; with four, one
    of each partnership) and who deals first."""
    cuts = ", ".join(
        _("%(name)s %(card)s") % {"name": _seat_word(seats, seat), "card": card_name(card)}
        for seat, card in enumerate(event.cards)
    )
    cut = _("Cut for deal: %(cuts)s.") % {"cuts": cuts}
    if event.player is None:
        outcome = _("Equal lowest ranks: cut again.")
    else:
        outcome = _who(
            event,
            seats,
            _("You cut lowest and deal first."),
            "",
            _("%(name)s cut lowest and deals first."),
        )
    return f"{cut} {outcome}"


def _seat_word(seats: Seats, seat: int) -> str:
    """A seat as a list names it: "you" for the reader, else its name."""
    return _("you") if seat == seats.viewer else seats.name(seat)


def _discard(event: Event, seats: Seats) -> str:
    if event.player == seats.viewer:
        return _("You lay away %(cards)s.") % {"cards": card_names(event.cards)}
    if len(event.cards) == 1:
        return _("%(name)s lays away a card.") % {"name": seats.name(event.player)}
    return _who(
        event, seats, "", _("The computer lays away two cards."), _("%(name)s lays away two cards.")
    )


def _play(event: Event, seats: Seats) -> str:
    values = {"card": card_name(_card(event)), "count": event.count, "points": event.points}
    if event.points:
        return _who(
            event,
            seats,
            _("You play %(card)s, count %(count)s: %(points)s points."),
            _("The computer plays %(card)s, count %(count)s: %(points)s points."),
            _("%(name)s plays %(card)s, count %(count)s: %(points)s points."),
            **values,
        )
    return _who(
        event,
        seats,
        _("You play %(card)s, count %(count)s."),
        _("The computer plays %(card)s, count %(count)s."),
        _("%(name)s plays %(card)s, count %(count)s."),
        **values,
    )


def _show(event: Event, seats: Seats) -> str:
    points = event.points or 0
    if event.what == "crib":
        return _who(
            event,
            seats,
            _("Your crib: %(points)s points."),
            _("The computer's crib: %(points)s points."),
            _("%(name)s counts the crib: %(points)s points."),
            points=points,
        )
    return _who(
        event,
        seats,
        _("Your hand: %(points)s points."),
        _("The computer's hand: %(points)s points."),
        _("%(name)s counts the hand: %(points)s points."),
        points=points,
    )


def _muggins(event: Event, seats: Seats) -> str:
    if event.called is not None:  # a call above the points missed: final, and it won nothing
        if seats.names is not None and seats.viewer is None:
            assert event.player is not None
            return _(
                "%(name)s called muggins for %(points)s points, but %(other)s missed fewer: "
                "the call wins nothing."
            ) % {
                "name": seats.name(event.player),
                "other": seats.name(1 - event.player),
                "points": event.called,
            }
        return _who(
            event,
            seats,
            _(
                "You called muggins for %(points)s points, but fewer were missed: the call wins "
                "nothing."
            ),
            _("The computer called muggins for %(points)s points: the call wins nothing."),
            _(
                "%(name)s called muggins for %(points)s points, but you missed fewer: the call "
                "wins nothing."
            ),
            points=event.called,
        )
    if not event.points:  # a call between people that let the count stand
        return _who(
            event,
            seats,
            _("You let the count stand."),
            _("The computer lets the count stand."),
            _("%(name)s lets the count stand."),
        )
    if seats.names is not None and seats.viewer is None:
        assert event.player is not None
        return _("Muggins! %(name)s claims the %(points)s points %(other)s missed.") % {
            "name": seats.name(event.player),
            "other": seats.name(1 - event.player),
            "points": event.points,
        }
    other = "" if seats.names is None else seats.name(1 - (seats.viewer or 0))
    return _who(
        event,
        seats,
        _("Muggins! You claim the %(points)s points the computer missed.")
        if seats.names is None
        else _("Muggins! You claim the %(points)s points %(other)s missed."),
        _("Muggins! The computer claims the %(points)s points you missed."),
        _("Muggins! %(name)s claims the %(points)s points you missed."),
        points=event.points,
        other=other,
    )


def _win_of_many(event: Event, seats: Seats) -> str:
    """The win at a table of three or four: the winning side and every side's score."""
    scores = event.scores or ()
    side = seats.side(event.player if event.player is not None else 0)
    listed = ", ".join(
        f"{name} {score}" for name, score in zip(seats.side_names, scores, strict=False)
    )
    viewer = seats.viewer
    partners = len(seats.side_of) == 4
    values = {"scores": listed, "name": seats.side_names[side]}
    if viewer is not None and seats.side(viewer) == side:
        if partners:
            text = _("You and your partner win the game: %(scores)s.") % values
        else:
            text = _("You win the game: %(scores)s.") % values
    elif partners:
        text = _("%(name)s win the game: %(scores)s.") % values
    else:
        text = _("%(name)s wins the game: %(scores)s.") % values
    if event.skunk is Skunk.SKUNK:
        return text + " " + _("A skunk!")
    if event.skunk is Skunk.DOUBLE:
        return text + " " + _("A double skunk!")
    return text


def _win(event: Event, seats: Seats) -> str:
    if seats.many:
        return _win_of_many(event, seats)
    scores = event.scores or (0, 0)
    winner = event.player if event.player is not None else 0
    you = winner if seats.viewer is None else seats.viewer  # "you": the reader's score
    text = _who(
        event,
        seats,
        _("You win the game, %(you)s to %(computer)s."),
        _("The computer wins the game, %(computer)s to %(you)s."),
        _("%(name)s wins the game, %(winner)s to %(loser)s."),
        you=scores[you],
        computer=scores[1 - you],
        winner=scores[winner],
        loser=scores[1 - winner],
    )
    # Each sentence is written out for the catalogue (an _() inside an f-string is not).
    if event.skunk is Skunk.SKUNK:
        return text + " " + _("A skunk!")
    if event.skunk is Skunk.DOUBLE:
        return text + " " + _("A double skunk!")
    return text


_TEXTS: dict[EventType, Callable[[Event, Seats], str]] = {
    EventType.CUT: _cut,
    EventType.DEAL: lambda e, seats: _who(
        e, seats, _("You deal."), _("The computer deals."), _("%(name)s deals.")
    ),
    EventType.DISCARD: _discard,
    EventType.STARTER: lambda e, seats: (
        _("The starter is %(card)s.") % {"card": card_name(_card(e))}
    ),
    EventType.HEELS: lambda e, seats: _who(
        e,
        seats,
        _("A jack is turned: 2 for his heels to you."),
        _("A jack is turned: 2 for his heels to the computer."),
        _("A jack is turned: 2 for his heels to %(name)s."),
    ),
    EventType.PLAY: _play,
    EventType.GO: lambda e, seats: _who(
        e, seats, _("You say go."), _("The computer says go."), _("%(name)s says go.")
    ),
    EventType.LAST: lambda e, seats: _who(
        e,
        seats,
        _("You score 1 for the last card."),
        _("The computer scores 1 for the last card."),
        _("%(name)s scores 1 for the last card."),
    ),
    EventType.RESET: lambda e, seats: _("The count starts again from 0."),
    EventType.SHOW: _show,
    EventType.MUGGINS: _muggins,
    EventType.WIN: _win,
}
