"""The review of a game between members and of a championship match played on the site:
who reads it and when (docs/review.md). Its players once it is over; a championship
match's spectators (anyone, as for watching it) once the match is over; nobody before,
and no other member or visitor for a game between members."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks

from play.models import GameReview, OnlineGame
from play.online import challenge_accept, challenge_create
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
    players = (between_members.seat_0, between_members.seat_1)
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
