from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import OrganiserFactory


@pytest.fixture
def organiser(db: None) -> User:
    return OrganiserFactory.create(username="olle")


@pytest.fixture
def organiser_client(client: Client, organiser: User) -> Client:
    client.force_login(organiser)
    return client
