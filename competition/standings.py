"""Standings: totals per entrant from the decided matches, ordered by a tie-break chain.

Terms used here (docs/rules.md §4.2):

- *match win* / *match loss*: a decided match won or lost; a *bye* is a match
  win against nobody, worth ``ByeValue`` (by default two plain game wins:
  4 game points, spread 0).
- *game points*: per game won, by the tournament's ``GamePoints`` scheme (a
  plain win, a skunk, a double skunk); nothing for a game lost.
- *spread*: per game, ``121 - loser's score`` to the winner and minus that to
  the loser.
- *Buchholz*: the sum of the match wins of the opponents met (byes are no
  opponent); a strong field behind a score counts in its favour.
- *head to head*: among players still tied, the match wins each took in the
  matches played between those players only. Players with more rank higher;
  the rest stay tied, and among each group it left tied it is applied again
  (a mini-league of the smaller group) until it separates no one more.
- *tie-break chain*: the keys compared in order, each only among players still
  tied on every earlier key. Players tied on every key share a place: they get
  the same ``rank`` with ``shared=True``, are listed by entrant id, and the next
  place skips (1, 2, 2, 4).

Only decided matches count: a match whose ``winner`` is ``None`` is ignored,
games and all. The standings after round *n* are those of the matches of rounds
1 to *n*: the caller passes just those.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter

from scoring.rules.events import WINNING_SCORE
from scoring.rules.match import GamePoints, game_points, spread

__all__ = [
    "DEFAULT_TIEBREAKS",
    "TIEBREAKS",
    "ByeValue",
    "GameScore",
    "PlayedMatch",
    "Standing",
    "compute_standings",
]

DEFAULT_TIEBREAKS = ("match_wins", "game_points", "spread", "buchholz", "head_to_head")
HEAD_TO_HEAD = "head_to_head"


@dataclass(frozen=True, slots=True)
class GameScore:
    """One game of a match: its winner (an entrant id) and the loser's score."""

    winner: int
    loser_score: int


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A match of a round: two players, or one for a bye; ``winner`` None = undecided."""

    round: int
    players: tuple[int, ...]
    winner: int | None
    games: tuple[GameScore, ...] = ()

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1


@dataclass(frozen=True, slots=True)
class ByeValue:
    """What a bye is worth beside the match win (docs/rules.md §4.3: two plain game wins)."""

    game_points: int = 4
    spread: int = 0
    games_won: int = 2

    @classmethod
    def plain_wins(cls, points: GamePoints, games: int = 2) -> ByeValue:
        """A bye worth ``games`` plain game wins under ``points`` (2 x 1 for 1/1/1)."""
        return cls(game_points=games * points.win, spread=0, games_won=games)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings; ``rank`` 1 is the top, ``shared`` when tied on every key."""

    rank: int
    shared: bool
    entrant: int
    played: int
    match_wins: int
    match_losses: int
    byes: int
    games_won: int
    games_lost: int
    game_points: int
    spread: int
    buchholz: int
    opponents: tuple[int, ...]

    @property
    def record(self) -> str:
        """Match wins and losses as "W-L", byes counted as wins: "4-2"."""
        return f"{self.match_wins}-{self.match_losses}"

    @property
    def place(self) -> str:
        """The rank as printed, "=" after a shared one: "3=" (and "3" when not shared)."""
        return f"{self.rank}=" if self.shared else str(self.rank)


@dataclass(slots=True)
class _Tally:
    entrant: int
    played: int = 0
    match_wins: int = 0
    byes: int = 0
    games_won: int = 0
    games_lost: int = 0
    game_points: int = 0
    spread: int = 0
    buchholz: int = 0
    opponents: list[int] = field(default_factory=list)
    beaten: list[int] = field(default_factory=list)


_KEY_VALUES: dict[str, Callable[[_Tally], int]] = {
    key: attrgetter(key) for key in ("match_wins", "game_points", "spread", "buchholz", "games_won")
}
TIEBREAKS: tuple[str, ...] = (*_KEY_VALUES, HEAD_TO_HEAD)
"""Every key the chain may hold: a total compared between players, or head to head."""


@dataclass(frozen=True, slots=True)
class _GameValues:
    """Game points and spread by the loser's score (0-120), looked up once per game."""

    game_points: tuple[int, ...]
    spread: tuple[int, ...]

    @classmethod
    def of(cls, points: GamePoints) -> _GameValues:
        scores = range(WINNING_SCORE)
        return cls(tuple(game_points(s, points) for s in scores), tuple(spread(s) for s in scores))


