"""A re-rate after a result reads and rates only the periods since the earliest announced
one (``ratings.services``), and the list stays what a recomputation from scratch gives:
a result in an earlier period after later ones, a round rated for the first time before
later periods, corrections, a tournament made unrated or deleted, several results in one
period or in several, rated by one re-rate."""

from __future__ import annotations

import datetime
import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import ProtectedError
from django.test import RequestFactory, override_settings

from ratings import bridge
from ratings.models import ListRating, PendingRerate, PeriodRating, RatingPeriod
from ratings.services import ratings_recompute, ratings_rerate
from tests.queue import DATABASE_TASKS
from tests.ratings.conftest import stored
from tests.tournaments.conftest import make_tournament, play_round
from tournaments.models import Match, Round, Tournament
from tournaments.services import results, rounds
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db


def everything() -> tuple[Any, ...]:
    """Every row of the list (``stored``) and each period rating's previous position."""
    links = PeriodRating.objects.order_by("period__position", "player_id").values_list(
        "period__position", "player_id", "previous_position"
    )
    return (*stored(), list(links))


def assert_the_list_is_a_recomputation() -> None:
    kept = everything()
    ratings_recompute()
    assert everything() == kept


def same_players(tournament: Tournament, name: str, day: datetime.date) -> Tournament:
    """Another tournament on ``day`` of ``tournament``'s players."""
    other = make_tournament(0, name=name, starts_on=day, ends_on=day)
    for entry in tournament.entries.select_related("player"):
        tournament_services.entry_add(tournament=other, player=entry.player, checked_in=True)
    return other


def settle(match: Match, organiser: User, winner: int) -> None:
    games = [(winner, 100), (winner, 90)]
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=games)


def a_match(round_: Round, table: int = 1) -> Match:
    return round_.matches.get(table=table)


@pytest.fixture
def season(organiser: User) -> list[Tournament]:
    """Three tournaments of the same eight members, two rounds each: six periods."""
    spring = make_tournament(8, name="Spring Cup", swiss_rounds=3)
    played = [spring]
    for name, month in (("Summer Cup", 7), ("Autumn Cup", 9)):
        played.append(same_players(spring, name, datetime.date(2026, month, 5)))
    for tournament in played:
        for _ in range(2):
            play_round(tournament, organiser)
    assert RatingPeriod.objects.count() == 6
    return played


@pytest.fixture
def queued() -> Iterator[None]:
    """Results wait for the worker (the database queue): several can be pending at once."""
    with override_settings(TASKS=DATABASE_TASKS):
        yield


def test_a_corrected_result_in_the_first_tournament_rates_every_later_period_again(
    season: list[Tournament], organiser: User
) -> None:
    before = everything()
    match = a_match(season[0].rounds.get(number=1))
    settle(match, organiser, winner=1 - (match.winner or 0))
    after = everything()
    assert after[1] != before[1]  # every later period moved
    assert [row for row in after[1] if row[0] > 1] != [row for row in before[1] if row[0] > 1]
    assert_the_list_is_a_recomputation()


def test_a_corrected_result_in_the_latest_round_leaves_the_periods_before_it_as_stored(
    season: list[Tournament], organiser: User
) -> None:
    earlier = PeriodRating.objects.filter(period__position__lt=6)
    kept = list(earlier.values_list("pk", "rating"))
    match = a_match(season[2].rounds.get(number=2))
    settle(match, organiser, winner=1 - (match.winner or 0))
    assert list(earlier.values_list("pk", "rating")) == kept
    assert_the_list_is_a_recomputation()


def test_a_round_rated_for_the_first_time_before_later_periods_goes_in_its_place(
    season: list[Tournament], organiser: User
) -> None:
    # The summer cup's third round is played after the autumn cup's two.
    third = rounds.round_publish(round=rounds.round_propose(tournament=season[1]))
    settle(a_match(third), organiser, winner=0)
    periods = RatingPeriod.objects.order_by("position").values_list("round__tournament", flat=True)
    assert list(periods) == [season[0].pk] * 2 + [season[1].pk] * 3 + [season[2].pk] * 2
    assert RatingPeriod.objects.get(position=5).round == third
    assert_the_list_is_a_recomputation()
    settle(a_match(third, 2), organiser, winner=1)  # and another result of it
    assert RatingPeriod.objects.get(position=5).matches == 2
    assert_the_list_is_a_recomputation()


