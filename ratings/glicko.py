"""Glicko-2: one player's rating after one rating period, as Glickman's paper computes it.

Mark E. Glickman, "Example of the Glicko-2 system" (Boston University, 2012/2013),
steps 1 to 8, with the Illinois algorithm for the volatility (step 5). Plain Python,
no Django: ``ratings.periods`` applies it to the club's list, period by period.

Terms:

- *rating* ``r``: the player's strength; 1500 is where everyone starts.
- *deviation* ``RD``: how uncertain the rating is (one standard deviation); the
  player's strength lies within two deviations of the rating, 95 times in 100.
- *volatility* ``sigma``: how erratic the player's results are; it moves the
  deviation up between periods.
- *rating period*: results treated as played at the same time, each player rated
  from everyone's ratings at its start.
- *score*: a result from one player's side, 1 for a win and 0 for a loss (0.5
  would be a draw, which cribbage does not have).
- *tau*: the system constant that limits how fast the volatility changes.
- The *Glicko-2 scale* ``mu``, ``phi``: the rating and deviation divided by
  ``SCALE`` (and the rating less 1500), the scale the paper computes on.

The package ``glicko2`` 2.1.0 was not used: its volatility step squares the player's
rating where the paper squares the deviation (``f(x)`` of step 5), so it reproduces
the worked example (whose player is rated 1500, 0 on the Glicko-2 scale) and nothing
else; its tau is a class attribute shared by every player.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "CONVERGENCE",
    "SCALE",
    "START_DEVIATION",
    "START_RATING",
    "START_VOLATILITY",
    "TAU",
    "Rating",
    "Result",
    "expected_score",
    "idle",
    "rate",
]

START_RATING = 1500.0
"""An unrated player's rating (paper, step 1)."""
START_DEVIATION = 350.0
"""An unrated player's deviation (step 1); an idle player's deviation never grows past it."""
START_VOLATILITY = 0.06
"""An unrated player's volatility (step 1)."""
TAU = 0.5
"""The system constant: how fast the volatility may change (the paper's example uses 0.5)."""
SCALE = 173.7178
"""Ratings and deviations on the Glicko-2 scale are these many rating points (step 2)."""
CONVERGENCE = 0.000001
"""The tolerance of the volatility's iteration (step 5, epsilon)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, deviation and volatility at the start or end of a period."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def __post_init__(self) -> None:
        if not (self.deviation > 0 and self.volatility > 0):
            raise ValueError(f"deviation and volatility must be positive: {self!r}")

    @property
    def margin(self) -> float:
        """Two deviations: the true strength is within the rating ± this, 95 % sure."""
        return 2 * self.deviation

    @property
    def mu(self) -> float:
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


@dataclass(frozen=True, slots=True)
class Result:
    """One game result of a period from the player's side: the opponent's rating at the
    period's start and the player's score (1 won, 0 lost)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, opponent_mu: float, opponent_phi: float) -> float:
    return 1 / (1 + math.exp(-_g(opponent_phi) * (mu - opponent_mu)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, the root of ``f`` found by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        new = low + (low - high) * f_low / (f_high - f_low)
        f_new = f(new)
        if f_new * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = new, f_new
    return math.exp(low / 2)


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """The player's rating at the end of a period in which they had ``results``.

    Without results only the deviation grows (step 6: :func:`idle`).
    """
    if not results:
        return idle(player)
    mu, phi = player.mu, player.phi
    weights = [(_g(r.opponent.phi), _e(mu, r.opponent.mu, r.opponent.phi), r) for r in results]
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in weights)
    improvement = sum(g * (r.score - e) for g, e, r in weights)
    sigma = _volatility(phi, player.volatility, v * improvement, v, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(START_RATING + SCALE * new_mu, SCALE * new_phi, sigma)


def idle(player: Rating, periods: int = 1) -> Rating:
    """The player after ``periods`` rating periods without a result: the rating and the
    volatility stay, the deviation grows (step 6, once a period), at most to
    ``START_DEVIATION`` (an idle player is never less known than a new one, as in
    Glickman's Glicko-1 paper)."""
    if periods < 0:
        raise ValueError(f"periods cannot be negative: {periods}")
    if periods == 0:
        return player
    phi = math.sqrt(player.phi**2 + periods * player.volatility**2)
    return Rating(player.rating, min(phi * SCALE, START_DEVIATION), player.volatility)


def expected_score(player: Rating, opponent: Rating) -> float:
    """The player's expected score against ``opponent``: the chance that they win.

    Both ratings are uncertain, so both deviations count (Glickman's prediction of a
    game's outcome: ``g`` of the combined deviation).
    """
    combined = math.hypot(player.phi, opponent.phi)
    return _e(player.mu, opponent.mu, combined)
