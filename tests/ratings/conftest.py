"""Fixtures for the rating tests: tournaments built and played through the tournament services
(``tests.tournaments.conftest``), as organisers and players do."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.factories import OrganiserFactory


@pytest.fixture
def organiser(db: None) -> User:
    return OrganiserFactory.create(username="organiser")
