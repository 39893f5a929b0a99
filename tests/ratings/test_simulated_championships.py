"""A simulated championship rates the computer's levels in their order of strength.

``simulate_tournament --levels easy,standard,expert`` spreads the players evenly over
the three levels, every game of a player played at their level, and each result is
rated as it becomes final. Standard beats easy in 98% of games and expert beats
standard in 54% (docs/engine-strength.md), so after a championship of eight Swiss
rounds the list's mean rating of the expert players is above the standard players',
which is above the easy players'.

One long championship rather than several short ones: the first rounds of a Swiss
tournament pair the levels at random, mostly easy players against the others, which
tells the list little; from the third round on the experts and standard players meet
at the top tables. Over ten other seeds such a championship put the experts' mean 86
points above the standard players' on average, from 204 above to 12 below (one seed in
ten): expert's edge over standard is small, so the seed matters. With every seat at one
level (six seeds), the three groups' means lay up to 330 points apart, in any order.
"""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean

import pytest

from ratings.selectors import rating_list
from tests.tournaments.conftest import levels_played, simulate

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_expert_players_are_rated_above_standard_ones_above_easy_ones() -> None:
    out = simulate(
        players=24,
        rounds=8,
        seed=2026,
        year=2026,
        championship=True,
        levels="easy,standard,expert",
        rated=True,
    )
    level_of = levels_played(out)
    ratings: dict[str, list[float]] = defaultdict(list)
    for line in rating_list():
        ratings[level_of[line.player.pk]].append(line.rating.rating)
    assert {level: len(rated) for level, rated in ratings.items()} == {
        "easy": 8,
        "standard": 8,
        "expert": 8,
    }
    means = {level: fmean(rated) for level, rated in ratings.items()}
    assert means["expert"] > means["standard"] > means["easy"], means
