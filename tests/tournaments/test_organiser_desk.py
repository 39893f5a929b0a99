"""The organisers' desk: what needs attention in a round, a question before every action
that cannot be undone, only the actions that apply, and no twin members by mistake."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Player
from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.conftest import account, make_tournament, play_round, seats
from tournaments import bridge, selectors
from tournaments.access import Actor
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.services import results, rounds
from tournaments.services import tournaments as services

pytestmark = pytest.mark.django_db

DISPUTE_NOTE = "Game 2 ended 121-118 to me, not 121-80."


def english(user: User | None = None) -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    if user is not None:
        client.force_login(user)
    return client


def round_url(tournament: Tournament, number: int = 1) -> str:
    return reverse("tournaments:round", args=[tournament.slug, number])


def by_seat(match: Match, seat: int) -> Actor:
    return Actor(user=account(seats(match)[seat]))


def at_table(round_: Round, table: int) -> Match:
    return round_.matches.get(table=table)


@pytest.fixture
def busy_round(tournament: Tournament) -> Round:
    """Round 1 of eight players: table 1 reported, 2 unreported, 3 disputed, 4 in play."""
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    reported, disputed, in_play = (at_table(round_, n) for n in (1, 3, 4))
    for match in (reported, disputed):
        results.match_report_result(
            match=match, by=by_seat(match, 0), first_dealer=0, games=[(0, 100), (0, 80)]
        )
    results.match_dispute(match=disputed, by=by_seat(disputed, 1), note=DISPUTE_NOTE)
    results.match_report_result(
        match=in_play, by=by_seat(in_play, 0), first_dealer=0, games=[(0, 90)]
    )
    return round_


def attention_section(page: str) -> str:
    start = page.index('id="attention"')
    return page[start : page.index("</section>", start)]


def panel_lines(page: str) -> list[tuple[str, str]]:
    """(status, table) of each line of the panel, in order."""
    return re.findall(
        r'class="attention-item status-(\w+)">.*?Table (\d+)', attention_section(page), re.S
    )


def settle(match: Match, organiser: User) -> None:
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 1), (0, 2)])


# The "needs attention" panel


def test_the_panel_lists_disputed_then_reported_then_in_play_then_unreported(
    busy_round: Round, organiser: User
) -> None:
    page = english(organiser).get(round_url(busy_round.tournament)).content.decode()
    assert panel_lines(page) == [
        ("disputed", "3"),
        ("reported", "1"),
        ("in_play", "4"),
        ("pending", "2"),
    ]
    panel = attention_section(page)
    assert DISPUTE_NOTE.replace("'", "&#x27;") in panel
    for match in busy_round.matches.all():
        settle_link = reverse("tournaments:match", args=[busy_round.tournament.slug, match.pk])
        assert f'href="{settle_link}#report"' in panel
        for seat in seats(match):
            assert seat.entry.player.name in panel
    assert "since the round was published" in panel
    assert "Settle the dispute at table 3" in panel
    assert "Enter the result of table 2" in panel
    # Matches are unfinished: the round cannot be closed, so it is not offered.
    close = reverse("tournaments:round_close", args=[busy_round.tournament.slug, 1])
    assert close not in page


def test_the_panel_is_for_organisers_only(busy_round: Round) -> None:
    address = round_url(busy_round.tournament)
    for client in (english(), english(UserFactory.create())):
        assert 'id="attention"' not in client.get(address).content.decode()
        partial = client.get(address, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="attention")
        assert 'id="attention"' not in partial.content.decode()
        assert DISPUTE_NOTE not in partial.content.decode()


def test_the_panel_refreshes_through_its_htmx_partial(busy_round: Round, organiser: User) -> None:
    client = english(organiser)
    address = round_url(busy_round.tournament)
    page = client.get(address).content.decode()
    assert 'hx-trigger="every' in attention_section(page)
    settle(at_table(busy_round, 3), organiser)
    partial = client.get(address, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="attention")
    text = partial.content.decode()
    assert "<html" not in text
    assert 'id="pairings"' not in text
    assert [table for _status, table in panel_lines(text)] == ["1", "4", "2"]
    for table in (1, 2, 4):
        settle(at_table(busy_round, table), organiser)
    calm = client.get(address, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="attention")
    text = calm.content.decode()
    assert "nothing needs your attention" in text
    assert reverse("tournaments:round_close", args=[busy_round.tournament.slug, 1]) in text


def test_the_panel_costs_the_same_queries_for_any_field() -> None:
    counts = []
    for players in (4, 16):
        tournament = make_tournament(players, accounts=False, name=f"Field {players}")
        round_ = rounds.round_propose(tournament=tournament)
        rounds.round_publish(round=round_)
        with CaptureQueriesContext(connection) as queries:
            lines = selectors.needs_attention(round_)
            names = [seat.entry.player.name for match in lines for seat in match.seats.all()]
        assert len(names) == players
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_disputed_match_stands_out_for_everybody(busy_round: Round) -> None:
    page = english().get(round_url(busy_round.tournament)).content.decode()
    row = re.search(r'<tr class="disputed">(.*?)</tr>', page, re.S)
    assert row is not None
    assert 'class="tag alert"' in row.group(1)
    assert "Disputed" in row.group(1)  # said in words, not by colour alone
    assert page.count('class="disputed"') == 1


# Questions before actions that cannot be undone


def test_closing_a_round_asks_first(tournament: Tournament, organiser: User) -> None:
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    for match in round_.matches.filter(is_bye=False):
        settle(match, organiser)
    client = english(organiser)
    address = reverse("tournaments:round_close", args=[tournament.slug, 1])
    question = client.post(address)
    assert question.status_code == 200
    assert "Close round 1?" in question.content.decode()
    assert 'name="confirm" value="1"' in question.content.decode()
    assert f'href="{round_url(tournament)}"' in question.content.decode()  # cancel
    round_.refresh_from_db()
    assert round_.status == Round.Status.PLAYING
    assert client.post(address, {"confirm": "1"}).status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


def test_a_round_with_unfinished_matches_is_not_closed_nor_asked_about(
    busy_round: Round, organiser: User
) -> None:
    address = reverse("tournaments:round_close", args=[busy_round.tournament.slug, 1])
    response = english(organiser).post(address, {"confirm": "1"}, follow=True)
    assert "Not every match is final yet (tables 1, 2, 3, 4)" in response.content.decode()
    busy_round.refresh_from_db()
    assert busy_round.status == Round.Status.PLAYING


@pytest.mark.parametrize(
    ("action", "question", "done"),
    [
        ("withdraw", "Withdraw Player 00 (Uppsala)?", lambda entry: entry.withdrawn),
        ("remove", "Remove Player 00 (Uppsala) from the tournament?", None),
    ],
)
def test_withdrawing_and_removing_a_player_ask_first(
    organiser: User, action: str, question: str, done: Callable[[Entry], bool] | None
) -> None:
    tournament = make_tournament(4, swiss_rounds=2)
    if action == "withdraw":
        play_round(tournament, organiser)
    entry = tournament.entries.get(player__name="Player 00")
    address = reverse("tournaments:entry_change", args=[tournament.slug, entry.pk])
    client = english(organiser)
    response = client.post(address, {"action": action})
    assert response.status_code == 200
    assert question in response.content.decode()
    entry.refresh_from_db()
    assert not entry.withdrawn
    assert client.post(address, {"action": action, "confirm": "1"}).status_code == 302
    if done is None:
        assert not Entry.objects.filter(pk=entry.pk).exists()
    else:
        entry.refresh_from_db()
        assert done(entry)


def test_starting_the_play_off_asks_first(organiser: User) -> None:
    tournament = make_tournament(6, swiss_rounds=2, playoff_size=4)
    play_round(tournament, organiser)
    detail = english(organiser).get(reverse("tournaments:detail", args=[tournament.slug]))
    assert "Start the play-off" not in detail.content.decode()  # a Swiss round is left
    play_round(tournament, organiser)
    client = english(organiser)
    detail = client.get(reverse("tournaments:detail", args=[tournament.slug]))
    assert "Start the play-off" in detail.content.decode()
    address = reverse("tournaments:playoff_start", args=[tournament.slug])
    assert "Start the play-off?" in client.post(address).content.decode()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SWISS
    assert not tournament.rounds.filter(kind=Round.Kind.PLAYOFF).exists()
    client.post(address, {"confirm": "1"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.PLAYOFF


def test_finishing_the_tournament_asks_first(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=1)
    play_round(tournament, organiser)
    client = english(organiser)
    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert "Finish the tournament" in page
    assert "End the tournament after" not in page
    address = reverse("tournaments:finish", args=[tournament.slug])
    question = client.post(address).content.decode()
    leader = bridge.standings(tournament)[0].entry
    assert "Finish the tournament?" in question
    assert f"{leader.player} wins the tournament" in question
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SWISS
    client.post(address, {"confirm": "1"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.champion == leader


def test_ending_early_needs_its_own_confirmation(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=3)
    play_round(tournament, organiser)
    client = english(organiser)
    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert "Finish the tournament" not in page
    assert "End the tournament after round 1" in page
    address = reverse("tournaments:finish", args=[tournament.slug])
    question = client.post(address, {"early": "1"}).content.decode()
    assert "End the tournament after round 1 of 3?" in question
    assert "2 Swiss rounds are left unplayed." in question
    assert 'name="early" value="1"' in question
    # A confirmation of the ordinary finish does not end the tournament early.
    refused = client.post(address, {"confirm": "1"}, follow=True).content.decode()
    assert "Play and close all 3 Swiss rounds first" in refused
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.SWISS
    leader = bridge.standings(tournament)[0].entry
    client.post(address, {"confirm": "1", "early": "1"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.champion == leader


def test_ending_early_discards_an_unpublished_proposal_and_not_a_round_in_play(
    organiser: User,
) -> None:
    tournament = make_tournament(4, swiss_rounds=3)
    play_round(tournament, organiser)
    proposal = rounds.round_propose(tournament=tournament)
    client = english(organiser)
    address = reverse("tournaments:finish", args=[tournament.slug])
    question = client.post(address, {"early": "1"}).content.decode()
    assert "The proposed round 2 is discarded" in question
    rounds.round_publish(round=proposal)
    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert "End the tournament after" not in page
    refused = client.post(address, {"early": "1", "confirm": "1"}, follow=True)
    assert "Close round 2 first" in refused.content.decode()
    for match in proposal.matches.filter(is_bye=False):
        settle(match, organiser)
    rounds.round_close(round=proposal)
    rounds.round_propose(tournament=tournament)
    client.post(address, {"early": "1", "confirm": "1"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert list(tournament.rounds.values_list("number", "status")) == [
        (1, Round.Status.CLOSED),
        (2, Round.Status.CLOSED),
    ]


# Only the actions that apply


def test_no_next_round_is_offered_or_paired_after_the_last_swiss_round(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=2)
    client = english(organiser)
    detail = reverse("tournaments:detail", args=[tournament.slug])
    pair = reverse("tournaments:round_pair", args=[tournament.slug])
    assert pair in client.get(detail).content.decode()
    play_round(tournament, organiser)
    rounds.round_propose(tournament=tournament)
    page = client.get(detail).content.decode()
    assert pair not in page
    assert "Check and publish round 2" in page
    rounds.round_publish(round=tournament.rounds.get(number=2))
    assert "Round 2 is being played" in client.get(detail).content.decode()
    for match in tournament.rounds.get(number=2).matches.filter(is_bye=False):
        settle(match, organiser)
    rounds.round_close(round=tournament.rounds.get(number=2))
    page = client.get(detail).content.decode()
    assert pair not in page
    assert "All 2 Swiss rounds have been played" in page
    response = client.post(pair, follow=True)
    assert "All 2 Swiss rounds have been played" in response.content.decode()
    assert tournament.rounds.count() == 2


def test_the_entries_page_offers_only_what_applies(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=1)
    late = services.entry_add(tournament=tournament, player=PlayerFactory.create(name="Zelda Sen"))
    client = english(organiser)
    address = reverse("tournaments:entries", args=[tournament.slug])
    page = client.get(address).content.decode()
    assert page.count('value="remove"') == 5
    assert 'value="withdraw"' not in page  # nobody has been paired: remove instead
    proposal = rounds.round_propose(tournament=tournament)
    page = client.get(address).content.decode()
    assert "Publish or re-pair the proposed round first" in page
    assert reverse("tournaments:entry_add_new", args=[tournament.slug]) not in page
    rounds.round_publish(round=proposal)
    page = client.get(address).content.decode()
    assert page.count('value="withdraw"') == 4
    # Not checked in, so not paired: the late entry can still be removed.
    assert page.count('value="remove"') == 1
    assert reverse("tournaments:entry_change", args=[tournament.slug, late.pk]) in page
    for match in proposal.matches.filter(is_bye=False):
        settle(match, organiser)
    rounds.round_close(round=proposal)
    english(organiser).post(reverse("tournaments:finish", args=[tournament.slug]), {"confirm": "1"})
    page = client.get(address).content.decode()
    assert "entries can no longer change" in page
    assert reverse("tournaments:entry_change", args=[tournament.slug, late.pk]) not in page
    assert reverse("tournaments:forbidden_add", args=[tournament.slug]) not in page


# A new member whose name is already on the register


def test_a_name_on_the_register_asks_whether_it_is_the_same_person(organiser: User) -> None:
    tournament = make_tournament(0)
    known = PlayerFactory.create(name="Åke Öst", club="Kiruna")
    client = english(organiser)
    new_member = {"name": "åke öst", "club": "Luleå"}
    response = client.post(reverse("tournaments:entry_add_new", args=[tournament.slug]), new_member)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Is this the same person?" in page
    assert "Åke Öst" in page
    assert "Kiruna" in page
    assert "Register this member" in page
    assert f'name="player" value="{known.pk}"' in page
    assert "No, add a new member anyway" in page
    assert not tournament.entries.exists()
    assert Player.objects.count() == 1
    # Register the member already on the register.
    client.post(
        reverse("tournaments:entry_add", args=[tournament.slug]),
        {"player": known.pk, "checked_in": "1"},
    )
    assert tournament.entries.get().player == known
    assert Player.objects.count() == 1


def test_a_new_member_can_be_added_anyway(organiser: User) -> None:
    tournament = make_tournament(0)
    PlayerFactory.create(name="Åke Öst", club="Kiruna")
    client = english(organiser)
    address = reverse("tournaments:entry_add_new", args=[tournament.slug])
    client.post(address, {"name": "Åke Öst", "club": "Luleå"})
    assert Player.objects.count() == 1
    response = client.post(address, {"name": "Åke Öst", "club": "Luleå", "add_anyway": "1"})
    assert response.status_code == 302
    entry = tournament.entries.select_related("player").get()
    assert (entry.player.name, entry.player.club) == ("Åke Öst", "Luleå")
    assert entry.checked_in
    assert Player.objects.filter(name="Åke Öst").count() == 2
