"""Players report their own matches, opponents confirm or dispute, organisers settle."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import account, make_tournament, play_round, seats
from tournaments.access import Actor
from tournaments.errors import TournamentError
from tournaments.exchange import export_tournament, import_tournament
from tournaments.models import Game, Match, ResultChange, Tournament
from tournaments.services import results, rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(tournament: Tournament) -> Match:
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = round_.matches.filter(is_bye=False).order_by("table").first()
    assert match is not None
    return match


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def report_data(first_dealer: int, *games: tuple[int, int | str]) -> dict[str, str]:
    data = {"first_dealer": str(first_dealer)}
    for number, (winner, score) in enumerate(games, start=1):
        data[f"game_{number}_winner"] = str(winner)
        data[f"game_{number}_loser_score"] = str(score)
    return data


def url(match: Match, name: str) -> str:
    return reverse(f"tournaments:{name}", args=[match.round.tournament.slug, match.pk])


def nothing_saved(match: Match) -> None:
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING
    assert not Game.objects.filter(match=match).exists()
    assert not ResultChange.objects.filter(match=match).exists()


def test_a_reported_match_shows_dealers_skunks_points_and_awaits_the_opponent(match: Match) -> None:
    first, second = seats(match)
    client = client_for(account(first))
    # Seat 1 deals game 1; seat 0 wins it, so seat 1 (the loser) deals game 2, and so on.
    response = client.post(url(match, "match_report"), report_data(1, (0, 85), (1, 100), (0, 50)))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    games = list(match.games.order_by("number").values_list("dealer", "winner", "loser_score"))
    assert games == [(1, 0, 85), (1, 1, 100), (0, 0, 50)]
    client.cookies["django_language"] = "sv"
    page = client.get(url(match, "match")).content.decode()
    # Game points: skunk 3 (85), plain win 2 (100), double skunk 4 (50): 7 for seat 0, 2 for seat 1.
    assert "7 – 2" in page
    assert "dubbelskunk" in page
    assert "Väntar på" in page


@pytest.mark.parametrize(
    ("games", "message"),
    [
        (((0, 121), (0, 50)), "at most 120"),
        (((0, -1), (0, 50)), "cannot be negative"),
        (((0, 90), (0, 50), (1, 70)), "Game 3 was not needed"),
        (((0, 90), (1, ""), (0, 80)), "Enter the loser"),
    ],
)
def test_an_impossible_report_gets_a_clear_message_and_saves_nothing(
    match: Match, games: tuple[tuple[int, int | str], ...], message: str
) -> None:
    client = client_for(account(seats(match)[0]))
    with_language = {"Accept-Language": "en"}
    client.cookies["django_language"] = "en"
    response = client.post(
        url(match, "match_report"), report_data(0, *games), headers=with_language
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    nothing_saved(match)


@pytest.mark.parametrize(
    ("first_dealer", "games", "english", "swedish"),
    [
        (
            2,
            [(0, 90), (0, 80)],
            "Say who dealt first in game 1.",
            "Ange vem som gav först i parti 1.",
        ),
        (0, [(0, 90), (0, 80), (1, 70)], "Game 3 was not needed", "Parti 3 behövdes inte"),
        (0, [(0, 90), (2, 80)], "Game 2: say who won it.", "Parti 2: ange vem som vann."),
        (0, [(0, 130)], "Game 1: the loser's score must be", "Parti 1: förlorarens poäng måste"),
        (0, [(0, 90), (1, 12.5)], "Game 2: the loser's score must", "Parti 2: förlorarens poäng"),
    ],
)
def test_each_reason_the_engine_refuses_a_report_for_is_said_in_the_reader_language(
    match: Match, first_dealer: int, games: list[tuple[int, int]], english: str, swedish: str
) -> None:
    from django.utils import translation

    for language, message in (("en", english), ("sv", swedish)):
        with translation.override(language), pytest.raises(TournamentError) as refused:
            results.check_report(match, first_dealer, games)
        assert message in str(refused.value)


def test_a_player_cannot_report_a_match_that_is_not_theirs(
    tournament: Tournament, match: Match
) -> None:
    other = tournament.entries.exclude(seats__match=match).first()
    assert other is not None
    assert other.player.user is not None
    client = client_for(other.player.user)
    client.cookies["django_language"] = "en"
    response = client.post(url(match, "match_report"), report_data(0, (0, 90), (0, 80)))
    assert response.status_code == 400
    assert "only report your own match" in response.content.decode()
    nothing_saved(match)


def test_anonymous_visitors_change_nothing(match: Match) -> None:
    response = Client().post(url(match, "match_report"), report_data(0, (0, 90), (0, 80)))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    nothing_saved(match)


def test_csrf_protects_the_report(match: Match) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(account(seats(match)[0]))
    response = client.post(url(match, "match_report"), report_data(0, (0, 90), (0, 80)))
    assert response.status_code == 403
    nothing_saved(match)


def test_checking_a_report_shows_the_derived_games_and_saves_nothing(match: Match) -> None:
    client = client_for(account(seats(match)[0]))
    data = report_data(0, (1, 60), (0, 30)) | {"preview": "1"}
    client.cookies["django_language"] = "sv"
    response = client.post(url(match, "match_report"), data)
    assert response.status_code == 200
    assert "inte avgjord" in response.content.decode()
    nothing_saved(match)
    htmx = client.post(url(match, "match_report"), data, HTTP_HX_REQUEST="true")
    assert "<html" not in htmx.content.decode()
    assert 'id="report"' in htmx.content.decode()


def test_the_opponent_confirms_and_the_match_is_final(match: Match) -> None:
    first, second = seats(match)
    results.match_report_result(
        match=match,
        by=Actor(user=account(first)),
        first_dealer=0,
        games=[(0, 90), (0, 80)],
    )
    with pytest.raises(TournamentError, match="not you"):
        results.match_confirm(match=match, by=Actor(user=account(first)), version=1)
    match.refresh_from_db()
    response = client_for(account(second)).post(
        url(match, "match_confirm"), {"version": match.report_version}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert match.winner == 0
    assert list(match.changes.values_list("action", flat=True)) == ["reported", "confirmed"]


def test_the_same_report_from_both_players_is_final_and_a_different_one_is_disputed(
    tournament: Tournament,
) -> None:
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    agreeing, differing = round_.matches.filter(is_bye=False).order_by("table")[:2]
    for match, second_games in ((agreeing, [(0, 90), (0, 80)]), (differing, [(1, 90), (1, 80)])):
        a, b = seats(match)
        results.match_report_result(
            match=match,
            by=Actor(user=account(a)),
            first_dealer=0,
            games=[(0, 90), (0, 80)],
        )
        results.match_report_result(
            match=match, by=Actor(user=account(b)), first_dealer=0, games=second_games
        )
    agreeing.refresh_from_db()
    differing.refresh_from_db()
    assert agreeing.status == Match.Status.FINAL
    assert differing.status == Match.Status.DISPUTED


def test_an_organiser_settles_a_dispute_and_the_log_keeps_who_before_and_after(
    match: Match, organiser: User
) -> None:
    a, b = seats(match)
    results.match_report_result(
        match=match, by=Actor(user=account(a)), first_dealer=0, games=[(0, 90), (0, 80)]
    )
    response = client_for(account(b)).post(url(match, "match_dispute"), {"note": "I won game 2"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    client = client_for(organiser)
    response = client.post(
        url(match, "match_settle"),
        report_data(0, (0, 90), (1, 80), (1, 100)) | {"note": "checked the sheet"},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert match.winner == 1
    settled = match.changes.last()
    assert settled is not None
    assert settled.before is not None
    assert settled.after is not None
    assert settled.user == organiser
    assert settled.action == "settled"
    assert settled.before["games"] == [[0, 90], [0, 80]]
    assert settled.after["games"] == [[0, 90], [1, 80], [1, 100]]
    page = client.get(url(match, "match")).content.decode()
    assert "checked the sheet" in page
    assert "organiser" in page


def test_players_cannot_settle(match: Match) -> None:
    response = client_for(account(seats(match)[0])).post(
        url(match, "match_settle"), report_data(0, (0, 90), (0, 80))
    )
    assert response.status_code == 403
    nothing_saved(match)


def test_a_player_sees_their_table_and_opponent(tournament: Tournament, match: Match) -> None:
    a, b = seats(match)
    client = client_for(account(a))
    response = client.get(reverse("tournaments:detail", args=[tournament.slug]))
    page = response.content.decode()
    assert b.entry.player.name in page
    assert f">{match.table}<" not in page
    assert reverse("tournaments:match", args=[tournament.slug, match.pk]) in page
    assert client.get(reverse("tournaments:my_table", args=[tournament.slug]))["Location"].endswith(
        f"/match/{match.pk}/"
    )


def test_a_round_that_is_not_published_cannot_be_reported(tournament: Tournament) -> None:
    make_tournament  # noqa: B018 - the fixture module is used for its helpers
    round_ = rounds.round_propose(tournament=tournament)
    match = round_.matches.filter(is_bye=False).first()
    assert match is not None
    with pytest.raises(TournamentError):
        results.match_report_result(
            match=match,
            by=Actor(user=account(seats(match)[0])),
            first_dealer=0,
            games=[(0, 9), (0, 9)],
        )


def test_correcting_a_closed_round_warns_that_the_next_round_was_paired_on_old_standings(
    tournament: Tournament, organiser: User
) -> None:
    first = play_round(tournament, organiser)
    proposed = rounds.round_propose(tournament=tournament)
    match = first.matches.filter(is_bye=False).order_by("table").first()
    assert match is not None
    client = client_for(organiser)
    client.cookies["django_language"] = "en"
    page = client.get(url(match, "match")).content.decode()
    assert "Round 2 is proposed on the current standings" in page
    response = client.post(
        url(match, "match_settle"), report_data(0, (1, 90), (1, 80)), follow=True
    )
    text = response.content.decode()
    assert "Round 2 was paired on the standings before this correction" in text
    assert reverse("tournaments:round", args=[tournament.slug, proposed.number]) in text
    match.refresh_from_db()
    assert match.winner == 1


def test_either_player_saves_the_next_game_and_whoever_decides_it_awaits_the_other(
    match: Match,
) -> None:
    a, b = (Actor(user=account(seat)) for seat in seats(match))
    saved = results.match_report_result(match=match, by=a, first_dealer=1, games=[(0, 85)])
    assert saved.status == Match.Status.IN_PLAY
    assert saved.winner is None
    # The same games again change nothing: no new version, no log line.
    again = results.match_report_result(match=match, by=a, first_dealer=1, games=[(0, 85)])
    assert again.report_version == saved.report_version
    decided = results.match_report_result(
        match=match, by=b, first_dealer=1, games=[(0, 85), (1, 110), (1, 30)]
    )
    assert decided.status == Match.Status.REPORTED
    assert decided.reported_seat == 1
    assert [g.dealer for g in decided.games.order_by("number")] == [1, 1, 0]
    with pytest.raises(TournamentError, match="not you"):
        results.match_confirm(match=match, by=b, version=decided.report_version)
    final = results.match_confirm(match=match, by=a, version=decided.report_version)
    assert final.status == Match.Status.FINAL
    assert final.winner == 1
    assert list(final.changes.values_list("action", flat=True)) == [
        "saved",
        "reported",
        "confirmed",
    ]


def offered(match: Match, user: User) -> set[str]:
    """The forms about ``match`` that ``user``'s match page offers: report, confirm, dispute."""
    page = client_for(user).get(url(match, "match")).content.decode()
    forms = ("match_report", "match_confirm", "match_dispute")
    return {name for name in forms if f'action="{url(match, name)}"' in page}


