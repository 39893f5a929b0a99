"""The rating list period by period (``ratings.periods``), without Django.

Players are ids: A=1, B=2, ... Each period is a tournament round: a player plays at
most one match in it.
"""

from __future__ import annotations

import pytest

from ratings.glicko import START_DEVIATION, Rating, Result, idle, rate
from ratings.periods import Outcome, RatedPlayer, rate_period, rate_periods

A, B, C, D = range(1, 5)


def test_new_players_start_at_1500_and_the_winner_goes_up_by_what_the_loser_loses() -> None:
    after = rate_period([Outcome(winner=A, loser=B)], position=1, players={})
    assert set(after) == {A, B}
    assert after[A].rating.rating > 1500 > after[B].rating.rating
    assert after[A].rating.rating - 1500 == pytest.approx(1500 - after[B].rating.rating)
    assert after[A].rating == rate(Rating(), [Result(Rating(), 1)])
    assert (after[A].matches, after[A].wins, after[B].matches, after[B].wins) == (1, 1, 1, 0)
    assert after[A].period == after[B].period == 1


def test_everyone_in_a_period_is_rated_from_the_ratings_at_its_start() -> None:
    """B's loss to A in the same period does not lower the B that C beat."""
    before = {B: RatedPlayer(Rating(1700, 80), period=1, matches=5, wins=4)}
    after = rate_period(
        [Outcome(winner=A, loser=B), Outcome(winner=C, loser=D)], position=2, players=before
    )
    assert after[A].rating == rate(Rating(), [Result(Rating(1700, 80), 1)])
    assert after[B].matches == 6
    assert after[B].wins == 4


def test_a_player_who_missed_periods_comes_back_with_a_wider_deviation() -> None:
    """A played in period 1 and comes back in period 5: three periods missed."""
    before = {A: RatedPlayer(Rating(1600, 100), period=1, matches=3, wins=2)}
    after = rate_period([Outcome(winner=A, loser=B)], position=5, players=before)
    grown = idle(Rating(1600, 100), 3)
    assert grown.deviation > 100
    assert after[A].rating == rate(grown, [Result(Rating(), 1)])
    assert before[A].after(5).deviation == idle(Rating(1600, 100), 4).deviation
    assert before[A].after(1) == before[A].rating


def test_a_player_who_does_not_play_in_a_period_is_not_in_it() -> None:
    standing = rate_periods([[Outcome(A, B), Outcome(C, D)], [Outcome(A, C)], [Outcome(B, D)]])
    assert [sorted(period) for period in standing] == [[A, B, C, D], [A, C], [B, D]]
    assert standing[2][B].matches == 2
    assert standing[2][B].wins == 1


def test_rating_from_a_later_period_onward_continues_what_the_earlier_ones_left() -> None:
    periods = [[Outcome(A, B), Outcome(C, D)], [Outcome(A, C), Outcome(D, B)], [Outcome(C, B)]]
    whole = rate_periods(periods)
    before: dict[int, RatedPlayer] = {}
    for period in whole[:2]:
        before.update(period)
    assert rate_periods(periods[2:], first=3, players=before) == whole[2:]


def test_a_players_deviation_never_grows_past_a_new_players() -> None:
    long_gone = RatedPlayer(Rating(1800, 200, 0.2), period=1, matches=40, wins=30)
    assert long_gone.after(500).deviation == START_DEVIATION
    assert long_gone.after(500).rating == 1800


def test_nobody_plays_themselves_and_history_does_not_run_backwards() -> None:
    with pytest.raises(ValueError, match="themselves"):
        Outcome(A, A)
    with pytest.raises(ValueError, match="before"):
        RatedPlayer(Rating(), period=3, matches=1, wins=1).after(2)
