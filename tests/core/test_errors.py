"""One error type for what a user can cause (``core.errors.DomainError``): a service that
checks a model before saving refuses with its own error, in the model's words."""

from __future__ import annotations

import pytest
from django.utils import translation

from core.errors import DomainError
from play.errors import PlayError
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.services.tournaments import tournament_create


def test_each_apps_refusal_is_a_domain_error() -> None:
    assert issubclass(TournamentError, DomainError)
    assert issubclass(PlayError, DomainError)
    refused = PlayError("Finish this game first.", code="not_over")
    assert (str(refused), refused.message, refused.code) == (
        "Finish this game first.",
        "Finish this game first.",
        "not_over",
    )


@pytest.mark.django_db
def test_a_model_check_that_fails_in_a_service_is_that_services_refusal() -> None:
    with translation.override("en"), pytest.raises(TournamentError) as refused:
        tournament_create(name="x" * 151, year=2026)
    assert "at most 150 characters" in refused.value.message
    assert refused.value.code == "max_length"  # the field validator's own code
    assert not Tournament.objects.exists()
