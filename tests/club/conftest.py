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


@pytest.fixture
def english(client: Client) -> object:
    """Messages in English, for tests that quote them: services and pages alike."""
    from django.utils import translation

    client.cookies["django_language"] = "en"
    with translation.override("en"):
        yield
