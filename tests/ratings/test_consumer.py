"""The rating list consumes the results: tournaments and play announce a final result (and
import nothing of ratings: pyproject.toml's import contracts); with the database queue a
worker rates the list a moment later, the pages say it is updating meanwhile, and a burst
of results is rated once."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from ratings.models import ListRating, PendingRerate
from ratings.services import ratings_recompute
from ratings.tasks import rerate
from tests.queue import DATABASE_TASKS, run_queue
from tests.ratings.conftest import stored
from tests.tournaments.conftest import make_tournament, seats
from tournaments.models import Match, Round
from tournaments.services import results, rounds

DATABASE_QUEUE = DATABASE_TASKS


@pytest.fixture
def database_queue(db: None) -> Iterator[None]:
    with override_settings(TASKS=DATABASE_QUEUE):
        yield


def run_worker(name: str = "test") -> int:
    """What ``manage.py db_worker`` does, until the queue is empty; the number of tasks
    run, each successful."""
    run = run_queue(name)
    assert not DBTaskResult.objects.failed().exists()
    return run


def published_round(players: int = 4, **fields: Any) -> Round:
    tournament = make_tournament(players, **fields)
    return rounds.round_publish(round=rounds.round_propose(tournament=tournament))


def settle(match: Match, organiser: User) -> None:
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 100)] * 2)


def english() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


UPDATING = "Updating…"


def test_a_result_is_rated_by_the_worker_and_the_pages_say_updating_until_then(
    database_queue: None, organiser: User
) -> None:
    match = published_round().matches.filter(is_bye=False).order_by("table").first()
    assert match is not None
    settle(match, organiser)
    assert DBTaskResult.objects.ready().count() == 1
    assert ListRating.objects.count() == 0  # not yet: the worker rates it
    winner = seats(match)[0].entry.player
    page = english().get(reverse("ratings:list")).content.decode()
    assert UPDATING in page
    member = english().get(reverse("player_detail", args=[winner.pk])).content.decode()
    assert "updating…" in member
    assert "Uppdateras…" in Client().get(reverse("ratings:list")).content.decode()
    run_worker()
    assert ListRating.objects.count() == 2
    assert not PendingRerate.objects.exists()
    page = english().get(reverse("ratings:list")).content.decode()
    assert UPDATING not in page
    assert winner.name in page
    member = english().get(reverse("player_detail", args=[winner.pk])).content.decode()
    assert "updating…" not in member
    rated = stored()
    ratings_recompute()
    assert stored() == rated


def test_a_burst_of_results_is_rated_by_the_first_re_rate_and_the_others_do_nothing(
    database_queue: None, organiser: User
) -> None:
    first = published_round(8).matches.filter(is_bye=False)
    second = published_round(4, name="Later Open", starts_on=first[0].round.tournament.ends_on)
    for match in [*first, *second.matches.filter(is_bye=False)]:
        settle(match, organiser)
    queued = list(DBTaskResult.objects.ready().order_by("enqueued_at"))
    assert len(queued) == 6
    assert PendingRerate.objects.count() == 6
    done = [rerate.call() for _task in queued]
    assert done == [1, None, None, None, None, None]  # from the first period, then up to date
    assert ListRating.objects.count() == 12
    rated = stored()
    ratings_recompute()
    assert stored() == rated


def test_the_administrators_commands_rate_at_once_and_an_organisers_edit_by_the_worker(
    database_queue: None, organiser: User
) -> None:
    round_ = published_round()
    for match in round_.matches.filter(is_bye=False):
        settle(match, organiser)
    run_worker()
    tournament = round_.tournament
    call_command("set_tournament_rated", tournament.slug, "--unrated", verbosity=0)
    assert ListRating.objects.count() == 0
    assert not PendingRerate.objects.exists()
    call_command("set_tournament_rated", tournament.slug, "--rated", verbosity=0)
    assert ListRating.objects.count() == 4  # before any worker ran
    assert not PendingRerate.objects.exists()
    rated = stored()
    # The re-rates the announcements queued find the list up to date.
    assert [rerate.call() for _task in DBTaskResult.objects.ready()] == [None, None]
    assert stored() == rated
