"""``manage.py recompute_ratings``: the list from scratch, one TAB-separated line per member."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from ratings.models import ListRating, PeriodRating
from tests.tournaments.conftest import make_tournament, play_round

pytestmark = pytest.mark.django_db


def printed_list() -> list[list[str]]:
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    return [line.split("\t") for line in out.getvalue().splitlines()]


def test_the_list_is_printed_best_first_with_rank_name_club_rating_deviation_matches(
    organiser: User,
) -> None:
    tournament = make_tournament(4)
    for _ in range(3):
        play_round(tournament, organiser)  # seat 0 wins every match
    lines = printed_list()
    assert [len(fields) for fields in lines] == [6] * 4
    assert [fields[0] for fields in lines] == ["1", "2", "3", "4"]
    ratings = [int(fields[3]) for fields in lines]
    assert ratings == sorted(ratings, reverse=True)
    assert ratings[0] > 1500 > ratings[-1]
    by_name = {
        line.player.name: line for line in ListRating.objects.select_related("player", "period")
    }
    for _rank, name, club, rating, deviation, matches in lines:
        line = by_name[name]
        assert club == "Uppsala"
        assert int(rating) == round(line.rating)
        assert int(deviation) == round(line.deviation)  # everyone played the latest round
        assert 60 < int(deviation) < 350
        assert matches == "3"


def test_the_command_recomputes_a_list_that_was_lost(organiser: User) -> None:
    play_round(make_tournament(4), organiser)
    kept = printed_list()
    ListRating.objects.all().delete()
    PeriodRating.objects.all().delete()
    assert printed_list() == kept


def test_members_who_left_the_club_are_not_listed(organiser: User) -> None:
    play_round(make_tournament(4), organiser)
    gone = ListRating.objects.select_related("player").first()
    assert gone is not None
    gone.player.active = False
    gone.player.save()
    names = [fields[1] for fields in printed_list()]
    assert len(names) == 3
    assert gone.player.name not in names


def test_without_results_the_list_is_empty() -> None:
    assert printed_list() == []
