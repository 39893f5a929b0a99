"""Matches between members played on the site count on the rating list when both agreed to
have them rated and both took part: played to the end, resigned or claimed, one rating
period a month, at most three between the same two members in a month."""

from __future__ import annotations

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from play.errors import PlayError
from play.models import OnlineGame
from play.online import (
    challenge_accept,
    challenge_create,
    load_online,
    online_claim,
    online_decide,
    online_resign,
    online_start,
)
from play.services import stand_in_decision
from ratings.models import ListRating, RatingPeriod
from ratings.services import ratings_recompute
from scoring.players.strategy import ComputerPlayer
from tests.factories import PlayerFactory, UserFactory
from tests.ratings.conftest import stored

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


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
    users = dict(enumerate(game.pair))
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
    winner = game.pair[game.winner or 0]
    loser = game.pair[1 - (game.winner or 0)]
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


def started_between(first: str | User, second: str | User, seed: int = 5) -> OnlineGame:
    one = member(first) if isinstance(first, str) else first
    other = member(second) if isinstance(second, str) else second
    challenge = challenge_create(challenger=one, challenged=other, rated=True)
    return challenge_accept(pk=challenge.pk, member=other, seed=seed)


def play_until(game: OnlineGame, done: Callable[[OnlineGame], bool]) -> OnlineGame:
    """Both seats play (the computer's choices) until ``done``."""
    users = dict(enumerate(game.pair))
    while not done(game):
        match = load_online(game)
        seat = match.game.to_move or 0
        decision = stand_in_decision(match, ComputerPlayer("easy", 1), seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
    return game


def until_both_played(game: OnlineGame) -> OnlineGame:
    return play_until(game, lambda game: game.both_played)


def test_a_rated_match_resigned_before_the_first_show_is_not_rated() -> None:
    game = started(rated=True, best_of=3)
    # The first hand is laid away and partly played: not yet both taken part.
    game = play_until(game, lambda game: game.moves_0 + game.moves_1 >= 4)
    assert not game.both_played
    online_resign(pk=game.pk, member=game.seat_0)
    assert not ListRating.objects.exists()
    assert not RatingPeriod.objects.exists()


def test_a_rated_match_resigned_after_the_first_show_is_a_loss_for_who_resigned() -> None:
    game = until_both_played(started(rated=True, best_of=3))
    assert load_online(game).games[0].deal_number == 2
    online_resign(pk=game.pk, member=game.seat_0)
    resigned, won = (ListRating.objects.get(player__user=user) for user in game.pair)
    assert (resigned.wins, won.wins) == (0, 1)
    assert won.rating > 1500 > resigned.rating
    before = stored()
    ratings_recompute()
    assert stored() == before


def claim_against_silence(game: OnlineGame) -> OnlineGame:
    """The player to move stops answering; the other claims after 73 hours."""
    (silent,) = load_online(game).game.awaiting
    waiting = game.pair[1 - silent]
    return online_claim(
        pk=game.pk, member=waiting, now=game.last_move + datetime.timedelta(hours=73)
    )


def test_a_rated_match_claimed_after_72_hours_is_a_loss_for_who_stopped_answering() -> None:
    game = until_both_played(started(rated=True, best_of=3))
    game = play_until(game, lambda game: len(load_online(game).game.awaiting) == 1)
    claimed = claim_against_silence(game)
    assert claimed.ended == OnlineGame.Ended.CLAIMED
    winner = claimed.pair[claimed.winner or 0]
    silent = claimed.pair[1 - (claimed.winner or 0)]
    assert ListRating.objects.get(player__user=winner).wins == 1
    assert ListRating.objects.get(player__user=silent).wins == 0
    before = stored()
    ratings_recompute()
    assert stored() == before


def test_a_rated_match_claimed_before_both_took_part_is_not_rated() -> None:
    game = started(rated=True)
    game = play_until(game, lambda game: len(load_online(game).game.awaiting) == 1)
    claim_against_silence(game)
    assert not ListRating.objects.exists()


def test_a_fourth_rated_match_between_two_members_in_a_month_is_refused() -> None:
    anna, bo, cecilia = member("anna"), member("bo"), member("cecilia")
    for seed in range(3):
        game = until_both_played(started_between(anna, bo, seed=seed))
        online_resign(pk=game.pk, member=game.pair[1])
    assert ListRating.objects.get(player__user=anna).matches == 3
    with pytest.raises(PlayError) as refused:
        challenge_create(challenger=bo, challenged=anna, rated=True)
    assert refused.value.code == "rated_limit"
    assert "You and Anna have 3 rated matches this month" in refused.value.message
    # Unrated they may play on, and rated against another member.
    challenge_create(challenger=bo, challenged=anna)
    challenge_create(challenger=bo, challenged=cecilia, rated=True)
    # An open rated challenge cannot be accepted rated by a member at the limit.
    open_one = challenge_create(challenger=anna, rated=True)
    with pytest.raises(PlayError, match="You and Anna have 3"):
        challenge_accept(pk=open_one.pk, member=bo)
    assert challenge_accept(pk=open_one.pk, member=cecilia).rated


def test_only_three_rated_matches_between_two_members_count_in_a_month() -> None:
    anna, bo = member("anna"), member("bo")
    games = [started_between(anna, bo, seed=seed) for seed in range(3)]
    # A fourth begun rated the month before, ending in this one with the others.
    games.append(online_start(players=(bo, anna), rated=True, seed=9))
    for game in games:
        game = until_both_played(game)
        online_resign(pk=game.pk, member=anna)
    lines = {line.player.user: line for line in ListRating.objects.select_related("player")}
    assert (lines[bo].matches, lines[bo].wins) == (3, 3)
    assert lines[anna].matches == 3
    assert RatingPeriod.objects.get().matches == 3
    before = stored()
    ratings_recompute()
    assert stored() == before


def test_a_rated_match_is_played_by_the_clubs_rules() -> None:
    anna, bo = member("anna"), member("bo")
    with pytest.raises(PlayError) as refused:
        challenge_create(challenger=anna, challenged=bo, rated=True, muggins=True)
    assert refused.value.code == "rated_rules"