def test_results_in_one_period_and_in_an_earlier_one_are_rated_by_one_rerate(
    season: list[Tournament], organiser: User, queued: None
) -> None:
    latest = season[2].rounds.get(number=2)
    for table in (1, 2):
        match = a_match(latest, table)
        settle(match, organiser, winner=1 - (match.winner or 0))
    match = a_match(season[1].rounds.get(number=1))
    settle(match, organiser, winner=1 - (match.winner or 0))
    assert PendingRerate.objects.count() == 3
    assert ratings_rerate() == 3  # from the summer cup's first round, the earliest named
    assert not PendingRerate.objects.exists()
    assert ratings_rerate() is None
    assert_the_list_is_a_recomputation()


def test_a_tournament_made_unrated_leaves_the_list_and_later_results_follow(
    season: list[Tournament], organiser: User
) -> None:
    tournament_services.tournament_set_rated(tournament=season[1], rated=False)
    assert RatingPeriod.objects.count() == 4
    assert not RatingPeriod.objects.filter(round__tournament=season[1]).exists()
    assert_the_list_is_a_recomputation()
    match = a_match(season[2].rounds.get(number=1))
    settle(match, organiser, winner=1 - (match.winner or 0))
    assert_the_list_is_a_recomputation()


def test_an_unrated_result_rates_nothing_and_a_played_tournament_is_never_deleted(
    season: list[Tournament], organiser: User, queued: None
) -> None:
    friendly = same_players(season[0], "Friendly", datetime.date(2026, 6, 1))
    tournament_services.tournament_update(tournament=friendly, rated=False)
    round_ = rounds.round_publish(round=rounds.round_propose(tournament=friendly))
    settle(a_match(round_), organiser, winner=0)
    assert PendingRerate.objects.filter(round=round_).exists()
    kept = everything()
    assert ratings_rerate() is None
    assert everything() == kept
    with pytest.raises(ProtectedError):
        season[1].delete()  # its rounds are the list's history
    assert_the_list_is_a_recomputation()


def test_an_announcement_naming_no_period_compares_and_rates_every_period(
    season: list[Tournament], organiser: User, queued: None
) -> None:
    match = a_match(season[2].rounds.get(number=2))
    settle(match, organiser, winner=1 - (match.winner or 0))
    PendingRerate.objects.create(round=None, month=None)  # a tournament moved, say
    assert ratings_rerate() == 6  # nothing before differs: rated again from the result's
    assert_the_list_is_a_recomputation()


def test_the_stored_periods_since_a_key_are_the_last_ones(season: list[Tournament]) -> None:
    summer = season[1].rounds.get(number=2)
    key = bridge.round_key(season[1].starts_on, season[1].pk, 2)
    assert [period.round for _position, period in bridge.stored_periods_since(key)] == [
        summer.pk,
        *season[2].rounds.order_by("number").values_list("pk", flat=True),
    ]
    assert [position for position, _period in bridge.stored_periods_since(key)] == [4, 5, 6]
    assert bridge.rated_periods(since=key) == [
        period for _position, period in bridge.stored_periods_since(key)
    ]


def test_the_players_before_a_period_are_as_their_history_says(season: list[Tournament]) -> None:
    for position in range(1, 7):
        expected = {}
        for row in PeriodRating.objects.filter(period__position__lt=position).order_by(
            "period__position"
        ):
            expected[row.player_id] = (row.period.position, row.rating, row.matches, row.wins)
        standing = bridge.players_before(position)
        assert {
            player: (rated.period, rated.rating.rating, rated.matches, rated.wins)
            for player, rated in standing.items()
        } == expected, position


def test_the_migration_links_each_period_rating_to_the_one_before(
    season: list[Tournament],
) -> None:
    kept = everything()
    assert PeriodRating.objects.filter(previous_position__isnull=False).exists()
    PeriodRating.objects.update(previous_position=None)
    migration = importlib.import_module("ratings.migrations.0004_previous_position")
    migration.link_previous_periods(apps, None)
    assert everything() == kept
    assert ListRating.objects.count() == 8


def test_a_tournament_moved_in_the_admin_is_rated_in_its_new_place(
    season: list[Tournament], rf: RequestFactory
) -> None:
    autumn = season[2]
    model_admin = admin.site._registry[Tournament]
    request = rf.post("/")
    request.user = User.objects.get(username="organiser")
    shown = model_admin.get_form(request, autumn)(instance=autumn)
    data = {name: field.value() for name, field in ((name, shown[name]) for name in shown.fields)}
    data.update(starts_on="2026-04-01", ends_on="2026-04-01")
    form = model_admin.get_form(request, autumn)(data, instance=autumn)
    assert form.is_valid(), form.errors
    with transaction.atomic():  # as the admin's change view saves
        model_admin.save_model(request, form.save(commit=False), form, True)
    periods = RatingPeriod.objects.order_by("position").values_list("round__tournament", flat=True)
    assert list(periods)[:2] == [autumn.pk, autumn.pk]
    assert_the_list_is_a_recomputation()
