"""A game against the computer in the terminal (``python -m scoring play``).

The human is player 0, the computer player 1. Cards are typed in notation
(``5H``) or by their position in the hand shown (``1`` to ``6``); ``q`` quits.
The computer's discards stay hidden, as at the table.
"""

from __future__ import annotations

import argparse
import random
from typing import TextIO

from scoring.rules.cards import Card, InvalidCardError, format_cards, parse_cards
from scoring.rules.events import Event, EventType, IllegalPlayError, Phase, Skunk
from scoring.rules.game import Game

HUMAN, COMPUTER = 0, 1


class Quit(Exception):
    """The player typed q or the input ended."""


def play_in_terminal(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    from scoring.players.strategy import ComputerPlayer, play_computers  # loads the players' tables

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    game = Game.new(
        seed=seed,
        players=(args.name, "Computer"),
        self_count=frozenset({HUMAN}) if args.count_yourself else frozenset(),
        muggins=args.muggins,
    )
    computer = ComputerPlayer(args.level, seed)
    print(f"Game {seed} against the {args.level} computer; first to 121 wins.", file=out)
    _tell(game, game.events, out)
    try:
        while game.phase is not Phase.DONE:
            _tell(game, play_computers(game, {COMPUTER: computer}), out)
            if HUMAN in game.awaiting:
                _tell(game, _ask_human(game, stdin, out), out)
    except Quit:
        print("Game abandoned.", file=out)
        return 0
    return 0


def _ask_human(game: Game, stdin: TextIO, out: TextIO) -> list[Event]:
    """Ask until the human's answer is legal; return the events it produced."""
    while True:
        _show_table(game, out)
        prompt = _PROMPTS[game.phase]
        answer = _read(f"{prompt}: ", stdin, out)
        try:
            if game.phase is Phase.DISCARD:
                return game.discard(HUMAN, _cards(answer, game.hand(HUMAN)))
            if game.phase is Phase.PLAY:
                return game.play(HUMAN, _one(_cards(answer, game.hand(HUMAN))))
            return game.count_hand(HUMAN, _points(answer))
        except (IllegalPlayError, InvalidCardError, _Unclear) as error:
            print(f"  {error}", file=out)


_PROMPTS = {
    Phase.DISCARD: "Lay two cards away to the crib",
    Phase.PLAY: "Your card",
    Phase.COUNT: "How many points do you count",
}


class _Unclear(ValueError):
    """An answer the terminal cannot read as a decision (the rules have not been asked yet)."""


def _read(prompt: str, stdin: TextIO, out: TextIO) -> str:
    out.write(prompt)
    out.flush()
    line = stdin.readline()
    if not line or line.strip().lower() in ("q", "quit"):
        raise Quit
    return line.strip()


def _cards(answer: str, hand: tuple[Card, ...]) -> list[Card]:
    """Cards typed in notation or as positions 1-6 in the hand shown."""
    tokens = answer.replace(",", " ").split()
    if tokens and all(token.isdigit() for token in tokens):
        if not all(1 <= int(token) <= len(hand) for token in tokens):
            raise _Unclear(f"positions go from 1 to {len(hand)}")
        return [hand[int(token) - 1] for token in tokens]
    return parse_cards(tokens)


def _one(cards: list[Card]) -> Card:
    if len(cards) != 1:
        raise _Unclear("lay one card")
    return cards[0]


def _points(answer: str) -> int:
    if not answer.isdigit():
        raise _Unclear(f"{answer!r} is not a number of points")
    return int(answer)


def _show_table(game: Game, out: TextIO) -> None:
    you, them = game.scores
    print(f"\n  Score: you {you}, computer {them}.", file=out)
    if game.phase is Phase.PLAY:
        laid = format_cards(card for _, card in game.sequence) or "-"
        print(f"  Count {game.count} ({laid}). Starter {game.starter}.", file=out)
    if game.phase is not Phase.COUNT:
        hand = "  ".join(f"{i}:{card}" for i, card in enumerate(game.hand(HUMAN), start=1))
        print(f"  Your hand: {hand}", file=out)
    else:
        _, what, cards = game.showing or (HUMAN, "hand", ())
        print(f"  Your {what}: {format_cards(cards)}, starter {game.starter}", file=out)


def _tell(game: Game, events: list[Event] | tuple[Event, ...], out: TextIO) -> None:
    for event in events:
        line = _describe(game, event)
        if line:
            print(line, file=out)


def _describe(game: Game, event: Event) -> str | None:
    human = event.player == HUMAN
    who = "You" if human else "Computer"
    ending = "" if human else "s"  # "you lay", "computer lays"
    points = f" for {event.points}" if event.points else ""
    match event.type:
        case EventType.CUT:
            cards = format_cards(event.cards)
            dealer = "nobody: cut again" if event.player is None else game.players[event.player]
            return f"Cut for deal: {cards}; the deal goes to {dealer}."
        case EventType.DEAL:
            return f"\n=== {'You deal' if event.player == HUMAN else 'Computer deals'} ==="
        case EventType.DISCARD:
            return "You lay away two cards." if event.player == HUMAN else None
        case EventType.STARTER:
            return f"The starter is {event.card}."
        case EventType.HEELS:
            return f"{who} score{ending} 2 for his heels."
        case EventType.PLAY:
            return f"{who} lay{ending} {event.card}: {event.count}{points}."
        case EventType.GO:
            return f"{who} say{ending} go."
        case EventType.LAST:
            return f"{who} score{ending} 1 for last."
        case EventType.SHOW:
            owner = "Your" if event.player == HUMAN else "Computer's"
            return (
                f"{owner} {event.what} {format_cards(event.cards)}: {event.points} ({event.said})."
            )
        case EventType.CLAIM:
            return f"{who} claim{ending} {event.points} for the {event.what}: checked next."
        case EventType.MUGGINS:
            return f"Muggins! {who} take{ending} the {event.points} points you missed."
        case EventType.WIN:
            return f"\n{game.players[event.player or 0]} won, {game.scores[0]}-{game.scores[1]}" + (
                f" ({event.skunk} skunk)." if event.skunk is not Skunk.NONE else "."
            )
    return None
