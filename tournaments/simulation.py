"""Rehearsing a tournament: matches played by the engine's computer players.

``play_match`` plays one best-of-N match game by game, both seats at ``level``,
and returns what the players would report (the cut's first dealer, each game's
winner and loser's score) with the engine's record of every game. It is
deterministic for a seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.players.strategy import ComputerPlayer, finish_match
from scoring.rules.match import Match as LiveMatch


@dataclass(frozen=True)
class PlayedOut:
    first_dealer: int
    games: list[tuple[int, int]]
    records: list[dict[str, Any]]


def play_match(*, seed: int, best_of: int, names: tuple[str, str], level: str) -> PlayedOut:
    """Play a whole match between two computer players of ``level``."""
    live = LiveMatch.new(seed=seed, best_of=best_of, players=names)
    finish_match(
        live, {0: ComputerPlayer(level, seed * 2 + 1), 1: ComputerPlayer(level, seed * 2 + 2)}
    )
    games = [(g.winner, g.scores[1 - g.winner]) for g in live.games if g.winner is not None]
    return PlayedOut(
        first_dealer=live.games[0].first_dealer,
        games=games,
        records=[g.record() for g in live.games],
    )
