"""Glicko-2 as Glickman's paper computes it ("Example of the Glicko-2 system"), without Django.

The worked example: a player rated 1500, RD 200, volatility 0.06 plays three games in a
period, tau 0.5, against 1400/30 (won), 1550/100 (lost) and 1700/300 (lost). The paper
prints each step rounded; its figures on the rating scale are converted from the rounded
Glicko-2 ones (1464.06 is 173.7178 x -0.2069 + 1500), so those agree to within one unit
of their last printed digit, the Glicko-2 scale figures to all their printed digits.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.glicko import (
    START_DEVIATION,
    TAU,
    Rating,
    Result,
    expected_score,
    idle,
    rate,
)

ROOT = Path(__file__).resolve().parents[2]

PLAYER = Rating(1500, 200, 0.06)
PERIOD = [
    Result(Rating(1400, 30), 1),
    Result(Rating(1550, 100), 0),
    Result(Rating(1700, 300), 0),
]


def test_the_papers_worked_example() -> None:
    after = rate(PLAYER, PERIOD, tau=0.5)
    # Step 8, on the rating scale: r' = 1464.06, RD' = 151.52.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    # Steps 5 and 7, on the Glicko-2 scale: sigma' = 0.05999, mu' = -0.2069, phi' = 0.8722.
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert round(after.mu, 4) == -0.2069
    assert round(after.phi, 4) == 0.8722


def test_the_worked_example_unrounded() -> None:
    """The full-precision values the paper's are rounded from (other faithful
    implementations, such as Rust's skillratings, print the same)."""
    after = rate(PLAYER, PERIOD)
    assert after.rating == pytest.approx(1464.0506705, abs=1e-6)
    assert after.deviation == pytest.approx(151.5165241, abs=1e-6)
    assert after.volatility == pytest.approx(0.0599959843, abs=1e-10)


def test_the_volatility_uses_the_players_deviation_wherever_the_player_stands() -> None:
    """The ``glicko2`` package squares the rating instead (``f`` of step 5), which is 0
    only for a player at 1500. A player at 2100 who loses two of three to weaker players
    has had a surprising period: the volatility rises to 0.0600207 (the package: 0.0600041)."""
    strong = rate(Rating(2100, 200, 0.06), PERIOD)
    assert strong.volatility == pytest.approx(0.0600207, abs=1e-7)
    assert strong.rating == pytest.approx(1803.89, abs=0.01)


def test_the_default_tau_is_the_papers() -> None:
    assert TAU == 0.5
    assert rate(PLAYER, PERIOD) == rate(PLAYER, PERIOD, tau=0.5)
    assert rate(PLAYER, PERIOD, tau=0.3).volatility != rate(PLAYER, PERIOD).volatility


def test_a_player_who_does_not_play_only_has_the_deviation_grow() -> None:
    """Step 6: phi' = sqrt(phi^2 + sigma^2); the rating and the volatility stay."""
    after = rate(PLAYER, [])
    assert after.rating == PLAYER.rating
    assert after.volatility == PLAYER.volatility
    assert after.phi == pytest.approx(math.sqrt(PLAYER.phi**2 + 0.06**2))
    assert after.deviation == pytest.approx(200.27, abs=0.005)
    assert idle(PLAYER) == after


def test_idle_periods_add_up_and_stop_at_a_new_players_deviation() -> None:
    three = idle(idle(idle(PLAYER)))
    assert idle(PLAYER, 3).deviation == pytest.approx(three.deviation)
    assert idle(PLAYER, 0) == PLAYER
    assert idle(PLAYER, 10_000).deviation == START_DEVIATION
    with pytest.raises(ValueError, match="negative"):
        idle(PLAYER, -1)


def test_a_rating_needs_a_positive_deviation_and_volatility() -> None:
    with pytest.raises(ValueError, match="positive"):
        Rating(1500, 0, 0.06)
    with pytest.raises(ValueError, match="positive"):
        Rating(1500, 350, 0)


@given(
    st.floats(1000, 2200),
    st.floats(30, 350),
    st.floats(1000, 2200),
    st.floats(30, 350),
)
def test_a_win_raises_a_rating_and_a_loss_lowers_it(
    rating: float, deviation: float, opponent_rating: float, opponent_deviation: float
) -> None:
    player, opponent = Rating(rating, deviation), Rating(opponent_rating, opponent_deviation)
    won = rate(player, [Result(opponent, 1)])
    lost = rate(player, [Result(opponent, 0)])
    assert lost.rating < rating < won.rating


def test_the_expected_score_favours_the_higher_rated_and_sums_to_one() -> None:
    strong, weak = Rating(1700, 60), Rating(1500, 60)
    assert expected_score(strong, weak) + expected_score(weak, strong) == pytest.approx(1)
    assert expected_score(strong, weak) == pytest.approx(0.75, abs=0.02)
    assert expected_score(strong, strong) == pytest.approx(0.5)
    # Uncertain ratings predict less: the same gap with wide deviations is nearer a toss-up.
    assert 0.5 < expected_score(Rating(1700, 300), Rating(1500, 300)) < 0.7


def test_the_rating_algorithm_imports_nothing_from_django() -> None:
    script = (
        "import json, sys, ratings.glicko, ratings.periods; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'django')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert json.loads(done.stdout) == []
