"""The rating list follows the final results: rated when a match becomes final, rated
again from a corrected round onward, and always what a recomputation from scratch gives."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from club.models import Player
from ratings import selectors
from ratings.glicko import Rating, Result, rate
from ratings.models import ListRating, PeriodRating, RatingPeriod
from ratings.services import ratings_recompute, ratings_rerate
from tests.ratings.conftest import stored
from tests.tournaments.conftest import account, make_tournament, play_round, seats
from tournaments.access import Actor
from tournaments.exchange import export_tournament, import_tournament
from tournaments.models import Match, Round, Tournament
from tournaments.services import results, rounds
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db


def rating_of(player: Player) -> ListRating:
    return ListRating.objects.get(player=player)


def players_of(match: Match) -> list[Player]:
    return [seat.entry.player for seat in seats(match)]


def published_round(tournament: Tournament) -> Round:
    round_ = rounds.round_propose(tournament=tournament)
    return rounds.round_publish(round=round_)


def first_match(round_: Round) -> Match:
    match = round_.matches.filter(is_bye=False).order_by("table").first()
    assert match is not None
    return match


def upset_at_table(table: int) -> Callable[[Match], list[tuple[int, int]]]:
    """Seat 0 wins 2-0, except at ``table``, where seat 1 wins 2-1."""

    def result(match: Match) -> list[tuple[int, int]]:
        return [(0, 100), (1, 90), (1, 80)] if match.table == table else [(0, 100), (0, 95)]

    return result


def test_a_settled_match_is_rated_at_once_and_the_rest_of_the_round_when_final(
    organiser: User,
) -> None:
    tournament = make_tournament(4)
    round_ = published_round(tournament)
    match, other = round_.matches.filter(is_bye=False).order_by("table")
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(1, 100)] * 2)
    winner, loser = players_of(match)[1], players_of(match)[0]
    assert rating_of(winner).rating == pytest.approx(rate(Rating(), [Result(Rating(), 1)]).rating)
    assert rating_of(loser).rating < 1500 < rating_of(winner).rating
    assert ListRating.objects.count() == 2  # the other match is not final yet
    results.match_settle(match=other, organiser=organiser, first_dealer=0, games=[(0, 100)] * 2)
    assert ListRating.objects.count() == 4
    period = RatingPeriod.objects.get()
    assert (period.round, period.position, period.matches) == (round_, 1, 2)
    assert tournament.starts_on <= period.date <= tournament.ends_on


def test_a_reported_match_is_rated_when_the_opponent_confirms_it() -> None:
    match = first_match(published_round(make_tournament(4)))
    first, second = seats(match)
    reported = results.match_report_result(
        match=match, by=Actor(user=account(first)), first_dealer=0, games=[(0, 100), (0, 95)]
    )
    assert not ListRating.objects.exists()
    results.match_confirm(
        match=match, by=Actor(user=account(second)), version=reported.report_version
    )
    assert rating_of(first.entry.player).rating > 1500 > rating_of(second.entry.player).rating
    assert rating_of(first.entry.player).wins == 1


def test_byes_and_matches_without_games_are_not_rated(organiser: User) -> None:
    tournament = make_tournament(5)
    round_ = play_round(tournament, organiser)
    bye = round_.matches.get(is_bye=True).seats.get().entry.player
    assert not ListRating.objects.filter(player=bye).exists()
    assert ListRating.objects.count() == 4
    # A final match with no games (a result entered by hand in the database) is no result.
    match = first_match(round_)
    match.games.all().delete()
    ratings_recompute()
    assert ListRating.objects.count() == 2
    assert RatingPeriod.objects.get().matches == 1


def test_a_player_who_sits_out_a_round_keeps_the_rating_and_grows_the_deviation(
    organiser: User,
) -> None:
    tournament = make_tournament(5)
    play_round(tournament, organiser)
    second = play_round(tournament, organiser)
    idle = second.matches.get(is_bye=True).seats.get().entry.player
    line = rating_of(idle)
    assert line.period.position == 1
    assert line.matches == 1
    now = selectors.ratings_now([idle.pk])[idle.pk]
    assert (now.rating, now.volatility) == (line.rating, line.volatility)
    assert now.deviation > line.deviation


def test_a_later_result_leaves_the_earlier_periods_as_they_were(organiser: User) -> None:
    tournament = make_tournament(8)
    play_round(tournament, organiser)
    first_period = list(PeriodRating.objects.filter(period__position=1).values_list("pk", "rating"))
    round_ = published_round(tournament)
    results.match_settle(
        match=first_match(round_), organiser=organiser, first_dealer=0, games=[(0, 100)] * 2
    )
    assert (
        list(PeriodRating.objects.filter(period__position=1).values_list("pk", "rating"))
        == first_period
    )
    assert ratings_rerate(round=round_) == 2


def test_a_corrected_result_rates_every_later_period_again_as_a_recomputation_would(
    organiser: User,
) -> None:
    spring = make_tournament(8)
    for _ in range(3):
        play_round(spring, organiser, upset_at_table(2))
    autumn = make_tournament(
        0,
        name="Autumn Open",
        starts_on=datetime.date(2026, 9, 5),
        ends_on=datetime.date(2026, 9, 5),
    )
    for entry in spring.entries.select_related("player")[:6]:
        tournament_services.entry_add(tournament=autumn, player=entry.player, checked_in=True)
    for _ in range(2):
        play_round(autumn, organiser, upset_at_table(1))
    before = stored()
    assert [row[0] for row in before[0]] == [1, 2, 3, 4, 5]
    kept = list(PeriodRating.objects.filter(period__position=1).values_list("pk", flat=True))

    # The organiser corrects round 2 at table 1: the other player won.
    match = spring.rounds.get(number=2).matches.get(table=1)
    results.match_settle(
        match=match, organiser=organiser, first_dealer=0, games=[(1, 100), (1, 100)]
    )
    corrected = stored()
    assert corrected[0] == before[0]
    # Round 1 is left as stored; round 2 and everything after it is rated again.
    assert (
        list(PeriodRating.objects.filter(period__position=1).values_list("pk", flat=True)) == kept
    )
    for position in range(1, 6):
        old = [row for row in before[1] if row[0] == position]
        new = [row for row in corrected[1] if row[0] == position]
        assert (old == new) == (position == 1), position
    loser, winner = players_of(match)
    wins_before = {row[0]: row[6] for row in before[2]}
    assert rating_of(winner).wins == wins_before[winner.pk] + 1
    assert rating_of(loser).wins == wins_before[loser.pk] - 1

    ratings_recompute()
    assert stored() == corrected


def test_moving_a_tournament_before_another_reorders_the_periods_as_a_recomputation_would(
    organiser: User,
) -> None:
    first = make_tournament(4, name="May Cup")
    play_round(first, organiser)
    later = make_tournament(
        0, name="June Cup", starts_on=datetime.date(2026, 6, 1), ends_on=datetime.date(2026, 6, 1)
    )
    for entry in first.entries.select_related("player"):
        tournament_services.entry_add(tournament=later, player=entry.player, checked_in=True)
    june_round = play_round(later, organiser)
    assert RatingPeriod.objects.get(position=2).round == june_round

    tournament_services.tournament_update(
        tournament=later, starts_on=datetime.date(2026, 4, 1), ends_on=datetime.date(2026, 4, 1)
    )
    assert RatingPeriod.objects.get(position=1).round == june_round
    assert RatingPeriod.objects.get(position=1).date == datetime.date(2026, 4, 1)
    moved = stored()
    ratings_recompute()
    assert stored() == moved


def test_an_imported_older_tournament_is_rated_before_the_later_ones(organiser: User) -> None:
    spring = make_tournament(4, name="Spring Cup")
    play_round(spring, organiser)
    data = export_tournament(spring)
    data["tournament"].update(
        name="Old Cup", year=2025, starts_on="2025-05-01", ends_on="2025-05-01"
    )
    for round_ in data["rounds"]:  # other results: not a copy of the spring's
        for match in round_["matches"]:
            match["games"][1]["loser_score"] -= 1
    # The same members, found in the register; rated as asked.
    old = import_tournament(data, slug="old-cup", rated=True)
    periods = list(RatingPeriod.objects.order_by("position"))
    assert [period.round.tournament for period in periods if period.round] == [old, spring]
    assert sorted(ListRating.objects.values_list("matches", flat=True)) == [2, 2, 2, 2]
    imported = stored()
    ratings_recompute()
    assert stored() == imported


def test_rating_again_when_nothing_changed_changes_nothing(organiser: User) -> None:
    play_round(make_tournament(4), organiser)
    before = stored()
    assert ratings_rerate() is None
    assert stored() == before


def test_the_database_refuses_two_ratings_of_a_player_in_one_period_and_no_deviation(
    organiser: User,
) -> None:
    play_round(make_tournament(4), organiser)
    row = PeriodRating.objects.first()
    assert row is not None
    values = {
        "period": row.period,
        "rating": 1500.0,
        "volatility": 0.06,
        "matches": 1,
        "wins": 0,
    }
    with pytest.raises(IntegrityError), transaction.atomic():
        PeriodRating.objects.create(player=row.player, deviation=100.0, **values)
    other = Player.objects.exclude(period_ratings__isnull=False).first() or Player.objects.create(
        name="New", club="Lund"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        PeriodRating.objects.create(player=other, deviation=0.0, **values)
