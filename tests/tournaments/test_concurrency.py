"""Both players submit at the same moment: the match row lock serves them one after the other."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from tests.tournaments.conftest import make_tournament, seats
from tournaments.access import Actor
from tournaments.errors import TournamentError
from tournaments.models import Match, ResultChange
from tournaments.services import results, rounds

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(*calls: Any) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(index: int, call: Any) -> None:
        barrier.wait()
        try:
            outcomes[index] = call()
        except TournamentError as error:
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.parametrize("agree", [True, False])
def test_two_players_reporting_at_once(agree: bool) -> None:
    tournament = make_tournament(2, swiss_rounds=1)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = round_.matches.get()
    a, b = (Actor(user=seat.entry.player.user) for seat in seats(match))
    games_b = [(0, 90), (0, 80)] if agree else [(1, 90), (1, 80)]
    run_together(
        lambda: results.match_report_result(
            match=match, by=a, first_dealer=0, games=[(0, 90), (0, 80)]
        ),
        lambda: results.match_report_result(match=match, by=b, first_dealer=0, games=games_b),
    )
    match.refresh_from_db()
    assert match.status == (Match.Status.FINAL if agree else Match.Status.DISPUTED)
    actions = list(ResultChange.objects.filter(match=match).values_list("action", flat=True))
    assert actions == ["reported", "confirmed" if agree else "disputed"]
    assert match.games.count() == 2


def test_two_organisers_pairing_at_once_make_one_round() -> None:
    tournament = make_tournament(6, swiss_rounds=2)
    outcomes = run_together(
        lambda: rounds.round_propose(tournament=tournament),
        lambda: rounds.round_propose(tournament=tournament),
    )
    assert tournament.rounds.count() == 1
    assert sum(isinstance(outcome, TournamentError) for outcome in outcomes) == 1
