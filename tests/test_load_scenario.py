"""The load test's venue is seeded as it says, and its players' posts are what the pages accept.

(The locust scenarios themselves run only under ``make load``: locust patches the
standard library for gevent when imported, so it is not imported here.)
"""

from __future__ import annotations

import pytest
from django.test import Client

from benchmarks.venue_seed import CSRF, VERSION, report_data, seed
from tournaments.models import Match, Round

pytestmark = pytest.mark.django_db


def test_the_venue_is_a_round_to_report_and_a_proposal_to_pair_again() -> None:
    venue = seed(players=9, rounds=1)
    assert venue["round"] == 2
    assert len(venue["tables"]) == 4  # 9 players: 4 tables and a bye
    assert all(len(table["keys"]) == 2 and all(table["keys"]) for table in venue["tables"])
    side = Round.objects.get(tournament__slug=venue["side"])
    assert side.status == Round.Status.PROPOSED
    assert Client().login(**venue["organiser"])


def test_a_table_pair_reports_and_confirms_as_the_scenario_does() -> None:
    venue = seed(players=8, rounds=1)
    table = venue["tables"][0]
    reporter, confirmer = Client(), Client()
    page = reporter.get(f"/p/{table['keys'][0]}/").content.decode()
    url = f"/t/{venue['championship']}/match/{table['match']}/"
    token = CSRF.search(page).group(1)  # type: ignore[union-attr]
    reporter.post(url + "report/", {"csrfmiddlewaretoken": token, **report_data(77)})
    assert Match.objects.get(pk=table["match"]).status == Match.Status.REPORTED
    page = confirmer.get(f"/p/{table['keys'][1]}/").content.decode()
    version = VERSION.search(page).group(1)  # type: ignore[union-attr]
    token = CSRF.search(page).group(1)  # type: ignore[union-attr]
    confirmer.post(url + "confirm/", {"csrfmiddlewaretoken": token, "version": version})
    assert Match.objects.get(pk=table["match"]).status == Match.Status.FINAL
