"""Replaying a game record through the rules, one decision at a time.

A *record* (``Game.record()``) holds each deal's cards and the events that
happened. The decisions in it (the discards, each card laid, each claim of a
self-counted hand, each call of muggins) are taken again on a game dealt the
recorded cards; every event the rules then produce must match the recorded one,
so a replay both shows a game step by step and checks that its record is true.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.rules.cards import DECK, Card, InvalidCardError, parse_cards
from scoring.rules.events import RECORD_TYPES, WINNING_SCORE, Event, EventType, Phase
from scoring.rules.game import Game
from scoring.rules.seats import seating
from scoring.rules.table import StackedDeal

_DECIDED_IN_TURN = (Phase.PLAY, Phase.COUNT, Phase.MUGGINS)
"""The phases after the discards: one player decides at a time, each decision an event."""

# The fields a recorded event is checked on; others (scores, cards) are extras.
CHECKED_FIELDS = ("type", "player", "points", "card", "count", "what", "claimed", "called")


class RecordError(ValueError):
    """A record whose events are not what its decisions give under the rules."""


@dataclass(frozen=True)
class ReplayStep:
    """The game after one decision of the record (or at the start: ``decision`` None)."""

    decision: dict[str, Any] | None
    events: tuple[Event, ...]
    game: Game


def replay(record: Mapping[str, Any]) -> Iterator[ReplayStep]:
    """Each state of a recorded game, from the first deal to the end of the record.

    Every step holds its own copy of the game. Raises ``RecordError`` when the
    record disagrees with the rules, an illegal decision among them.
    """
    for game, step in replay_live(record):
        yield ReplayStep(step[0], step[1], game.copy())


def game_from_record(record: Mapping[str, Any]) -> Game:
    """Replay a game record through the rules (checking its events) to its last state."""
    last: Game | None = None
    for game, _ in replay_live(record):
        last = game
    assert last is not None
    return last


def replay_live(
    record: Mapping[str, Any],
) -> Iterator[tuple[Game, tuple[dict[str, Any] | None, tuple[Event, ...]]]]:
    """Like ``replay`` but yields the one game being replayed (no copies)."""
    game = _game_for(record)
    yield game, (None, game.events)
    for number, deal in enumerate(record["deals"], start=1):
        expected = deque(
            {key: event[key] for key in CHECKED_FIELDS if key in event} for event in deal["events"]
        )
        for decision in _discards(game, deal):
            yield game, (decision, _checked(game, decision, expected, number))
        while game.phase in _DECIDED_IN_TURN and game.deal_number == number:
            if not expected:
                return  # a record of a game still in progress
            decision = _next_decision(game, expected, number)
            yield game, (decision, _checked(game, decision, expected, number))
        if expected:
            raise RecordError(f"deal {number}: the record goes on after the rules stop")
    _check_result(game, record)


def _game_for(record: Mapping[str, Any]) -> Game:
    """A game that deals the recorded cards (the seed only matters after the record ends).

    ``seats`` and ``target`` are absent from a two-player game to 121 (every older record).
    """
    try:
        table = seating(record.get("seats", 2))
    except ValueError as error:
        raise RecordError(str(error)) from error
    dealt = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}[table.dealt]
    stacked: list[StackedDeal] = []
    for number, deal in enumerate(record["deals"], start=1):
        try:
            hands = tuple(parse_cards(hand) for hand in deal["hands"])
            from_pack = tuple(parse_cards(deal.get("from_pack", [])))
            starter = Card.parse(deal["starter"]) if deal["starter"] else None
        except InvalidCardError as error:
            raise RecordError(f"deal {number}: {error}") from error
        cards = [card for hand in hands for card in hand]
        cards += [*from_pack, *([starter] if starter else [])]
        if len(hands) != table.seats or any(len(hand) != table.dealt for hand in hands):
            raise RecordError(f"deal {number}: each player is dealt {dealt} cards")
        if len(from_pack) != table.from_pack:
            raise RecordError(
                f"deal {number}: {table.from_pack} card(s) go from the pack to the crib"
            )
        if len(set(cards)) != len(cards):
            raise RecordError(f"deal {number}: a card is dealt twice")
        # Before the starter is turned any card not dealt can stand in for it.
        stacked.append((hands, starter or next(c for c in DECK if c not in cards), from_pack))
    return Game.new(
        seed=record.get("seed", 0),
        players=tuple(record["players"]),
        seats=table.seats,
        target=record.get("target", WINNING_SCORE),
        first_dealer=record["first_dealer"],
        self_count=frozenset(record.get("self_count", ())),
        muggins=record.get("muggins", False),
        callers=frozenset(record.get("callers", ())),
        stacked=stacked,
        scores=record.get("start_scores"),
    )


def _discards(game: Game, deal: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The deal's discards, pone first and the dealer last, as decisions."""
    for player in game.seating.round_from(game.dealer):
        if deal["discards"][player]:
            yield {"player": player, "discard": deal["discards"][player]}


def _next_decision(game: Game, expected: deque[dict[str, Any]], number: int) -> dict[str, Any]:
    """The decision behind the next recorded event: a card laid, a hand counted, a call.

    A claim the opponent checks has no event of its own in the record: the call settles
    it, and the record has the show and then the call's event (none when the show won the
    game, as nothing is scored after it: any call then gives the same).
    """
    event = expected[0]
    if game.phase is Phase.PLAY and event["type"] == EventType.PLAY:
        return {"player": event["player"], "play": event["card"]}
    if game.phase is Phase.COUNT and event["type"] == EventType.SHOW:
        return {"player": event["player"], "count": event.get("claimed", event["points"])}
    if game.phase is Phase.MUGGINS and event["type"] == EventType.SHOW:
        call = expected[1] if len(expected) > 1 else {}
        if call.get("type") != EventType.MUGGINS:
            call = {"points": 0}
        return {"player": 1 - event["player"], "muggins": call.get("called", call["points"])}
    raise RecordError(
        f"deal {number}: the rules wait for a {game.phase} but the record has {event}"
    )


def _checked(
    game: Game, decision: dict[str, Any], expected: deque[dict[str, Any]], number: int
) -> tuple[Event, ...]:
    """Take the decision and check the events it produced against the record."""
    try:
        events = tuple(game.apply(decision))
    except ValueError as error:  # an illegal decision or a card in bad notation
        raise RecordError(f"deal {number}: the record has {decision}, but {error}") from error
    for event in events:
        if event.type not in RECORD_TYPES:
            continue
        got = {k: v for k, v in event.to_json(items=False).items() if k in CHECKED_FIELDS}
        if not expected:
            raise RecordError(f"deal {number}: the rules give {got}, which the record lacks")
        wanted = expected.popleft()
        if got != wanted:
            raise RecordError(f"deal {number}: the record says {wanted}, the rules give {got}")
    return events


def _check_result(game: Game, record: Mapping[str, Any]) -> None:
    if record.get("winner") != game.winner:
        raise RecordError(f"the record names winner {record.get('winner')}, not {game.winner}")
    if "final_scores" in record and list(record["final_scores"]) != list(game.scores):
        raise RecordError(f"the record ends {record['final_scores']}, the rules {game.scores}")