def test_the_page_offers_each_player_what_the_service_takes_from_them(match: Match) -> None:
    first, second = seats(match)
    reporter, opponent = account(first), account(second)
    games = [(0, 50), (0, 60)]
    results.match_report_result(match=match, by=Actor(user=reporter), first_dealer=0, games=games)
    assert offered(match, reporter) == {"match_report"}  # to correct the report
    assert offered(match, opponent) == {"match_confirm", "match_dispute"}
    # A report from the opponent is their answer: the same result confirms it.
    results.match_report_result(match=match, by=Actor(user=opponent), first_dealer=0, games=games)
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL
    assert offered(match, reporter) == offered(match, opponent) == set()


def test_an_imported_report_is_answered_by_either_player(match: Match) -> None:
    """A file does not say who reported: either player confirms or disputes it."""
    first, _second = seats(match)
    by = Actor(user=account(first))
    results.match_report_result(match=match, by=by, first_dealer=0, games=[(0, 50), (0, 60)])
    copy = import_tournament(export_tournament(match.round.tournament), slug="copy")
    imported = Match.objects.get(round__tournament=copy, table=match.table, round__number=1)
    assert imported.status == Match.Status.REPORTED
    assert imported.reported_seat is None
    for seat in seats(imported):
        assert offered(imported, account(seat)) == {"match_confirm", "match_dispute"}


