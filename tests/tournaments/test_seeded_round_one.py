"""Round 1 seeded by rating, as organisers and players meet it: the setting on the
tournament's form, the pairing through the round services from the club's rating list
(members rated by an earlier tournament played through the services), the explanation
and the round page in both languages, and the random draw left as it was."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from club.models import Player
from ratings.selectors import ratings_now
from tests.factories import PlayerFactory
from tests.tournaments.conftest import make_tournament, play_round
from tournaments.errors import TournamentError
from tournaments.models import Entry, Round, Seeding, Tournament
from tournaments.services import results, rounds
from tournaments.services import tournaments as services

pytestmark = pytest.mark.django_db

NEWCOMERS = ("Nova Ny", "Olle Ny", "Pia Ny")


def rated_members(organiser: User) -> list[Player]:
    """Six members rated by two rounds of an earlier tournament (seat 0 wins every match)."""
    earlier = make_tournament(6, name="Höstcupen", swiss_rounds=2, seed=5, accounts=False)
    play_round(earlier, organiser)
    play_round(earlier, organiser)
    return [entry.player for entry in earlier.entries.all()]


def tournament_of(members: list[Player], seeding: Seeding = Seeding.BY_RATING) -> Tournament:
    """A new tournament of ``members`` and three unrated newcomers, all checked in."""
    tournament = make_tournament(0, name="Vårcupen", seeding=seeding)
    newcomers = [PlayerFactory.create(name=name, club="Uppsala") for name in NEWCOMERS]
    for player in [*members, *newcomers]:
        services.entry_add(tournament=tournament, player=player, checked_in=True)
    return tournament


def tables(round_: Round) -> tuple[list[tuple[int, ...]], int | None]:
    """Each table's entries in seat order, table 1 first, and the bye's entry."""
    pairs, bye = [], None
    for match in round_.matches.prefetch_related("seats").order_by("is_bye", "table"):
        entries = tuple(seat.entry_id for seat in sorted(match.seats.all(), key=lambda s: s.seat))
        if match.is_bye:
            bye = entries[0]
        else:
            pairs.append(entries)
    return pairs, bye


def page(round_: Round, language: str, user: User | None = None) -> str:
    client = Client()
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    address = reverse("tournaments:round", args=[round_.tournament.slug, round_.number])
    response = client.get(address)
    assert response.status_code == 200
    return response.content.decode()


def test_an_organiser_chooses_round_one_by_rating_on_the_tournament_form(
    organiser: User,
) -> None:
    client = Client()
    client.force_login(organiser)
    client.cookies["django_language"] = "sv"
    form = client.get(reverse("tournaments:create")).content.decode()
    assert "Lottning av rond 1" in form
    assert '<option value="random_draw" selected>Slumpvis lottning</option>' in form
    assert "Efter rating: övre halvan mot nedre halvan" in form
    data = {
        "name": "Vårcupen",
        "year": 2026,
        "starts_on": "2026-04-01",
        "ends_on": "2026-04-01",
        "swiss_rounds": 4,
        "seeding": "by_rating",
        "best_of": 3,
        "playoff_best_of": 3,
        "scheme": "standard",
        "points_win": 2,
        "points_skunk": 3,
        "points_double_skunk": 4,
        "bye_game_points": 4,
        "tiebreak_0": "match_wins",
    }
    assert client.post(reverse("tournaments:create"), data).status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.seeding == Seeding.BY_RATING
    client.cookies["django_language"] = "en"
    edit = client.get(reverse("tournaments:edit", args=[tournament.slug])).content.decode()
    assert "Round 1 pairing" in edit
    assert '<option value="by_rating" selected>' in edit
    assert "players without a rating come below the rated ones" in edit
    # A form sent without the setting (a page from before it) keeps the tournament's.
    del data["seeding"]
    client.post(reverse("tournaments:edit", args=[tournament.slug]), data)
    tournament.refresh_from_db()
    assert tournament.seeding == Seeding.BY_RATING


def test_round_one_by_rating_pairs_the_top_half_against_the_bottom_half(
    organiser: User,
) -> None:
    members = rated_members(organiser)
    tournament = tournament_of(members)
    entry_of = {e.player_id: e.pk for e in tournament.entries.all()}
    rating_of = {entry_of[p]: r.rating for p, r in ratings_now(entry_of).items()}
    assert len(rating_of) == 6
    assert len(set(rating_of.values())) > 1  # not all equal

    round_ = rounds.round_propose(tournament=tournament)

    seeding = round_.explanation["seeding"]
    order = [line["player"] for line in seeding]
    # The rated by their rating now, highest first, the three newcomers below them.
    assert [line["rating"] for line in seeding[:6]] == sorted(rating_of.values(), reverse=True)
    assert all(line["rating"] == rating_of[line["player"]] for line in seeding[:6])
    newcomers = set(Entry.objects.filter(player__name__in=NEWCOMERS).values_list("pk", flat=True))
    assert {line["player"] for line in seeding[6:]} == newcomers
    assert [line["rating"] for line in seeding[6:]] == [None] * 3
    # Nine players: four boards, 1 v 5, 2 v 6, 3 v 7, 4 v 8, and the ninth sits out.
    assert tables(round_) == ([(order[k], order[k + 4]) for k in range(4)], order[8])
    assert round_.explanation["method"] == "by_rating"
    assert round_.explanation["bye"]["reason"] == "lowest_seeded"


def test_a_forbidden_pair_swaps_opponents_with_the_next_board(organiser: User) -> None:
    tournament = tournament_of(rated_members(organiser))
    order = [
        line["player"]
        for line in rounds.round_propose(tournament=tournament).explanation["seeding"]
    ]
    first, second = Entry.objects.get(pk=order[1]), Entry.objects.get(pk=order[5])
    proposal = tournament.rounds.get()
    services.forbidden_pair_add(tournament=tournament, first=first, second=second)
    round_ = rounds.round_repair(round=proposal, seed=proposal.seed)
    pairs, bye = tables(round_)
    assert pairs == [
        (order[0], order[4]),
        (order[1], order[6]),
        (order[2], order[5]),
        (order[3], order[7]),
    ]
    assert bye == order[8]
    assert round_.explanation["seeding_changes"] == [
        {"player": order[1], "opponent": order[6], "seeded": order[5]},
        {"player": order[2], "opponent": order[5], "seeded": order[6]},
    ]


def test_the_default_is_still_the_random_draw_of_the_recorded_seed(organiser: User) -> None:
    tournament = tournament_of(rated_members(organiser), seeding=Seeding.RANDOM_DRAW)
    assert Tournament._meta.get_field("seeding").default == Seeding.RANDOM_DRAW
    round_ = rounds.round_propose(tournament=tournament)
    # As before seeding existed: the ids sorted and shuffled by the seed, 1st v 2nd, ...
    drawn = sorted(tournament.entries.values_list("pk", flat=True))
    random.Random(tournament.seed).shuffle(drawn)
    assert tables(round_) == (list(zip(drawn[:8:2], drawn[1:8:2], strict=True)), drawn[8])
    assert round_.explanation["method"] == "random_draw"
    assert round_.explanation["seeding"] == []
    lines = page(round_, "en", organiser)
    assert "Round 1 is a random draw from seed" in lines
    assert "Seeding order" not in lines


def test_the_round_page_shows_the_seeding_with_the_ratings_it_used_in_both_languages(
    organiser: User,
) -> None:
    tournament = tournament_of(rated_members(organiser))
    round_ = rounds.round_propose(tournament=tournament)
    seeding = round_.explanation["seeding"]
    names = {e.pk: str(e.player) for e in tournament.entries.select_related("player")}
    swedish = page(round_, "sv", organiser)
    assert "Seedningsordning" in swedish
    assert (
        "Rond 1 seedas efter rating: övre halvan av seedningsordningen möter nedre halvan, "
        "1 mot 5, 2 mot 6 och så vidare." in swedish
    )
    assert "utan rating" in swedish
    assert "Varför denna lottning" in swedish

    rounds.round_publish(round=round_)
    for match in round_.matches.filter(is_bye=False):
        results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(1, 90)] * 2)
    # The ratings have moved since round 1 was paired; the page keeps the ones it used.
    entry_of = {e.player_id: e.pk for e in tournament.entries.all()}
    now = {entry_of[p]: r.rating for p, r in ratings_now(entry_of).items()}
    assert any(round(now[line["player"]]) != round(line["rating"]) for line in seeding[:6])
    english = page(round_, "en")
    assert "Seeding order" in english
    assert (
        "Round 1 is seeded by rating: the top half of the seeding order plays the bottom "
        "half, 1 v 5, 2 v 6 and so on." in english
    )
    rows = re.findall(
        r'<tr><td class="num">(\d+)</td><td>([^<]+)</td><td class="num">([^<]+)</td></tr>', english
    )
    assert rows == [
        (
            str(place),
            names[line["player"]],
            "unrated" if line["rating"] is None else str(round(line["rating"])),
        )
        for place, line in enumerate(seeding, start=1)
    ]


def test_later_rounds_are_swiss_as_before(organiser: User) -> None:
    tournament = tournament_of(rated_members(organiser))
    play_round(tournament, organiser)
    second = rounds.round_propose(tournament=tournament)
    assert second.explanation["method"] == "swiss"
    assert second.explanation["seeding"] == []


def test_the_round_one_pairing_is_fixed_once_round_one_is_published(organiser: User) -> None:
    tournament = make_tournament(4)
    proposal = rounds.round_propose(tournament=tournament)
    services.tournament_update(tournament=tournament, seeding=Seeding.BY_RATING)
    again = rounds.round_repair(round=proposal, seed=proposal.seed)
    assert again.explanation["method"] == "by_rating"
    rounds.round_publish(round=again)
    with pytest.raises(TournamentError, match="Round 1 has been published"):
        services.tournament_update(tournament=tournament, seeding=Seeding.RANDOM_DRAW)
    tournament.refresh_from_db()
    assert tournament.seeding == Seeding.BY_RATING


def test_the_database_knows_only_the_two_ways(tournament: Tournament) -> None:
    with transaction.atomic(), pytest.raises(IntegrityError):
        Tournament.objects.filter(pk=tournament.pk).update(seeding="by_lot")
