from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import OrganiserFactory


@pytest.fixture
def organiser(db: None) -> object:
    return OrganiserFactory(username="olle")


@pytest.fixture
def organiser_client(client: Client, organiser: object) -> Client:
    client.force_login(organiser)  # type: ignore[arg-type]
    return client
