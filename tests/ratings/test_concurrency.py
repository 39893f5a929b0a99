"""Results saved at the same moment are rated one after the other: the list ends as a
recomputation makes it, whichever tournament the results belong to (PostgreSQL)."""

from __future__ import annotations

import pytest

from ratings.models import ListRating
from ratings.services import ratings_recompute
from tests.factories import OrganiserFactory
from tests.ratings.conftest import stored
from tests.tournaments.conftest import make_tournament
from tests.tournaments.test_concurrency import run_together
from tournaments.models import Match
from tournaments.services import results, rounds

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def playing_matches(name: str) -> list[Match]:
    tournament = make_tournament(4, name=name)
    round_ = rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    return list(round_.matches.filter(is_bye=False).order_by("table"))


@pytest.mark.parametrize("same_tournament", [True, False])
def test_two_results_settled_at_once_are_both_rated(same_tournament: bool) -> None:
    organiser = OrganiserFactory.create(username="organiser")
    first, second = playing_matches(name="Spring Open")
    if not same_tournament:
        second = playing_matches(name="Summer Open")[0]
    outcomes = run_together(
        *(
            lambda match=match: results.match_settle(
                match=match, organiser=organiser, first_dealer=0, games=[(0, 100), (0, 100)]
            )
            for match in (first, second)
        )
    )
    assert all(isinstance(outcome, Match) for outcome in outcomes), outcomes
    assert ListRating.objects.count() == 4
    settled = stored()
    ratings_recompute()
    assert stored() == settled
