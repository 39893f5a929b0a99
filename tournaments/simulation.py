"""Rehearsing a tournament: matches played by the engine's computer players.

``play_match`` plays one best-of-N match game by game, each seat at its own
``levels`` entry, and returns what the players would report (the cut's first
dealer, each game's winner and loser's score) with the engine's record of every
game. It is deterministic for a seed.

``spread_levels`` gives each simulated player a computer level: the players, in
the order given, take the levels in turn, so each level gets the same number of
players (give or take one) and a member keeps their level from one rehearsal to
the next as long as the same members play in the same order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from scoring.players.strategy import ComputerPlayer, finish_match
from scoring.rules.match import Match as LiveMatch

_Player = TypeVar("_Player")


@dataclass(frozen=True)
class PlayedOut:
    first_dealer: int
    games: list[tuple[int, int]]
    records: list[dict[str, Any]]


def play_match(
    *, seed: int, best_of: int, names: tuple[str, str], levels: tuple[str, str]
) -> PlayedOut:
    """Play a whole match between two computer players, seat 0 at ``levels[0]``."""
    live = LiveMatch.new(seed=seed, best_of=best_of, players=names)
    finish_match(
        live,
        {0: ComputerPlayer(levels[0], seed * 2 + 1), 1: ComputerPlayer(levels[1], seed * 2 + 2)},
    )
    games = [(g.winner, g.scores[1 - g.winner]) for g in live.games if g.winner is not None]
    return PlayedOut(
        first_dealer=live.games[0].first_dealer,
        games=games,
        records=[g.record() for g in live.games],
    )


def spread_levels(players: Sequence[_Player], levels: Sequence[str]) -> dict[_Player, str]:
    """Each of ``players`` with its level: the first takes ``levels[0]``, the next
    ``levels[1]``, and so on round the levels again."""
    if not levels:
        raise ValueError("players are spread over at least one level")
    return {player: levels[index % len(levels)] for index, player in enumerate(players)}
