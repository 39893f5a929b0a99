"""Two rated switches at once, of a tournament and its copy: one is made rated, the other
refused as a copy; the list counts the matches once. Each switch runs in its own thread,
on its own connection, both past their checks before either commits when nothing stops
them (docs/rating.md, "Which tournaments are rated")."""

from __future__ import annotations

import contextlib
import threading
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from ratings.services import ratings_recompute
from tests.ratings.conftest import stored
from tests.ratings.test_rated_tournaments import rated_cup
from tests.tournaments.test_concurrency import run_together
from tournaments import copies
from tournaments.errors import TournamentError
from tournaments.exchange import export_tournament, import_tournament
from tournaments.models import Tournament
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.postgres
def test_a_tournament_and_its_copy_made_rated_at_once_are_counted_once(
    organiser: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    spring = rated_cup(organiser, name="Spring Cup")
    copy = import_tournament(export_tournament(spring), slug="copy")
    call_command("set_tournament_rated", spring.slug, "--unrated", stdout=StringIO())
    both_checked = threading.Barrier(2, timeout=3)
    check = copies.copy_refusal

    def checked_then_wait(tournament: Tournament) -> str | None:
        refusal = check(tournament)
        # Without one lock for both, each passes its check before the other commits.
        with contextlib.suppress(threading.BrokenBarrierError):
            both_checked.wait()
        return refusal

    monkeypatch.setattr(copies, "copy_refusal", checked_then_wait)
    outcomes: list[Any] = run_together(
        *(
            lambda tournament=tournament: tournament_services.tournament_set_rated(
                tournament=tournament, rated=True
            )
            for tournament in (spring, copy)
        )
    )
    refused = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    assert len(refused) == 1, outcomes
    assert isinstance(refused[0], TournamentError)
    assert "already on the rating list" in str(refused[0])
    assert Tournament.objects.filter(pk__in=[spring.pk, copy.pk], rated=True).count() == 1
    rated = stored()
    ratings_recompute()
    assert stored() == rated
    assert {matches for *_, matches, _wins in rated[2]} == {2}  # each player's two, not four


def test_the_admin_shows_whether_a_tournament_is_rated_but_does_not_switch_it(
    organiser: User, admin_client: Any
) -> None:
    spring = rated_cup(organiser, name="Spring Cup")
    page = admin_client.get(f"/admin/tournaments/tournament/{spring.pk}/change/")
    assert page.status_code == 200
    assert 'name="rated"' not in page.content.decode()  # shown, not an input
    assert (
        admin_client.get("/admin/tournaments/tournament/add/")
        .content.decode()
        .count('name="rated"')
        == 1
    )
