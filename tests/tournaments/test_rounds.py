"""Organisers pair, adjust, publish and close rounds; byes, late entries, withdrawals, play-off."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.tournaments.conftest import make_tournament, play_round, seats
from tournaments import bridge
from tournaments.errors import TournamentError
from tournaments.models import Entry, Match, Round, Seat, Tournament
from tournaments.services import playoff, results, rounds
from tournaments.services import tournaments as services

pytestmark = pytest.mark.django_db


def pairs_of(round_: Round) -> set[frozenset[int]]:
    return {
        frozenset(seat.entry_id for seat in match.seats.all())
        for match in round_.matches.filter(is_bye=False).prefetch_related("seats")
    }


def bye_of(round_: Round) -> int | None:
    seat = Seat.objects.filter(round=round_, match__is_bye=True).first()
    return seat.entry_id if seat else None


def test_round_one_is_a_draw_that_the_recorded_seed_reproduces(tournament: Tournament) -> None:
    first = rounds.round_propose(tournament=tournament)
    drawn = pairs_of(first)
    assert first.seed == tournament.seed
    assert first.explanation["method"] == "random_draw"
    again = rounds.round_repair(round=first, seed=first.seed)
    assert pairs_of(again) == drawn
    other = rounds.round_repair(round=again, seed=first.seed + 1)
    assert pairs_of(other) != drawn  # eight players: another seed gives another draw here


def test_a_proposal_is_hidden_until_published(tournament: Tournament, organiser: User) -> None:
    round_ = rounds.round_propose(tournament=tournament)
    address = reverse("tournaments:round", args=[tournament.slug, round_.number])
    assert Client().get(address).status_code == 404
    client = Client()
    client.force_login(organiser)
    client.cookies["django_language"] = "sv"
    page = client.get(address).content.decode()
    assert "Publicera" in page
    client.post(reverse("tournaments:round_publish", args=[tournament.slug, 1]))
    assert Client().get(address).status_code == 200


def test_no_rematch_and_no_forbidden_pair_in_later_rounds(organiser: User) -> None:
    tournament = make_tournament(8, swiss_rounds=4)
    entries = list(tournament.entries.order_by("pk"))
    services.forbidden_pair_add(tournament=tournament, first=entries[0], second=entries[1])
    met: set[frozenset[int]] = set()
    for _ in range(4):
        round_ = play_round(tournament, organiser, lambda m: [(m.pk % 2, 90), (m.pk % 2, 91)])
        pairs = pairs_of(round_)
        assert not pairs & met
        assert frozenset({entries[0].pk, entries[1].pk}) not in pairs
        met |= pairs


def test_when_no_legal_pairing_exists_the_organiser_is_told_why_and_nothing_is_saved(
    organiser: User,
) -> None:
    tournament = make_tournament(2, swiss_rounds=3)
    play_round(tournament, organiser)
    with pytest.raises(TournamentError, match="No legal pairing"):
        rounds.round_propose(tournament=tournament)
    assert tournament.rounds.count() == 1


def test_the_bye_goes_to_the_lowest_ranked_without_one_and_counts_as_a_won_match(
    organiser: User,
) -> None:
    tournament = make_tournament(5, swiss_rounds=3)
    byes = []
    for _ in range(3):
        round_ = play_round(tournament, organiser)
        byes.append(bye_of(round_))
        rows = (
            bridge.standings(tournament, through_round=round_.number - 1)
            if round_.number > 1
            else None
        )
        if rows:
            without = [r.entry.pk for r in rows if r.standing.byes == 0]
            assert byes[-1] == without[-1]
    assert len(set(byes)) == 3
    row = next(r for r in bridge.standings(tournament) if r.entry.pk == byes[0])
    assert row.standing.byes == 1
    bye_match = Match.objects.get(round__tournament=tournament, round__number=1, is_bye=True)
    assert bye_match.status == Match.Status.FINAL


def test_swapping_players_by_hand_and_refusing_a_rematch(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=3)
    first = play_round(tournament, organiser)
    proposal = rounds.round_propose(tournament=tournament)
    (a, b), (c, d) = [
        tuple(s.entry for s in seats(m)) for m in proposal.matches.filter(is_bye=False)
    ]
    played_before = pairs_of(first)
    # Swapping b and c pairs a with c and b with d: one of those may be a round-1 rematch.
    swapped = {frozenset({a.pk, c.pk}), frozenset({b.pk, d.pk})}
    if swapped & played_before:
        with pytest.raises(TournamentError, match="may not be paired"):
            rounds.round_swap(round=proposal, first=b, second=c)
        assert pairs_of(proposal) == {frozenset({a.pk, b.pk}), frozenset({c.pk, d.pk})}
    else:
        rounds.round_swap(round=proposal, first=b, second=c)
        assert pairs_of(proposal) == swapped


def test_a_swap_is_saved_and_explained(organiser: User) -> None:
    tournament = make_tournament(6, swiss_rounds=2)
    proposal = rounds.round_propose(tournament=tournament)
    (a, b), (c, d), _ = [
        tuple(s.entry for s in seats(m)) for m in proposal.matches.order_by("table")
    ]
    client = Client()
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    client.post(
        reverse("tournaments:round_swap", args=[tournament.slug, 1]),
        {"first": b.pk, "second": c.pk},
    )
    assert pairs_of(proposal) >= {frozenset({a.pk, c.pk}), frozenset({b.pk, d.pk})}
    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    assert f"Swapped by hand: {b.player} and {c.player}" in page


def test_a_round_closes_only_when_every_match_is_final(
    tournament: Tournament, organiser: User
) -> None:
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    with pytest.raises(TournamentError, match="tables 1, 2, 3, 4"):
        rounds.round_close(round=round_)
    with pytest.raises(TournamentError, match="Close round 1"):
        rounds.round_propose(tournament=tournament)


def test_late_entries_start_at_zero_and_withdrawn_players_are_not_paired(organiser: User) -> None:
    tournament = make_tournament(6, swiss_rounds=3)
    play_round(tournament, organiser)
    late = services.entry_add(
        tournament=tournament, player=PlayerFactory.create(name="Sen Anmälan")
    )
    assert late.first_round == 2
    assert late.checked_in
    leaving = tournament.entries.exclude(pk=late.pk).first()
    assert leaving is not None
    services.entry_withdraw(entry=leaving)
    second = rounds.round_propose(tournament=tournament)
    seated = set(Seat.objects.filter(round=second).values_list("entry_id", flat=True))
    assert late.pk in seated
    assert leaving.pk not in seated
    rows = {r.entry.pk: r.standing for r in bridge.standings(tournament)}
    assert rows[late.pk].match_wins == 0
    assert rows[leaving.pk].played == 1  # their round-1 result stands


def test_a_player_with_results_cannot_be_removed(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=2)
    play_round(tournament, organiser)
    entry = tournament.entries.first()
    assert entry is not None
    with pytest.raises(TournamentError, match="withdraw them instead"):
        services.entry_remove(entry=entry)
    assert Entry.objects.filter(pk=entry.pk).exists()


def test_the_play_off_is_seeded_from_the_standings_and_crowns_a_champion(organiser: User) -> None:
    tournament = make_tournament(8, swiss_rounds=3, playoff_size=4, is_championship=True)
    for _ in range(3):
        play_round(tournament, organiser, lambda m: [(0, 100), (1, 90), (0, 40)])
    top = [row.entry.pk for row in bridge.standings(tournament)[:4]]
    semi = playoff.playoff_start(tournament=tournament)
    seeded = tournament.entries.filter(playoff_seed__isnull=False).order_by("playoff_seed")
    assert list(seeded.values_list("pk", flat=True)) == top  # seed 1 is the top of the standings
    assert semi.explanation == {}
    pairings = {m.bracket_slot: [s.entry_id for s in seats(m)] for m in semi.matches.all()}
    assert sorted(pairings.values()) == sorted([[top[0], top[3]], [top[1], top[2]]])
    for match in semi.matches.all():
        results.match_settle(
            match=match, organiser=organiser, first_dealer=0, games=[(1, 80), (1, 70)]
        )
    rounds.round_close(round=semi)
    final = tournament.rounds.get(kind=Round.Kind.PLAYOFF, status=Round.Status.PLAYING)
    match = final.matches.get()
    assert {s.entry_id for s in match.seats.all()} == {top[3], top[2]}
    results.match_settle(
        match=match, organiser=organiser, first_dealer=1, games=[(0, 100), (0, 100)]
    )
    rounds.round_close(round=final)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.champion is not None
    assert tournament.champion_id == seats(match)[0].entry_id
    page = Client().get(reverse("tournaments:list")).content.decode()
    assert f"<strong>2026</strong> {tournament.champion.player.name}" in page


def test_the_top_seeds_byes_take_them_to_the_next_round(organiser: User) -> None:
    tournament = make_tournament(7, swiss_rounds=1, playoff_size=6)
    play_round(tournament, organiser)
    top = [row.entry.pk for row in bridge.standings(tournament)[:6]]
    first = playoff.playoff_start(tournament=tournament)
    byes = first.matches.filter(is_bye=True)
    assert {m.bracket_slot: seats(m)[0].entry_id for m in byes} == {0: top[0], 2: top[1]}
    for match in first.matches.filter(is_bye=False):  # the better seed loses: 5 and 6 go on
        results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(1, 9)] * 2)
    rounds.round_close(round=first)
    semi = tournament.rounds.get(kind=Round.Kind.PLAYOFF, status=Round.Status.PLAYING)
    by_slot = {m.bracket_slot: [s.entry_id for s in seats(m)] for m in semi.matches.all()}
    assert by_slot == {0: [top[0], top[4]], 1: [top[1], top[5]]}


def test_without_a_play_off_the_top_of_the_standings_wins(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=1)
    with pytest.raises(TournamentError, match="Swiss rounds first"):
        playoff.tournament_finish(tournament=tournament)
    play_round(tournament, organiser)
    playoff.tournament_finish(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.champion == bridge.standings(tournament)[0].entry
