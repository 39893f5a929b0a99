"""The public pages, the organisers' forms, CSV exports and how many queries a page costs."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.conftest import make_tournament, play_round
from tournaments import bridge
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def english() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def as_user(user: User) -> Client:
    client = english()
    client.force_login(user)
    return client


def test_public_pages_need_no_login(organiser: User) -> None:
    tournament = make_tournament(6, swiss_rounds=2, playoff_size=4)
    play_round(tournament, organiser)
    entry = tournament.entries.first()
    assert entry is not None
    client = english()
    pages: list[tuple[str, list[str | int]]] = [
        ("list", []),
        ("detail", [tournament.slug]),
        ("round", [tournament.slug, 1]),
        ("standings", [tournament.slug]),
        ("standings_csv", [tournament.slug]),
        ("results_csv", [tournament.slug]),
        ("entry", [tournament.slug, entry.pk]),
        ("playoff", [tournament.slug]),
    ]
    for name, args in pages:
        assert client.get(reverse(f"tournaments:{name}", args=args)).status_code == 200, name


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("create", "get"),
        ("edit", "get"),
        ("entries", "get"),
        ("round_pair", "post"),
        ("finish", "post"),
    ],
)
def test_organiser_pages_are_for_organisers_only(
    tournament: Tournament, name: str, method: str
) -> None:
    args = [] if name == "create" else [tournament.slug]
    address = reverse(f"tournaments:{name}", args=args)
    assert getattr(english(), method)(address).status_code == 302  # to the login page
    assert getattr(as_user(UserFactory.create()), method)(address).status_code == 403
    assert not tournament.rounds.exists()


def test_standings_explain_every_tie_break_and_export_as_csv(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=2)
    play_round(tournament, organiser, lambda m: [(0, 50), (0, 100)])
    page = english().get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    for words in [
        "Matches won",
        "Game points:",
        "Spread:",
        "Buchholz:",
        "Head to head:",
        "share the place",
    ]:
        assert words in page
    rows = list(
        csv.reader(
            io.StringIO(
                english()
                .get(reverse("tournaments:standings_csv", args=[tournament.slug]))
                .content.decode("utf-8-sig")
            )
        )
    )
    assert rows[0][:3] == ["Rank", "Player", "Club"]
    # Two winners: 2 games each, double skunk (4) + plain win (2) = 6 game points;
    # spread 71 + 21 = 92.
    winners = [row for row in rows[1:] if row[4] == "1"]
    assert len(winners) == 2
    assert all(row[9] == "6" and row[10] == "92" for row in winners)


def test_a_round_in_play_is_live_and_the_standings_are_preliminary(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=2)
    play_round(tournament, organiser)
    from tournaments.services import rounds

    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    client = english()
    page = client.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    assert "Preliminary" in page
    assert 'hx-trigger="every' in page
    partial = client.get(
        reverse("tournaments:round", args=[tournament.slug, 2]), HTTP_HX_REQUEST="true"
    )
    assert "<html" not in partial.content.decode()
    assert 'id="pairings"' in partial.content.decode()
    closed = client.get(
        reverse("tournaments:standings", args=[tournament.slug]) + "?round=1"
    ).content.decode()
    assert "Preliminary" not in closed


def _standings_queries(players: int, organiser: User) -> int:
    tournament = make_tournament(players, swiss_rounds=3)
    for _ in range(3):
        play_round(tournament, organiser)
    with CaptureQueriesContext(connection) as queries:
        response = english().get(reverse("tournaments:standings", args=[tournament.slug]))
    assert response.status_code == 200
    return len(queries)


def test_the_standings_page_costs_the_same_queries_for_any_field(organiser: User) -> None:
    # Twice the field: a query a player (or a match) would show as 6 more.
    assert _standings_queries(6, organiser) == _standings_queries(12, organiser)


def test_creating_a_tournament_with_a_preset_and_refusing_bad_input(organiser: User) -> None:
    client = as_user(organiser)
    data = {
        "name": "Vårturneringen",
        "year": 2026,
        "venue": "Uppsala",
        "starts_on": "2026-04-01",
        "ends_on": "2026-03-01",
        "swiss_rounds": 5,
        "best_of": 3,
        "playoff_best_of": 3,
        "scheme": "acc",
        "points_win": 2,
        "points_skunk": 3,
        "points_double_skunk": 4,
        "bye_game_points": 4,
        "tiebreak_0": "match_wins",
        "tiebreak_1": "spread",
    }
    response = client.post(reverse("tournaments:create"), data)
    assert response.status_code == 200
    assert "The last day cannot be before the first" in response.content.decode()
    assert not Tournament.objects.exists()
    data["ends_on"] = "2026-04-02"
    data["tiebreak_2"] = "spread"
    response = client.post(reverse("tournaments:create"), data)
    assert "only once" in response.content.decode()
    assert not Tournament.objects.exists()
    data["tiebreak_2"] = ""
    response = client.post(reverse("tournaments:create"), data)
    tournament = Tournament.objects.get()
    assert response["Location"] == reverse("tournaments:entries", args=[tournament.slug])
    assert (tournament.points_win, tournament.points_skunk, tournament.points_double_skunk) == (
        2,
        3,
        3,
    )
    assert tournament.tiebreaks == ["match_wins", "spread"]


def test_one_championship_a_year(organiser: User) -> None:
    make_tournament(2, is_championship=True)
    client = as_user(organiser)
    response = client.post(
        reverse("tournaments:create"),
        {
            "name": "SM igen",
            "year": 2026,
            "starts_on": "2026-06-01",
            "ends_on": "2026-06-01",
            "is_championship": "on",
            "swiss_rounds": 5,
            "best_of": 3,
            "playoff_best_of": 3,
            "scheme": "standard",
            "points_win": 2,
            "points_skunk": 3,
            "points_double_skunk": 4,
            "bye_game_points": 4,
            "tiebreak_0": "match_wins",
        },
    )
    assert "already has a championship" in response.content.decode()
    assert Tournament.objects.count() == 1


def test_organisers_register_players_and_add_new_members(organiser: User) -> None:
    tournament = make_tournament(0)
    client = as_user(organiser)
    response = client.post(
        reverse("tournaments:entry_add_new", args=[tournament.slug]),
        {"name": "Åke Öst", "club": "Kiruna"},
    )
    assert response.status_code == 302
    entry = tournament.entries.get()
    assert entry.player.name == "Åke Öst"
    assert entry.checked_in
    search = client.get(
        reverse("tournaments:entries", args=[tournament.slug]) + "?q=ake",
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="candidates",
    )
    assert "Åke Öst" not in search.content.decode()  # already registered
    response = client.post(
        reverse("tournaments:entry_add_new", args=[tournament.slug]), {"name": "", "club": "Kiruna"}
    )
    assert response.status_code == 400
    assert tournament.entries.count() == 1


def test_a_players_history_lists_every_match(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=2)
    play_round(tournament, organiser)
    play_round(tournament, organiser)
    row = bridge.standings(tournament)[0]
    page = (
        english()
        .get(reverse("tournaments:entry", args=[tournament.slug, row.entry.pk]))
        .content.decode()
    )
    assert page.count("121–") >= 4  # two matches won 2-0
    assert row.standing.record in page


def test_the_home_page_lists_champions_and_a_player_page_their_tournaments(organiser: User) -> None:
    from tournaments.services import playoff

    tournament = make_tournament(4, swiss_rounds=1, is_championship=True)
    play_round(tournament, organiser)
    playoff.tournament_finish(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.champion is not None
    champion = tournament.champion.player
    home = english().get("/").content.decode()
    assert "Swedish champions" in home
    assert f"<strong>2026</strong> {champion.name}" in home
    page = english().get(reverse("player_detail", args=[champion.pk])).content.decode()
    assert tournament.name in page
    assert "winner" in page


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "sv",
            ["Rond 1 lottas", "Rond 1 spelas", "Rond 1 av 3 spelad", "Rond 2 spelas", "Avgjord"],
        ),
        (
            "en",
            [
                "Round 1 is being paired",
                "Round 1 is being played",
                "Round 1 of 3 played",
                "Round 2 is being played",
                "Decided",
            ],
        ),
    ],
)
def test_a_tournament_is_described_by_where_it_stands_not_by_its_stage(
    organiser: User, language: str, said: list[str]
) -> None:
    """The list, the home page and the tournament's page say "Round 4 is being played",
    not "Swiss rounds"."""
    from tournaments.services import results, rounds

    tournament = make_tournament(4, swiss_rounds=3, is_championship=True)
    visitor = Client()
    visitor.cookies["django_language"] = language
    pages = [reverse("tournaments:list"), reverse("home")]
    pages.append(reverse("tournaments:detail", args=[tournament.slug]))

    def everywhere(words: str) -> None:
        for page in pages:
            html = visitor.get(page).content.decode()
            assert words in html, (page, words)
            stage = re.search(r"(>\s*|· )(Swiss rounds|Schweiziska ronder)\s*<", html)
            assert stage is None, page

    tournament.status = Tournament.Status.SWISS
    tournament.save(update_fields=["status"])
    everywhere(said[0])
    first = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=first)
    everywhere(said[1])
    for match in first.matches.filter(is_bye=False):
        results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 90)] * 2)
    rounds.round_close(round=first)
    everywhere(said[2])
    second = rounds.round_propose(tournament=tournament)
    everywhere(said[2])  # a proposal is not yet published
    rounds.round_publish(round=second)
    everywhere(said[3])
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    everywhere(said[4])
