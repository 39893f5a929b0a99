"""Fixtures for the rating tests: tournaments built and played through the tournament services
(``tests.tournaments.conftest``), as organisers and players do."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from ratings.models import ListRating, PeriodRating, RatingPeriod
from tests.factories import OrganiserFactory


@pytest.fixture
def organiser(db: None) -> User:
    return OrganiserFactory.create(username="organiser")


Stored = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]


def stored() -> Stored:
    """Every row of the rating list, without the ids the database chose."""
    periods = RatingPeriod.objects.order_by("position").values_list(
        "position", "round_id", "date", "matches"
    )
    history = PeriodRating.objects.order_by("period__position", "player_id").values_list(
        "period__position", "player_id", "rating", "deviation", "volatility", "matches", "wins"
    )
    listed = ListRating.objects.order_by("player_id").values_list(
        "player_id", "period__position", "rating", "deviation", "volatility", "matches", "wins"
    )
    return list(periods), list(history), list(listed)
