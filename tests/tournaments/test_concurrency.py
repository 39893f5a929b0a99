"""Two people act at the same moment: the row locks serve them one after the other.

Both players report a match at once; two organisers pair, pair again or publish a
round at once. One wins; the other is refused with a message and nothing half done.
Each call runs in its own thread, so on its own database connection.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import OrganiserFactory
from tests.tournaments.conftest import account, make_tournament, seats
from tournaments.access import Actor
from tournaments.errors import TournamentError
from tournaments.models import Match, ResultChange, Round, Seat
from tournaments.services import results, rounds

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(*calls: Callable[[], object]) -> list[Any]:
    """Each call's result or exception (any exception: a 500 must show as one)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)
    language = translation.get_language()

    def run(index: int, call: Callable[[], object]) -> None:
        barrier.wait()
        try:
            with translation.override(language):
                outcomes[index] = call()
        except Exception as error:
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
    a, b = (Actor(user=account(seat)) for seat in seats(match))
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


GONE = "The proposal was just re-paired or published by someone else; look at the round again."


def one_wins(outcomes: list[Any]) -> tuple[Any, TournamentError]:
    """The winner's result and the loser's refusal; fails on anything else (a 500, two wins)."""
    errors = [o for o in outcomes if isinstance(o, Exception)]
    assert len(errors) == 1, outcomes
    assert isinstance(errors[0], TournamentError), outcomes
    (won,) = [o for o in outcomes if not isinstance(o, Exception)]
    return won, errors[0]


def test_two_organisers_pairing_again_at_once_get_one_new_draw() -> None:
    tournament = make_tournament(6, swiss_rounds=2)
    proposal = rounds.round_propose(tournament=tournament)
    won, refused = one_wins(
        run_together(
            lambda: rounds.round_repair(round=proposal, seed=101),
            lambda: rounds.round_repair(round=proposal, seed=202),
        )
    )
    assert str(refused) == GONE
    (only,) = tournament.rounds.all()
    assert only.pk == won.pk != proposal.pk
    assert only.status == Round.Status.PROPOSED
    assert Seat.objects.filter(round=only).count() == 6


def test_pairing_again_and_publishing_at_once_do_one_or_the_other() -> None:
    tournament = make_tournament(6, swiss_rounds=2)
    proposal = rounds.round_propose(tournament=tournament)
    won, refused = one_wins(
        run_together(
            lambda: rounds.round_repair(round=proposal),
            lambda: rounds.round_publish(round=proposal),
        )
    )
    assert str(refused) == GONE
    (only,) = tournament.rounds.all()
    if won.pk == proposal.pk:  # published: exactly the pairings the organiser saw
        assert only.status == Round.Status.PLAYING
    else:  # paired again: a new proposal, nothing published
        assert only.status == Round.Status.PROPOSED


def test_publishing_twice_at_once_publishes_once() -> None:
    tournament = make_tournament(6, swiss_rounds=2)
    proposal = rounds.round_propose(tournament=tournament)
    won, refused = one_wins(
        run_together(
            lambda: rounds.round_publish(round=proposal),
            lambda: rounds.round_publish(round=proposal),
        )
    )
    assert str(refused) == GONE
    assert won.pk == proposal.pk
    assert tournament.rounds.get().status == Round.Status.PLAYING


def test_two_organisers_pairing_at_once_are_told_the_round_is_paired() -> None:
    tournament = make_tournament(6, swiss_rounds=2)
    won, refused = one_wins(
        run_together(
            lambda: rounds.round_propose(tournament=tournament),
            lambda: rounds.round_propose(tournament=tournament),
        )
    )
    assert str(refused) == "Round 1 is proposed already: publish it or pair it again."
    assert tournament.rounds.get().pk == won.pk


def test_pairing_again_while_another_swaps_keeps_one_consistent_round() -> None:
    tournament = make_tournament(6, swiss_rounds=2)
    proposal = rounds.round_propose(tournament=tournament)
    first, second = (seat.entry for seat in seats(proposal.matches.get(table=1)))
    third = seats(proposal.matches.get(table=2))[0].entry
    repaired, swapped = run_together(
        lambda: rounds.round_repair(round=proposal),
        lambda: rounds.round_swap(round=proposal, first=second, second=third),
    )
    assert isinstance(repaired, Round), repaired
    # The swap came first and was then paired over, or came second and found the proposal gone.
    assert isinstance(swapped, Round) or str(swapped) == GONE, swapped
    (only,) = tournament.rounds.all()
    assert Seat.objects.filter(round=only).count() == 6
    assert first.pk in Seat.objects.filter(round=only).values_list("entry_id", flat=True)


def test_the_organiser_pressing_second_is_told_on_the_page() -> None:
    tournament = make_tournament(6, swiss_rounds=2)
    proposal = rounds.round_propose(tournament=tournament)
    organisers = [OrganiserFactory.create(username="anna"), OrganiserFactory.create(username="bo")]

    def press(organiser: User, action: str) -> list[str]:
        client = Client()
        client.force_login(organiser)
        client.cookies["django_language"] = "en"
        address = reverse(f"tournaments:{action}", args=[tournament.slug, 1])
        response = client.post(address, {"round": proposal.pk})
        assert response.status_code == 302
        assert response["Location"] == reverse("tournaments:round", args=[tournament.slug, 1])
        return [str(message) for message in get_messages(response.wsgi_request)]

    said = run_together(
        lambda: press(organisers[0], "round_repair"), lambda: press(organisers[1], "round_publish")
    )
    assert all(isinstance(messages, list) for messages in said), said
    assert sorted(len(messages) for messages in said) == [1, 1]
    assert sum(messages == [GONE] for messages in said) == 1
    assert tournament.rounds.count() == 1
