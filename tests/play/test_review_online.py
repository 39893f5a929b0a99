"""The review of a game between members and of a championship match played on the site:
who reads it and when (docs/review.md). Its players once it is over; a championship
match's spectators (anyone, as for watching it) once the match is over; nobody before,
and no other member or visitor for a game between members."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks

from play.models import GameReview, OnlineGame
from play.online import challenge_accept, challenge_create, load_online, online_decide
from play.services import Action, Decision, stand_in_decision
from scoring.players.strategy import ComputerPlayer
from scoring.rules.events import Phase
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.play.test_championship import accepted, play_to_the_end
from tests.queue import DATABASE_TASKS, waiting
from tests.tournaments.conftest import make_tournament
from tournaments.models import Match
from tournaments.services import results, rounds

pytestmark = pytest.mark.django_db

TASK = "play.tasks.compute_review"


def member(username: str, name: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=name, club="Umeå")
    return user


def reader(user: User | None, language: str = "en") -> Client:
    client = Client()
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def between_members() -> OnlineGame:
    anna, bertil = member("anna", "Anna Ek"), member("bertil", "Bertil Ås")
    challenge = challenge_create(challenger=anna, challenged=bertil)
    return challenge_accept(pk=challenge.pk, member=bertil, seed=5)


@pytest.fixture
def championship_match() -> Match:
    tournament = make_tournament(4, best_of=3, points_win=2, points_skunk=3, points_double_skunk=4)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    return Match.objects.filter(round=round_, is_bye=False).order_by("table")[0]


@pytest.mark.parametrize(
    ("language", "words"),
    [("en", ("Analysis of the game", "Anna Ek", "Bertil Ås")), ("sv", ("Analys av partiet",))],
)
def test_each_player_reads_the_review_of_their_game_once_it_is_over(
    between_members: OnlineGame,
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    language: str,
    words: tuple[str, ...],
) -> None:
    url = reverse("play:online_review", args=[between_members.pk])
    players = between_members.pair
    with override_settings(TASKS=DATABASE_TASKS):
        for player in players:  # in progress: nobody, and nothing queued
            assert reader(player, language).get(url).status_code == 404
        assert waiting(TASK) == []
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(between_members)
    review = GameReview.objects.get(online=game)
    assert (review.member_0, review.member_1) == players
    for player in players:
        html = reader(player, language).get(url).content.decode()
        for word in words:
            assert word in html
        assert "review-choices" in html
        assert f"/play/online/{game.pk}/replay/?game=1&amp;step=" in html
    game_page = reader(players[0], language).get(reverse("play:online_game", args=[game.pk]))
    assert url in game_page.content.decode()


def test_no_other_member_nor_a_visitor_reads_a_review_of_a_game_between_members(
    between_members: OnlineGame, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(between_members)
    url = reverse("play:online_review", args=[game.pk])
    assert reader(member("cecilia", "Cecilia Ek")).get(url).status_code == 404
    anonymous = reader(None).get(url)
    assert anonymous.status_code == 302
    assert anonymous.headers["Location"].startswith(reverse("login"))


def test_spectators_read_a_championship_review_after_the_match_not_before(
    championship_match: Match, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    game = accepted(championship_match)
    url = reverse("play:online_review", args=[game.pk])
    spectator = member("cecilia", "Cecilia Ek")
    for client in (reader(None), reader(spectator), reader(game.seat_0)):
        assert client.get(url).status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(game)
    for language in ("en", "sv"):
        for client in (reader(None, language), reader(spectator, language)):
            html = client.get(url).content.decode()
            assert "review-choices" in html
            assert "/replay/" not in html  # the replay is its players' only
    watch = reader(None).get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert url in watch
    tournament = championship_match.round.tournament
    match_page = reverse("tournaments:match", args=[tournament.slug, championship_match.pk])
    assert url in reader(None).get(match_page).content.decode()
    review = GameReview.objects.get(online=game)
    assert review.decisions_0 > 0
    assert review.decisions_1 > 0


def test_a_match_ended_by_the_organisers_is_reviewed_for_the_games_played_to_their_end(
    championship_match: Match, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    game = accepted(championship_match)
    with django_capture_on_commit_callbacks(execute=True):
        results.match_settle(
            match=championship_match,
            organiser=OrganiserFactory.create(),
            first_dealer=1,
            games=[(1, 80), (1, 70)],
        )
    review = GameReview.objects.get(online=game)
    assert review.review["decisions"] == []  # no game of it was played to its end here
    html = reader(None).get(reverse("play:online_review", args=[game.pk])).content.decode()
    assert "No game of this match was played to its end" in html


def over_counted(game: OnlineGame) -> OnlineGame:
    """Played to its end with muggins: Anna (seat 0) claims two more than each hand is
    worth and Bertil calls every point missed; the rest as the standard computer plays."""
    users = dict(enumerate(game.pair))
    for _step in range(3000):
        if game.finished:
            return game
        match = load_online(game)
        seat = match.game.to_move if match.game.to_move is not None else 0
        decision = stand_in_decision(match, ComputerPlayer("standard", seat), seat)
        if match.game.phase is Phase.COUNT and seat == 0 and decision.points is not None:
            decision = Decision(Action.COUNT, points=min(decision.points + 2, 29))
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Claimed {}, worth {}.", "An over-count pegs nothing.", "{} points missed.")),
        ("sv", ("Begärde {}, värd {}.", "En överräkning ger inga poäng.", "{} poäng missade.")),
    ],
)
def test_an_over_count_misses_the_hands_whole_worth_in_the_review(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
    language: str,
    words: tuple[str, str, str],
) -> None:
    """docs/muggins.md: an over-count pegs nothing and the hand's whole worth counts as
    missed (the review said "missed 0" for it): in its line, its detail and the total."""
    anna, bertil = member("anna", "Anna Ek"), member("bertil", "Bertil Ås")
    challenge = challenge_create(challenger=anna, challenged=bertil, muggins=True)
    with django_capture_on_commit_callbacks(execute=True):
        game = over_counted(challenge_accept(pk=challenge.pk, member=bertil, seed=5))
    decisions = GameReview.objects.get(online=game).review["decisions"]
    annas = [d for d in decisions if d["kind"] == "count" and d["seat"] == 0]
    over = [d for d in annas if d["claimed"] > d["worth"] > 1]
    assert over, "Anna over-counted a hand worth 2 or more"
    assert all(d["lost"] == d["worth"] and d["marked"] for d in over)
    html = reader(anna, language).get(reverse("play:online_review", args=[game.pk])).text
    claimed, pegs_nothing, points_missed = words
    for decision in over:
        anchor = f'id="decision-{decisions.index(decision) + 1}"'
        line = html.split(anchor)[1].split("</details>")[0]
        summary = line.split("</summary>")[0]
        assert f"<strong>{decision['worth']}</strong>" in summary  # all of it missed
        verdict = " ".join(claimed.format(decision["claimed"], decision["worth"]).split())
        assert verdict in line
        assert f"{pegs_nothing} {points_missed.format(decision['worth'])}" in line
    totals = html.split("review-totals")[1].split("</table>")[0]
    row = totals.split("Missed in the count" if language == "en" else "Missat i räkningen")[1]
    first = re.search(r'<td class="num">(\d+)</td>', row)
    assert first is not None
    assert int(first.group(1)) == sum(d["lost"] for d in annas) >= sum(d["worth"] for d in over)
