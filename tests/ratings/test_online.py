"""Matches between members played on the site count on the rating list when both agreed to
have them rated: played to the end or resigned, one rating period a month."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from play.models import OnlineGame
from play.online import (
    challenge_accept,
    challenge_create,
    load_online,
    online_claim,
    online_decide,
    online_resign,
)
from play.services import stand_in_decision
from ratings.models import ListRating, RatingPeriod
from ratings.services import ratings_recompute
from scoring.players.strategy import ComputerPlayer
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.conftest import stored

pytestmark = pytest.mark.django_db


def member(username: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=username.title(), club="Lund")
    return user


def started(*, rated: bool, best_of: int = 1) -> OnlineGame:
    anna, bo = member("anna"), member("bo")
    challenge = challenge_create(challenger=anna, challenged=bo, rated=rated, best_of=best_of)
    return challenge_accept(pk=challenge.pk, member=bo, seed=4)


def play_out(game: OnlineGame) -> OnlineGame:
    stand_ins = {0: ComputerPlayer("expert", 1), 1: ComputerPlayer("easy", 2)}
    users = {0: game.seat_0, 1: game.seat_1}
    while not game.finished:
        match = load_online(game)
        seat = match.game.to_move or 0
        decision = stand_in_decision(match, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
    return game


def test_a_rated_match_played_to_the_end_rates_both_in_its_month() -> None:
    game = play_out(started(rated=True, best_of=3))
    assert game.rated
    winner = (game.seat_0, game.seat_1)[game.winner or 0]
    loser = (game.seat_0, game.seat_1)[1 - (game.winner or 0)]
    won, lost = (ListRating.objects.get(player__user=user) for user in (winner, loser))
    assert (won.matches, won.wins, lost.matches, lost.wins) == (1, 1, 1, 0)
    assert won.rating > 1500 > lost.rating
    (period,) = RatingPeriod.objects.all()
    assert period.round is None
    assert period.month == game.last_move.date().replace(day=1)
    before = stored()
    ratings_recompute()
    assert stored() == before  # the list is what a recomputation gives


def test_an_unrated_match_is_not_on_the_list() -> None:
    play_out(started(rated=False))
    assert not ListRating.objects.exists()


def test_a_resigned_rated_match_is_rated_and_a_claimed_one_is_not() -> None:
    game = started(rated=True)
    online_resign(pk=game.pk, member=game.seat_0)
    assert ListRating.objects.get(player__user=game.seat_1).wins == 1
    claimed = started_between("cecilia", "david")
    match = load_online(claimed)
    seat = match.game.to_move or 0
    mover = (claimed.seat_0, claimed.seat_1)[seat]
    decision = stand_in_decision(match, ComputerPlayer("easy", 1), seat)
    claimed = online_decide(pk=claimed.pk, member=mover, moves=0, decision=decision)
    online_claim(pk=claimed.pk, member=mover, now=claimed.last_move + datetime.timedelta(hours=73))
    claimed.refresh_from_db()
    assert claimed.ended == OnlineGame.Ended.CLAIMED
    assert not ListRating.objects.filter(player__user__in=[claimed.seat_0, claimed.seat_1])


def started_between(first: str, second: str) -> OnlineGame:
    one, other = member(first), member(second)
    challenge = challenge_create(challenger=one, challenged=other, rated=True)
    return challenge_accept(pk=challenge.pk, member=other, seed=5)


def test_a_rated_match_is_played_by_the_clubs_rules() -> None:
    anna, bo = member("anna"), member("bo")
    with pytest.raises(ValidationError) as refused:
        challenge_create(challenger=anna, challenged=bo, rated=True, muggins=True)
    assert refused.value.code == "rated_rules"
