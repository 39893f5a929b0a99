"""Results saved at the same moment are rated one after the other: the list ends as a
recomputation makes it, whichever tournament the results belong to, rated at once or
queued and rated by two workers (PostgreSQL)."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from ratings.models import ListRating, PendingRerate
from ratings.services import ratings_recompute
from tests.factories import OrganiserFactory
from tests.ratings.conftest import stored
from tests.ratings.test_consumer import DATABASE_QUEUE, run_worker
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


def test_a_burst_of_results_queued_and_rated_by_two_workers_equals_a_recomputation() -> None:
    """Results saved at the same moment with the database queue: each is committed with
    its announcement and its task; two workers then rate them, one re-rate at a time."""
    organiser = OrganiserFactory.create(username="organiser")
    matches = playing_matches(name="Spring Open") + playing_matches(name="Summer Open")
    matches += list(
        rounds.round_publish(round=rounds.round_propose(tournament=make_tournament(12)))
        .matches.filter(is_bye=False)
        .order_by("table")
    )
    with override_settings(TASKS=DATABASE_QUEUE):
        outcomes = run_together(
            *(
                lambda match=match, winner=index % 2: results.match_settle(
                    match=match, organiser=organiser, first_dealer=0, games=[(winner, 100)] * 2
                )
                for index, match in enumerate(matches)
            )
        )
        assert all(isinstance(outcome, Match) for outcome in outcomes), outcomes
        assert DBTaskResult.objects.ready().count() == len(matches)
        assert PendingRerate.objects.count() == len(matches)
        assert ListRating.objects.count() == 0
        ran = run_together(*(lambda name=name: run_worker(name) for name in ("one", "two")))
    assert sum(ran) == len(matches), ran
    assert not DBTaskResult.objects.failed().exists()
    assert not PendingRerate.objects.exists()
    assert ListRating.objects.count() == 2 * len(matches)
    rated = stored()
    ratings_recompute()
    assert stored() == rated