def test_a_settled_match_is_not_called_the_final_in_swedish() -> None:
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override("sv"):
        assert str(Match.Status.FINAL.label) == "Slutgiltig"
        assert gettext("Final") == "Final"  # the play-off's last round keeps its name
    with translation.override("en"):
        assert str(Match.Status.FINAL.label) == "Final"


def test_the_result_log_dates_changes_in_the_readers_language(
    match: Match, organiser: User
) -> None:
    first, _second = seats(match)
    client_for(account(first)).post(url(match, "match_report"), report_data(1, (0, 85), (0, 90)))
    reader = client_for(organiser)
    swedish = reader.get(url(match, "match")).content.decode()
    stamp = re.search(r'<time datetime="[^"]+">([^<]+)</time>', swedish)
    assert stamp is not None
    assert re.fullmatch(r"\d{1,2} [a-zåäö]+ \d{2}:\d{2}", stamp.group(1)), stamp.group(1)
    month = stamp.group(1).split()[1]
    assert month in {"januari", "februari", "mars", "april", "maj", "juni", "juli"} | {
        "augusti",
        "september",
        "oktober",
        "november",
        "december",
    }


@pytest.mark.parametrize(
    ("language", "decided", "undecided", "players_words"),
    [
        (
            "sv",
            "Sparat av dig är resultatet slutgiltigt: ingen spelare behöver bekräfta det.",
            "Matchen är inte avgjord än: skriv in varje parti tills en spelare har vunnit matchen.",
            "din motståndare bekräftar",
        ),
        (
            "en",
            "Saved by you, the result is final: no player needs to confirm it.",
            "enter every game until one player has won the match.",
            "your opponent confirms",
        ),
    ],
)
def test_an_organisers_check_says_their_save_is_final_and_asks_no_opponent(
    match: Match, organiser: User, language: str, decided: str, undecided: str, players_words: str
) -> None:
    client = client_for(organiser)
    client.cookies["django_language"] = language
    checked = client.post(
        url(match, "match_settle"), report_data(0, (0, 90), (0, 80)) | {"preview": "1"}
    ).content.decode()
    assert decided in checked
    assert players_words not in checked
    half = client.post(
        url(match, "match_settle"), report_data(0, (0, 90)) | {"preview": "1"}
    ).content.decode()
    assert undecided in half
    nothing_saved(match)