def compute_standings(
    entrants: Iterable[int],
    matches: Iterable[PlayedMatch],
    *,
    points: GamePoints,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    bye: ByeValue = ByeValue(),
) -> list[Standing]:
    """Every entrant's standing, best first; see the module docstring for the rules.

    Raises ``ValueError`` for an unknown tie-break key or a match that names a
    player who is not an entrant, a winner who did not play, or an impossible game.
    """
    unknown = [key for key in tiebreaks if key not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break keys: {', '.join(unknown)}")
    tallies = {entrant: _Tally(entrant) for entrant in entrants}
    values = _GameValues.of(points)
    decided = sorted((m for m in matches if m.winner is not None), key=attrgetter("round"))
    for match in decided:
        _check(tallies, match)
        _count(tallies, match, values, bye)
    for tally in tallies.values():
        tally.buchholz = sum(tallies[o].match_wins for o in tally.opponents)
    groups = _rank_groups(list(tallies.values()), tuple(tiebreaks))
    return _standings(groups)


def _count(
    tallies: dict[int, _Tally], match: PlayedMatch, values: _GameValues, bye: ByeValue
) -> None:
    """Adds a checked match to its players' tallies."""
    if match.is_bye:
        tally = tallies[match.players[0]]
        tally.played += 1
        tally.match_wins += 1
        tally.byes += 1
        tally.game_points += bye.game_points
        tally.spread += bye.spread
        tally.games_won += bye.games_won
        return
    first, second = match.players
    one, two = tallies[first], tallies[second]
    one.played += 1
    two.played += 1
    one.opponents.append(second)
    two.opponents.append(first)
    winner, loser = (one, two) if match.winner == first else (two, one)
    winner.match_wins += 1
    winner.beaten.append(loser.entrant)
    for game in match.games:
        winner, loser = (one, two) if game.winner == first else (two, one)
        winner.games_won += 1
        loser.games_lost += 1
        winner.game_points += values.game_points[game.loser_score]
        margin = values.spread[game.loser_score]
        winner.spread += margin
        loser.spread -= margin


def _check(tallies: dict[int, _Tally], match: PlayedMatch) -> None:
    players = match.players
    if not (len(players) == 1 or len(players) == 2 and players[0] != players[1]):
        raise _impossible(match, "a match has two different players, a bye one")
    strangers = [p for p in players if p not in tallies]
    if strangers:
        raise _impossible(match, f"not entrants: {strangers}")
    if match.winner not in players:
        raise _impossible(match, f"the winner {match.winner} did not play")
    for game in match.games:
        if match.is_bye or game.winner not in players:
            raise _impossible(match, f"a game won by {game.winner}, who did not play")
        if not 0 <= game.loser_score < WINNING_SCORE:
            raise _impossible(match, f"the loser's score is 0 to 120, not {game.loser_score}")


def _impossible(match: PlayedMatch, problem: str) -> ValueError:
    return ValueError(f"round {match.round}, {match.players}: {problem}")


def _rank_groups(players: list[_Tally], chain: tuple[str, ...]) -> list[list[_Tally]]:
    """Split the players into groups still tied after the chain, best group first."""
    groups = [players]
    for key in chain:
        split = _head_to_head if key == HEAD_TO_HEAD else _by_value(_KEY_VALUES[key])
        groups = [
            part for group in groups for part in (split(group) if len(group) > 1 else [group])
        ]
    return groups


def _by_value(value: Callable[[_Tally], int]) -> Callable[[list[_Tally]], list[list[_Tally]]]:
    def split(group: list[_Tally]) -> list[list[_Tally]]:
        ordered = sorted(group, key=value, reverse=True)
        return [list(part) for _, part in groupby(ordered, key=value)]

    return split


def _head_to_head(group: list[_Tally]) -> list[list[_Tally]]:
    """The mini-league among ``group``, repeated within every part it leaves tied."""
    members = {t.entrant for t in group}

    def wins_inside(tally: _Tally) -> int:
        return sum(1 for beaten in tally.beaten if beaten in members)

    parts = _by_value(wins_inside)(group)
    if len(parts) == 1:
        return parts
    return [piece for part in parts for piece in (_head_to_head(part) if len(part) > 1 else [part])]


def _standings(groups: list[list[_Tally]]) -> list[Standing]:
    result: list[Standing] = []
    for group in groups:
        rank, shared = len(result) + 1, len(group) > 1
        for t in sorted(group, key=attrgetter("entrant")) if shared else group:
            result.append(
                Standing(
                    rank=rank,
                    shared=shared,
                    entrant=t.entrant,
                    played=t.played,
                    match_wins=t.match_wins,
                    match_losses=t.played - t.match_wins,
                    byes=t.byes,
                    games_won=t.games_won,
                    games_lost=t.games_lost,
                    game_points=t.game_points,
                    spread=t.spread,
                    buchholz=t.buchholz,
                    opponents=tuple(t.opponents),
                )
            )
    return result
