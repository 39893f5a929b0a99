"""The club's rating list, period by period: everyone's rating after each rating period.

Plain Python over player ids (``ratings.bridge`` turns the tournaments into its
inputs; ``ratings.services`` stores what it returns). Terms:

- *period*: a rating period, here one tournament round; periods are rated one after
  another and numbered by their *position* (1 is the first ever rated).
- *outcome*: one rated match of a period, its winner and its loser. A match is one
  result in Glicko-2 terms, however many games it took.
- *rated player*: a player with at least one rated match, as they stand after the last
  period they played in (their ``period``), with the matches and wins rated so far.
- A rated player's rating *after* a later period: the periods between, in which they
  did not play, have grown their deviation (``glicko.idle``) and changed nothing else.
  A player's first period starts from the unrated player's values (``glicko.Rating()``).

Everyone in a period is rated from everyone's rating at its start (the paper's
rating period: the results count as played at the same time), so the order of the
outcomes inside a period changes nothing but the last bits of the sums; callers pass
them in a fixed order, so that rating the same results again gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ratings.glicko import Rating, Result, idle, rate

__all__ = ["Outcome", "RatedPlayer", "rate_period", "rate_periods"]

WIN = 1.0
LOSS = 0.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """A rated match: the player who won it and the player who lost it (player ids)."""

    winner: int
    loser: int

    def __post_init__(self) -> None:
        if self.winner == self.loser:
            raise ValueError(f"a player cannot play themselves: {self!r}")

    @property
    def players(self) -> tuple[int, int]:
        return (self.winner, self.loser)


@dataclass(frozen=True, slots=True)
class RatedPlayer:
    """A player after the last period they played in (``period``, its position)."""

    rating: Rating
    period: int
    matches: int
    wins: int

    def after(self, position: int) -> Rating:
        """The player's rating after the period at ``position`` (no earlier than ``period``)."""
        if position < self.period:
            raise ValueError(f"position {position} is before the player's period {self.period}")
        return idle(self.rating, position - self.period)


def rate_period(
    outcomes: Sequence[Outcome], *, position: int, players: Mapping[int, RatedPlayer]
) -> dict[int, RatedPlayer]:
    """Everyone who played in the period at ``position``, after it, by player id.

    ``players`` are the rated players before the period (everyone else is unrated); a
    player's results count in the order of ``outcomes``.
    """
    start: dict[int, Rating] = {}
    results: dict[int, list[Result]] = {}
    for outcome in outcomes:
        for player in (outcome.winner, outcome.loser):
            if player not in start:
                known = players.get(player)
                start[player] = Rating() if known is None else known.after(position - 1)
                results[player] = []
        results[outcome.winner].append(Result(start[outcome.loser], WIN))
        results[outcome.loser].append(Result(start[outcome.winner], LOSS))
    rated = {}
    for player, played in results.items():
        known = players.get(player)
        wins = sum(result.score == WIN for result in played)
        rated[player] = RatedPlayer(
            rating=rate(start[player], played),
            period=position,
            matches=len(played) + (known.matches if known else 0),
            wins=wins + (known.wins if known else 0),
        )
    return rated


def rate_periods(
    periods: Iterable[Sequence[Outcome]],
    *,
    first: int = 1,
    players: Mapping[int, RatedPlayer] | None = None,
) -> list[dict[int, RatedPlayer]]:
    """Each period's players after it (as :func:`rate_period`), the first period at
    position ``first`` and the rest after it in turn, from the rated players before
    ``first`` (none: the list starts empty)."""
    standing = dict(players or {})
    rated = []
    for position, outcomes in enumerate(periods, start=first):
        after = rate_period(outcomes, position=position, players=standing)
        standing.update(after)
        rated.append(after)
    return rated
