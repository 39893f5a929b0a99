"""The soak test's checks at the end of its run find what they are there to find: a result
logged twice, saved with other games than reported or not final, and a rating list that
is not what a recomputation makes (``benchmarks/soak_checks.py``); and its report names
the exception that ended a chained traceback in the site's log, not its cause.

(The soak test itself runs only under ``make soak``: its own servers, many minutes.)
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db.models import F

from benchmarks.soak_checks import check_ratings, check_results
from benchmarks.soak_report import causes_of_errors
from ratings.models import ListRating
from tests.tournaments.conftest import make_tournament
from tournaments.access import Actor
from tournaments.models import Match, ResultChange
from tournaments.services import results, rounds

GAMES = [(0, 97), (1, 88), (0, 70)]


def played_by_private_link() -> dict[str, Any]:
    """One match reported and confirmed by its players' links, as the table pairs record it."""
    tournament = make_tournament(4, accounts=False)
    round_ = rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    match = round_.matches.filter(is_bye=False).first()
    assert match is not None
    reporter, confirmer = (
        Actor(user=AnonymousUser(), entry=seat.entry) for seat in match.seats.order_by("seat")
    )
    results.match_report_result(match=match, by=reporter, first_dealer=0, games=GAMES)
    match.refresh_from_db()
    results.match_confirm(match=match, by=confirmer, version=match.report_version)
    return {
        "match": match.pk,
        "first_dealer": 0,
        "games": [list(game) for game in GAMES],
        "reported": True,
        "confirmed": True,
        "note": "",
    }


@pytest.mark.django_db
def test_a_result_saved_once_as_reported_passes() -> None:
    settled = played_by_private_link()
    found = check_results([settled])
    assert found == {"settled": 1, "exact": 1, "problems": []}
    ratings = check_ratings()
    assert ratings["equal"]
    assert ratings["rows"] > 0


@pytest.mark.django_db
def test_a_report_logged_twice_is_found() -> None:
    settled = played_by_private_link()
    report = ResultChange.objects.get(match_id=settled["match"], action="reported")
    report.pk = None
    report.save()
    found = check_results([settled])
    assert found["exact"] == 0
    assert found["problems"] == [
        f"match {settled['match']}: result log {{'confirmed': 1, 'reported': 2}}, "
        "wanted one of each"
    ]


@pytest.mark.django_db
def test_games_other_than_reported_or_a_match_not_final_are_found() -> None:
    settled = played_by_private_link()
    other = {**settled, "games": [[0, 97], [1, 88], [0, 71]]}
    assert "reported [(0, 97), (1, 88), (0, 71)]" in check_results([other])["problems"][0]
    Match.objects.filter(pk=settled["match"]).update(status=Match.Status.REPORTED)
    assert check_results([settled])["problems"] == [
        f"match {settled['match']}: reported, not final"
    ]
    gave_up = {**settled, "confirmed": False, "note": "confirmation given up"}
    assert check_results([gave_up])["problems"] == [
        f"match {settled['match']}: the players gave up (confirmation given up)"
    ]


@pytest.mark.django_db
def test_a_rating_list_that_is_not_a_recomputation_is_found_and_left_as_it_was() -> None:
    played_by_private_link()
    line = ListRating.objects.order_by("pk").first()
    assert line is not None
    ListRating.objects.filter(pk=line.pk).update(rating=F("rating") + 1)
    ratings = check_ratings()
    assert not ratings["equal"]
    assert ratings["differing_rows"] == 2  # the line as stored, and as recomputed
    line_after = ListRating.objects.get(pk=line.pk)
    assert line_after.rating == line.rating + 1  # the recomputation was rolled back


CHAINED_TRACEBACK = """\
Internal Server Error: /t/bench-64-2040/round/4/
Traceback (most recent call last):
  File "redis/connection.py", line 1, in connect
ConnectionRefusedError: [Errno 111] Connection refused

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "django/core/handlers/exception.py", line 55, in inner
redis.exceptions.ConnectionError: Error 111 connecting to 127.0.0.1:51301. Connection refused.
Task id=5201 path=printing.tasks.render_pdf state=FAILED
Traceback (most recent call last):
  File "printing/tasks.py", line 34, in render_pdf
redis.exceptions.ConnectionError: Connection closed by server.
"""


def test_the_report_counts_the_exception_that_ended_each_traceback_where_it_was_raised() -> None:
    assert causes_of_errors(CHAINED_TRACEBACK) == (
        "`redis.exceptions.ConnectionError` × 1 in requests, "
        "`redis.exceptions.ConnectionError` × 1 in tasks"
    )
