"""The load test's venue is seeded as it says, and its players' posts are what the pages accept.

(The locust scenarios themselves run only under ``make load``: locust patches the
standard library for gevent when imported, so it is not imported here.)
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

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


def test_the_venue_is_seeded_in_bulk_as_a_tournament_the_site_takes_for_real() -> None:
    """The seed writes each round's results at once (not a settle a match), and what it
    leaves is a real tournament: standings with the results, the rating list as a
    recomputation makes it, and the round in play reported, closed and the next one paired."""
    from benchmarks.site import played_field, settle_round
    from ratings.services import ratings_recompute
    from tests.ratings.conftest import stored
    from tournaments.services import results
    from tournaments.services import rounds as round_services

    organiser = get_user_model().objects.create(username="bench-organiser")
    counts = []
    for players in (8, 16):
        names = [(f"Spelare {n}", "Lund") for n in range(players)]
        tournament = played_field(names, 0, in_play=True, year=2000 + players)
        with CaptureQueriesContext(connection) as queries:
            settle_round(tournament.rounds.get(number=1), organiser)
        counts.append(len(queries))
    assert counts[0] == counts[1]  # 4 tables or 8: the same statements
    venue = seed(players=8, rounds=2)
    slug = venue["championship"]
    standings = Client().get(f"/t/{slug}/standings/")
    assert standings.status_code == 200
    assert "Spelare 000 Åström" in standings.content.decode()
    closed = Match.objects.filter(round__tournament__slug=slug, round__number__lt=venue["round"])
    assert closed.exclude(status=Match.Status.FINAL).count() == 0
    assert closed.filter(is_bye=False, games__isnull=True).count() == 0
    settled = stored()
    ratings_recompute()
    assert stored() == settled
    assert settled
    playing = Round.objects.get(tournament__slug=slug, number=venue["round"])
    for match in playing.matches.filter(is_bye=False):
        results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 100)] * 2)
    round_services.round_close(round=playing)
    proposed = round_services.round_propose(tournament=playing.tournament)
    assert proposed.number == venue["round"] + 1
    assert proposed.matches.count() == 4
