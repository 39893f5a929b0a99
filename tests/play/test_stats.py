"""Practice statistics on known finished games, counted again straight from the engine."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from play.models import PracticeGame
from play.services import HUMAN, load_match
from play.stats import practice_stats
from scoring.rules.events import Event
from tests.factories import UserFactory
from tests.play.factories import PracticeGameFactory, owner_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def mine(events: tuple[Event, ...], *types: str) -> list[Event]:
    return [event for event in events if event.player == HUMAN and event.type in types]


def shown(events: tuple[Event, ...], what: str) -> list[int]:
    """The points of the player's shows of ``what`` (their hand or the crib)."""
    points = []
    for event in mine(events, "show"):
        if event.what == what:
            assert event.points is not None, "a show says its points"
            points.append(event.points)
    return points


def test_statistics_of_a_known_game_match_the_engines_events() -> None:
    practice = PracticeGameFactory.create(seed=77, finished=True)
    game = load_match(practice).game
    stats = practice_stats(games=PracticeGame.objects.filter(owner=practice.owner))

    assert stats.played == 1
    assert stats.won == (game.winner == HUMAN)
    deals = game.deal_number
    pegging = sum(event.points or 0 for event in mine(game.events, "play", "go", "last"))
    hands = shown(game.events, "hand")
    cribs = shown(game.events, "crib")
    assert stats.pegging_per_deal == pytest.approx(pegging / deals, abs=0.005)
    assert stats.hand_per_deal == pytest.approx(sum(hands) / len(hands), abs=0.005)
    assert stats.crib_per_deal == pytest.approx(sum(cribs) / len(cribs), abs=0.005)
    assert stats.highest_hand == max(hands)
    race = stats.games[0].race
    assert race[0] == (0, 0)
    assert race[-1] == game.scores
    assert len(race) == deals + 1


def test_skunks_count_for_the_winner_and_against_the_loser() -> None:
    user = UserFactory.create()
    # Seeds whose games are: a loss (96), a plain win (101), a loss skunked (61) and a
    # win skunking the computer on the line (90).
    seeds = (1, 5, 10, 19)
    games = [PracticeGameFactory.create(owner=user, seed=seed, finished=True) for seed in seeds]
    stats = practice_stats(games=PracticeGame.objects.filter(owner=user))
    losers = [min(load_match(game).game.scores) for game in games]
    winners = [load_match(game).game.winner for game in games]
    assert (winners, losers) == ([1, HUMAN, 1, HUMAN], [96, 101, 61, 90])
    assert stats.skunks == sum(w == HUMAN and s <= 90 for w, s in zip(winners, losers, strict=True))
    assert stats.skunked == sum(
        w != HUMAN and s <= 90 for w, s in zip(winners, losers, strict=True)
    )
    assert (stats.skunks, stats.skunked) == (1, 1)
    assert stats.played == 4
    assert stats.won == winners.count(HUMAN) == 2


def test_the_statistics_page_shows_numbers_and_an_accessible_race(client: Client) -> None:
    practice = PracticeGameFactory.create(seed=77, finished=True)
    PracticeGameFactory.create(owner=practice.owner)  # unfinished: not counted
    client.force_login(owner_of(practice))
    response = client.get(reverse("play:stats"))
    html = response.content.decode()
    assert response.context["stats"].played == 1
    assert '<dd data-stat="played">1</dd>' in html
    assert 'class="race-chart"' in html
    assert "<desc id=" in html
    assert "race-p0" in html
    assert f'href="{reverse("play:replay", args=[practice.pk])}?game=1"' in html


def test_a_member_sees_only_their_own_statistics(client: Client) -> None:
    PracticeGameFactory.create(seed=5, finished=True)
    client.force_login(UserFactory.create())
    assert client.get(reverse("play:stats")).context["stats"].played == 0
