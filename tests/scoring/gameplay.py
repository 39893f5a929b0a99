"""Helpers for the game tests: prearranged deals, random legal decisions, traces."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from scoring.rules.cards import Card, parse_cards
from scoring.rules.events import Event, Phase
from scoring.rules.game import Game
from scoring.rules.hand import score_hand

PONE, DEALER = 0, 1


def stacked_game(
    pone: str, dealer: str, starter: str, *, scores: tuple[int, int] = (0, 0), **options: Any
) -> Game:
    """A game whose first deal is the given sixes and starter; player 1 deals."""
    hands = (parse_cards(pone), parse_cards(dealer))
    return Game.new(
        seed=7,
        first_dealer=DEALER,
        stacked=[(hands, Card.parse(starter))],
        scores=scores,
        **options,
    )


def discard_both(game: Game, pone: str, dealer: str) -> list[Event]:
    events = game.discard(game.pone, parse_cards(pone))
    return events + game.discard(game.dealer, parse_cards(dealer))


def lay(game: Game, moves: str) -> list[Event]:
    """Lay each card by whoever is to move."""
    events: list[Event] = []
    for token in moves.split():
        player = game.to_move
        assert player is not None
        events += game.play(player, Card.parse(token))
    return events


def trace(
    events: Iterable[Event], types: Iterable[str] = ("play", "go", "last", "reset")
) -> list[str]:
    """Events as short lines: ``"play 0 KH 10 0"``, ``"go 1"``, ``"last 0 1"``, ``"reset"``."""
    wanted = set(types)
    lines = []
    for event in events:
        if event.type not in wanted:
            continue
        parts: list[str] = [event.type]
        if event.player is not None:
            parts.append(str(event.player))
        if event.type == "play":
            parts += [str(event.card), str(event.count)]
        if event.type in ("show", "claim"):
            parts.append(str(event.what))
        if event.points is not None:
            parts.append(str(event.points))
        lines.append(" ".join(parts))
    return lines


def worth_of_show(game: Game) -> int:
    assert game.showing is not None
    assert game.starter is not None
    _, what, cards = game.showing
    return score_hand(cards, game.starter, crib=what == "crib").total


def random_decision(game: Game, rng: random.Random) -> list[Event]:
    """Any legal decision, chosen by ``rng`` (either awaited player while discarding)."""
    player = rng.choice(sorted(game.awaiting))
    if game.phase is Phase.DISCARD:
        return game.discard(player, rng.choice(game.legal_discards(player)))
    if game.phase is Phase.PLAY:
        return game.play(player, rng.choice(game.legal_plays(player)))
    if game.phase is Phase.MUGGINS:
        assert game.missed is not None
        return game.call_muggins(player, rng.randint(0, game.missed))
    return game.count_hand(player, rng.randint(0, worth_of_show(game)))


def play_randomly(game: Game, rng: random.Random, steps: int | None = None) -> Game:
    """Take random decisions until the game is over (or ``steps`` were taken)."""
    taken = 0
    while game.phase is not Phase.DONE and (steps is None or taken < steps):
        random_decision(game, rng)
        taken += 1
    return game


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a player or a saved game can observe."""
    return (
        json.dumps(game.to_json(), sort_keys=True),
        game.hand(0),
        game.hand(1),
        game.count,
        game.scores,
        game.previous_scores,
        game.events,
        game.phase,
        game.to_move,
        game.awaiting,
        game.sequence,
        game.crib,
    )
