"""Bad input on the tournament pages gets a clear answer and saves nothing.

Two kinds: a form naming a proposal that someone else has just paired again,
published or discarded; and a NUL byte in a search box, note or hidden field
(PostgreSQL refuses NUL in text, so these run on both databases).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from club.models import Player
from tests.factories import PlayerFactory
from tests.tournaments.conftest import account, play_round, seats
from tournaments.access import Actor
from tournaments.errors import TournamentError
from tournaments.models import (
    Entry,
    ForbiddenPair,
    Match,
    ResultChange,
    Round,
    Seat,
    Tournament,
)
from tournaments.services import playoff, results, rounds

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db

GONE = "The proposal was just re-paired or published by someone else; look at the round again."
NUL = "\x00"
NO_NUL = "Null characters are not allowed."


def organiser_client(organiser: User) -> Client:
    client = Client()
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    return client


def said(response: TestResponse) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def swap_pair(round_: Round) -> tuple[Entry, Entry]:
    """Two players of different tables."""
    first, second = (m for m in round_.matches.filter(is_bye=False).order_by("table")[:2])
    return seats(first)[1].entry, seats(second)[0].entry


# The proposal vanished: the services.


@pytest.fixture
def proposal(tournament: Tournament) -> Round:
    return rounds.round_propose(tournament=tournament)


def test_publishing_a_proposal_that_was_paired_again_is_refused(proposal: Round) -> None:
    newer = rounds.round_repair(round=proposal, seed=5)
    with pytest.raises(TournamentError, match=GONE):
        rounds.round_publish(round=proposal)
    newer.refresh_from_db()
    assert newer.status == Round.Status.PROPOSED


def test_pairing_again_or_swapping_in_a_vanished_proposal_is_refused(proposal: Round) -> None:
    first, second = swap_pair(proposal)
    newer = rounds.round_repair(round=proposal, seed=5)
    with pytest.raises(TournamentError, match=GONE):
        rounds.round_repair(round=proposal, seed=6)
    with pytest.raises(TournamentError, match=GONE):
        rounds.round_swap(round=proposal, first=first, second=second)
    assert list(proposal.tournament.rounds.all()) == [newer]
    assert "swapped" not in Round.objects.get(pk=newer.pk).explanation


def test_pairing_again_a_proposal_published_meanwhile_is_refused(proposal: Round) -> None:
    rounds.round_publish(round=Round.objects.get(pk=proposal.pk))
    with pytest.raises(TournamentError, match=GONE):
        rounds.round_repair(round=proposal)  # the caller still holds it as a proposal
    assert Round.objects.get(pk=proposal.pk).status == Round.Status.PLAYING


def test_a_round_read_as_published_is_told_it_is_published(proposal: Round) -> None:
    published = rounds.round_publish(round=proposal)
    with pytest.raises(TournamentError, match="This round is published"):
        rounds.round_repair(round=published)


@pytest.fixture
def discarded(tournament: Tournament, organiser: User) -> Round:
    """Round 2, proposed and then discarded when the tournament ended after round 1."""
    play_round(tournament, organiser)
    proposal = rounds.round_propose(tournament=tournament)
    playoff.tournament_finish(tournament=tournament, early=True)
    return proposal


def test_publishing_a_proposal_discarded_by_ending_early_is_refused(
    tournament: Tournament, discarded: Round
) -> None:
    with pytest.raises(TournamentError, match=GONE):
        rounds.round_publish(round=discarded)
    assert list(tournament.rounds.values_list("number", flat=True)) == [1]


# The proposal vanished: the organisers' pages.


def test_the_proposals_forms_name_the_proposal_shown(proposal: Round, organiser: User) -> None:
    address = reverse("tournaments:round", args=[proposal.tournament.slug, 1])
    page = organiser_client(organiser).get(address).content.decode()
    assert page.count(f'<input type="hidden" name="round" value="{proposal.pk}">') == 3


@pytest.mark.parametrize("action", ["round_publish", "round_repair", "round_swap"])
def test_a_button_pressed_on_a_proposal_paired_again_meanwhile_does_nothing(
    proposal: Round, organiser: User, action: str
) -> None:
    slug = proposal.tournament.slug
    first, second = swap_pair(proposal)
    newer = rounds.round_repair(round=proposal, seed=5)
    pairs = set(Seat.objects.filter(round=newer).values_list("match_id", "entry_id"))
    response = organiser_client(organiser).post(
        reverse(f"tournaments:{action}", args=[slug, 1]),
        {"round": proposal.pk, "first": first.pk, "second": second.pk},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:round", args=[slug, 1])
    assert said(response) == [GONE]
    assert list(proposal.tournament.rounds.all()) == [newer]
    newer.refresh_from_db()
    assert newer.status == Round.Status.PROPOSED
    assert set(Seat.objects.filter(round=newer).values_list("match_id", "entry_id")) == pairs


def test_publishing_a_proposal_published_meanwhile_says_so(
    proposal: Round, organiser: User
) -> None:
    rounds.round_publish(round=proposal)
    response = organiser_client(organiser).post(
        reverse("tournaments:round_publish", args=[proposal.tournament.slug, 1]),
        {"round": proposal.pk},
    )
    assert response.status_code == 302
    assert said(response) == [GONE]


def test_publishing_a_discarded_proposal_leads_back_to_the_tournament(
    tournament: Tournament, discarded: Round, organiser: User
) -> None:
    response = organiser_client(organiser).post(
        reverse("tournaments:round_publish", args=[tournament.slug, 2]), {"round": discarded.pk}
    )
    assert response.status_code == 302  # not a 404
    assert response["Location"] == reverse("tournaments:detail", args=[tournament.slug])
    assert said(response) == [GONE]


def test_a_proposal_form_without_the_round_id_still_works(proposal: Round, organiser: User) -> None:
    response = organiser_client(organiser).post(
        reverse("tournaments:round_publish", args=[proposal.tournament.slug, 1])
    )
    assert said(response) == ["The round is published; players can see their tables."]


@pytest.mark.parametrize("value", [NUL, "x", "-1"])
def test_a_mangled_round_id_publishes_nothing(proposal: Round, organiser: User, value: str) -> None:
    response = organiser_client(organiser).post(
        reverse("tournaments:round_publish", args=[proposal.tournament.slug, 1]), {"round": value}
    )
    assert response.status_code == 302
    assert said(response) == [GONE]
    assert Round.objects.get(pk=proposal.pk).status == Round.Status.PROPOSED


# NUL bytes.


def test_a_nul_in_the_entries_search_is_an_error_not_a_crash(
    tournament: Tournament, organiser: User
) -> None:
    PlayerFactory.create(name="Eva Berg", club="Gävle")
    client = organiser_client(organiser)
    address = reverse("tournaments:entries", args=[tournament.slug])
    for headers in ({}, {"HX-Request": "true", "HX-Target": "candidates"}):
        response = client.get(address, {"q": f"Eva{NUL}"}, headers=headers)
        assert response.status_code == 200
        assert NO_NUL in response.content.decode()
        assert "Register Eva Berg" not in response.content.decode()
    assert "Register Eva Berg" in client.get(address, {"q": "Eva"}).content.decode()


def test_a_nul_in_a_new_members_name_is_refused(tournament: Tournament, organiser: User) -> None:
    response = organiser_client(organiser).post(
        reverse("tournaments:entry_add_new", args=[tournament.slug]),
        {"name": f"Eva{NUL}", "club": "Uppsala"},
    )
    assert response.status_code == 400
    assert NO_NUL in response.content.decode()
    assert not Player.objects.filter(name__startswith="Eva").exists()


def test_a_nul_instead_of_a_member_is_refused(tournament: Tournament, organiser: User) -> None:
    entries = tournament.entries.count()
    response = organiser_client(organiser).post(
        reverse("tournaments:entry_add", args=[tournament.slug]), {"player": NUL}
    )
    assert said(response) == ["Choose a member to register."]
    assert tournament.entries.count() == entries


def test_a_nul_in_a_forbidden_pairs_reason_is_refused(
    tournament: Tournament, organiser: User
) -> None:
    first, second = tournament.entries.all()[:2]
    response = organiser_client(organiser).post(
        reverse("tournaments:forbidden_add", args=[tournament.slug]),
        {"first": first.pk, "second": second.pk, "reason": f"siblings{NUL}"},
    )
    assert said(response) == [f"Reason (optional): {NO_NUL}"]
    assert not ForbiddenPair.objects.exists()


@pytest.mark.parametrize("field", ["first", "second", "action"])
def test_a_nul_in_an_entry_or_swap_choice_is_refused(
    proposal: Round, organiser: User, field: str
) -> None:
    client = organiser_client(organiser)
    slug = proposal.tournament.slug
    if field == "action":
        entry = proposal.tournament.entries.first()
        assert entry is not None
        address = reverse("tournaments:entry_change", args=[slug, entry.pk])
        expected = ["Unknown action."]
    else:
        address = reverse("tournaments:round_swap", args=[slug, 1])
        expected = ["Choose two players of this round."]
    first, second = swap_pair(proposal)
    data = {"round": proposal.pk, "first": first.pk, "second": second.pk, "action": "check_in"}
    response = client.post(address, data | {field: NUL})
    assert said(response) == expected


def test_a_nul_in_a_new_tournaments_name_is_refused(organiser: User) -> None:
    response = organiser_client(organiser).post(
        reverse("tournaments:create"), {"name": f"Vårcupen{NUL}", "year": 2026}
    )
    assert response.status_code == 200
    assert NO_NUL in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.fixture
def playing(tournament: Tournament) -> Match:
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = round_.matches.filter(is_bye=False).order_by("table").first()
    assert match is not None
    return match


def report(first_dealer: str, winner: str, score: str) -> dict[str, str]:
    return {"first_dealer": first_dealer, "game_1_winner": winner, "game_1_loser_score": score}


def player_client(match: Match, seat: int) -> Client:
    client = Client()
    client.force_login(account(seats(match)[seat]))
    client.cookies["django_language"] = "en"
    return client


@pytest.mark.parametrize(
    "data", [report(NUL, "0", "90"), report("0", NUL, "90"), report("0", "0", NUL)]
)
def test_a_nul_in_a_report_is_refused(playing: Match, data: dict[str, str]) -> None:
    response = player_client(playing, 0).post(
        reverse("tournaments:match_report", args=[playing.round.tournament.slug, playing.pk]), data
    )
    assert response.status_code == 400
    assert not playing.games.exists()


def test_a_nul_in_a_dispute_note_is_refused(playing: Match) -> None:
    slug = playing.round.tournament.slug
    results.match_report_result(
        match=playing,
        by=Actor(user=account(seats(playing)[0])),
        first_dealer=0,
        games=[(0, 90), (0, 80)],
    )
    client = player_client(playing, 1)
    response = client.post(
        reverse("tournaments:match_dispute", args=[slug, playing.pk]), {"note": f"wrong{NUL}"}
    )
    assert response.status_code == 400
    assert NO_NUL in response.content.decode()
    playing.refresh_from_db()
    assert playing.status == Match.Status.REPORTED
    response = client.post(
        reverse("tournaments:match_confirm", args=[slug, playing.pk]), {"version": NUL}
    )
    assert response.status_code == 409
    assert "The report has changed, check it again." in response.content.decode()


def test_a_nul_in_the_organisers_note_is_refused_and_nothing_settled(
    playing: Match, organiser: User
) -> None:
    address = reverse("tournaments:match_settle", args=[playing.round.tournament.slug, playing.pk])
    client = organiser_client(organiser)
    data = {**report("0", "0", "90"), "game_2_winner": "0", "game_2_loser_score": "80"}
    response = client.post(address, data | {"note": f"table 1{NUL}"})
    assert response.status_code == 400
    assert f"Note for the log: {NO_NUL}" in response.content.decode()
    playing.refresh_from_db()
    assert playing.status == Match.Status.PENDING
    assert not ResultChange.objects.filter(match=playing).exists()
    assert client.post(address, data | {"note": "table 1"}).status_code == 302
    assert ResultChange.objects.get(match=playing).note == "table 1"


def test_a_nul_in_a_private_link_is_an_unknown_link(playing: Match) -> None:
    response = Client().get("/p/abc%00def/")
    assert response.status_code == 404
