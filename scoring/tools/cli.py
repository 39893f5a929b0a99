"""``python -m scoring``: count a hand, weigh a discard or play a game in the terminal.

Subcommands: ``score`` (a hand's breakdown), ``discard`` (the six-card discard
analysis of ``scoring.players.discarding``: hand, crib, peg and total EV of each of
the 15 discards, best first), ``play`` (a whole game against the computer)
and ``selfplay`` / ``bench`` (forwarded to ``scoring.tools.selfplay`` and
``scoring.tools.bench``). This module is the engine's edge: it alone reads and
writes the terminal. Exit status 2 means the input was not understood.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from scoring.rules.cards import Card, InvalidCardError, format_cards, parse_cards
from scoring.rules.events import item_to_json
from scoring.rules.hand import score_hand

FORWARDED = ("selfplay", "bench")


class UsageError(ValueError):
    """Input the command cannot use; reported on stderr with exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    score = commands.add_parser("score", help="count a hand or crib with its starter")
    score.add_argument("cards", nargs=4, metavar="CARD", help="four cards, like 5H 5C 5S JD")
    score.add_argument("--starter", required=True, help="the starter, like 5D")
    score.add_argument("--crib", action="store_true", help="count it as the crib")
    score.add_argument("--json", action="store_true", help="print JSON")

    discard = commands.add_parser("discard", help="rank the 15 discards of six cards")
    discard.add_argument("cards", nargs=6, metavar="CARD")
    seat = discard.add_mutually_exclusive_group(required=True)
    seat.add_argument("--dealer", action="store_true", help="the crib is yours")
    seat.add_argument("--pone", action="store_true", help="the crib is your opponent's")
    discard.add_argument("--level", default="expert", help="the computer player's level")
    discard.add_argument("--json", action="store_true", help="print JSON")

    play = commands.add_parser("play", help="play a game against the computer")
    play.add_argument("--level", default="standard", help="the computer player's level")
    play.add_argument("--seed", type=int, default=None, help="the game's seed (random if left out)")
    play.add_argument("--name", default="You", help="your name on the board")
    play.add_argument("--count-yourself", action="store_true", help="count your own hands")
    play.add_argument("--muggins", action="store_true", help="the computer takes points you miss")

    for name in FORWARDED:
        commands.add_parser(name, add_help=False, help=f"see python -m scoring {name} --help")
    return parser


def main(
    argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Run one subcommand; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    out = stdout or sys.stdout
    if args_list and args_list[0] in FORWARDED:
        return _forward(args_list[0], args_list[1:])
    args = build_parser().parse_args(args_list)
    try:
        if args.command == "score":
            return _score(args, out)
        if args.command == "discard":
            return _discard(args, out)
        from scoring.tools.terminal import play_in_terminal  # the game loop, only when playing

        return play_in_terminal(args, stdin or sys.stdin, out)
    except (InvalidCardError, UsageError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _forward(command: str, argv: list[str]) -> int:
    if command == "selfplay":
        from scoring.tools.selfplay import main as selfplay_main  # loads the computer players

        return selfplay_main(argv)
    from scoring.tools.bench import main as bench_main

    return bench_main(argv)


def _distinct(cards: Sequence[Card], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise UsageError(f"{what} holds the same card twice: {format_cards(cards)}")


def _score(args: argparse.Namespace, out: TextIO) -> int:
    hand, starter = parse_cards(args.cards), Card.parse(args.starter)
    _distinct([*hand, starter], "the hand with its starter")
    score = score_hand(hand, starter, crib=args.crib)
    if args.json:
        data: dict[str, Any] = {
            "hand": [str(card) for card in hand],
            "starter": str(starter),
            "crib": args.crib,
            "items": [item_to_json(item) for item in score.items],
            "total": score.total,
        }
        print(json.dumps(data), file=out)
        return 0
    label = "crib" if args.crib else "hand"
    print(f"{label} {format_cards(hand)}, starter {starter}", file=out)
    for item in score.items:
        print(f"  {item.kind:<10} {format_cards(item.cards):<15} {item.points:>2}", file=out)
    print(f"total {score.total}", file=out)
    return 0


def _discard(args: argparse.Namespace, out: TextIO) -> int:
    from scoring.players.strategy import (
        analyse_discards,  # slow to import; only this command needs it
    )

    six = parse_cards(args.cards)
    _distinct(six, "the six cards")
    try:
        options = analyse_discards(six, dealer=args.dealer, level=args.level)
    except ValueError as error:  # an unknown level
        raise UsageError(str(error)) from error
    if args.json:
        rows = [
            {
                "discard": [str(card) for card in option.discard],
                "hand_ev": option.hand_ev,
                "crib_ev": option.crib_ev,
                "peg_ev": option.peg_ev,
                "total_ev": option.total_ev,
            }
            for option in options
        ]
        print(json.dumps(rows), file=out)
        return 0
    seat = "dealer (your crib)" if args.dealer else "pone (their crib)"
    print(f"{format_cards(six)} as {seat}, best discard first ({args.level})", file=out)
    print(f"{'discard':<8} {'hand':>7} {'crib':>7} {'peg':>7} {'total':>7}", file=out)
    for option in options:
        numbers = (option.hand_ev, option.crib_ev, option.peg_ev, option.total_ev)
        print(
            f"{format_cards(option.discard):<8}" + "".join(f" {x:>7.2f}" for x in numbers), file=out
        )
    return 0
