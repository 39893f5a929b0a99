"""Tables of three and four members through the services (``play.tables``): sitting down
and standing up, beginning with the computer in the free seats, whole games of members
and computers judged by the engine, leaving the table and handing a silent seat to the
computer; what is refused and that a refusal changes nothing."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from play.errors import PlayError
from play.models import Challenge, ChallengeSeat, OnlineGame
from play.online import (
    CLAIM_AFTER,
    challenge_accept,
    challenge_close,
    challenge_create,
    load_online,
    online_claim,
    online_decide,
    online_resign,
)
from play.services import Action, Decision, stand_in_decision
from play.tables import table_begin, table_hand_over, table_leave, table_sit, table_stand
from scoring.players.strategy import ComputerPlayer
from scoring.rules.events import EventType, Phase, Skunk
from scoring.rules.match import Match
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

NAMES = ("Anna Ek", "Bertil Ås", "Cecilia Berg", "David Dahl", "Eva Ek")


def member(number: int) -> User:
    user = UserFactory.create(username=f"m{number}")
    PlayerFactory.create(user=user, name=NAMES[number])
    return user


@pytest.fixture
def members() -> list[User]:
    return [member(number) for number in range(5)]


def table(
    members: Sequence[User], *, seats: int = 4, target: int = 121, **options: object
) -> Challenge:
    return challenge_create(challenger=members[0], seats=seats, target=target, **options)  # type: ignore[arg-type]


def full_table(
    members: Sequence[User], seats: int, *, seed: int = 11, target: int = 61
) -> OnlineGame:
    challenge = table(members, seats=seats, target=target)
    game = None
    for seat in range(1, seats):
        game = table_sit(pk=challenge.pk, member=members[seat], seat=seat, seed=seed)
    assert game is not None, "the last seat taken begins the game"
    return game


def play_out(game: OnlineGame, users: dict[int, User]) -> OnlineGame:
    """Every member's decision by a standard stand-in, through the service, to the end."""
    while not game.finished:
        match = load_online(game)
        seat = next(s for s in sorted(match.game.awaiting, key=lambda s: s != match.game.to_move))
        decision = stand_in_decision(match, ComputerPlayer("standard", seat), seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
    return game


def test_a_table_of_four_begins_when_its_last_seat_is_taken(members: list[User]) -> None:
    challenge = table(members, seats=4)
    assert table_sit(pk=challenge.pk, member=members[1], seat=2) is None  # the partner
    assert table_sit(pk=challenge.pk, member=members[2], seat=1) is None
    game = table_sit(pk=challenge.pk, member=members[3], seat=3, seed=5)
    assert game is not None
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED
    assert challenge.game == game
    assert (game.seat_0, game.seat_1, game.seat_2, game.seat_3) == (
        members[0], members[2], members[1], members[3],
    )  # fmt: skip
    assert game.seats == 4
    assert game.computers == ""
    assert not game.rated
    match = load_online(game)
    assert match.players == (NAMES[0], NAMES[2], NAMES[1], NAMES[3])
    assert match.game.seats == 4
    assert match.game.phase is Phase.DISCARD
    assert game.awaiting == "0123"  # every member lays away a card


def test_the_challenger_begins_with_the_computer_in_the_free_seats(members: list[User]) -> None:
    challenge = table(members, seats=4, level="expert")
    with pytest.raises(PlayError, match="No other member sits at your table"):
        table_begin(pk=challenge.pk, member=members[0])
    table_sit(pk=challenge.pk, member=members[1], seat=2)
    with pytest.raises(Challenge.DoesNotExist):  # only its maker begins a table
        table_begin(pk=challenge.pk, member=members[1])
    game = table_begin(pk=challenge.pk, member=members[0], seed=3)
    assert game.computers == "13"
    assert game.level == "expert"
    assert game.seat_1 is None
    assert game.seat_3 is None
    match = load_online(game)
    assert match.players == (NAMES[0], "Computer 1", NAMES[1], "Computer 2")
    # The computers laid away at once: the game waits for the members alone.
    assert set(game.awaiting) == {"0", "2"}
    assert all(match.game.kept(seat) for seat in (1, 3))


def test_computers_answer_every_member_move_until_the_game_ends(members: list[User]) -> None:
    challenge = table(members, seats=3, target=61, level="standard")
    table_sit(pk=challenge.pk, member=members[1], seat=2)
    game = table_begin(pk=challenge.pk, member=members[0], seed=21)
    users = {0: members[0], 2: members[1]}
    moves = 0
    while not game.finished:
        assert set(game.awaiting) <= {"0", "2"}, "the game never waits for the computer"
        match = load_online(game)
        seat = next(s for s in sorted(match.game.awaiting, key=lambda s: s != match.game.to_move))
        decision = stand_in_decision(match, ComputerPlayer("standard", seat), seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
        moves += 1
    match = load_online(game)
    assert game.ended == OnlineGame.Ended.PLAYED
    assert game.winner is not None
    assert game.winner == match.winner
    assert match.game.scores[game.winner] >= 61
    assert game.record is not None
    assert game.record["games"][0]["seats"] == 3
    assert game.moves_0 + game.moves_2 == moves


@pytest.mark.parametrize("seats", [3, 4])
def test_a_whole_table_of_members_is_played_to_its_target(members: list[User], seats: int) -> None:
    game = full_table(members, seats, seed=seats)
    game = play_out(game, dict(enumerate(members[:seats])))
    match = load_online(game)
    scores = match.game.scores
    assert game.finished
    assert game.winner is not None
    assert game.winner == match.winner
    assert scores[game.winner] >= 61
    assert max(scores) == scores[game.winner]
    last = match.game.events[-1]
    assert last.type is EventType.WIN
    assert last.skunk in (None, Skunk.NONE)


def test_a_decision_out_of_turn_or_stale_changes_nothing(members: list[User]) -> None:
    game = full_table(members, 3, seed=2)
    users = dict(enumerate(members[:3]))
    # Everyone lays away; then the play waits for one seat.
    for seat in range(3):
        match = load_online(game)
        decision = stand_in_decision(match, ComputerPlayer("standard", seat), seat)
        game = online_decide(pk=game.pk, member=users[seat], moves=0, decision=decision)
    match = load_online(game)
    to_move = match.game.to_move
    assert to_move is not None
    assert match.game.phase is Phase.PLAY
    other = (to_move + 1) % 3
    card = match.game.hand(other)[0]
    version = game.version
    with pytest.raises(PlayError, match=f"Wait for {NAMES[to_move]} to play"):
        online_decide(
            pk=game.pk, member=users[other], moves=1, decision=Decision(Action.PLAY, (card,))
        )
    with pytest.raises(PlayError, match="out of date"):
        online_decide(
            pk=game.pk, member=users[to_move], moves=0, decision=Decision(Action.PLAY, (card,))
        )
    game.refresh_from_db()
    assert game.version == version


def test_seats_are_taken_once_and_by_one_member_each(members: list[User]) -> None:
    challenge = table(members, seats=3)
    table_sit(pk=challenge.pk, member=members[1], seat=1)
    with pytest.raises(PlayError, match="That seat has just been taken"):
        table_sit(pk=challenge.pk, member=members[2], seat=1)
    with pytest.raises(PlayError, match="You already sit at this table"):
        table_sit(pk=challenge.pk, member=members[1], seat=2)
    with pytest.raises(PlayError, match="it is yours"):
        table_sit(pk=challenge.pk, member=members[0], seat=2)
    with pytest.raises(PlayError, match="no such seat"):
        table_sit(pk=challenge.pk, member=members[2], seat=3)  # a table of three: seats 0–2
    assert list(challenge.sitting.values_list("seat", "member")) == [(1, members[1].pk)]
    # The database says the same: one member a seat, one seat a member.
    with pytest.raises(IntegrityError), transaction.atomic():
        ChallengeSeat.objects.create(challenge=challenge, seat=1, member=members[2])
    with pytest.raises(IntegrityError), transaction.atomic():
        ChallengeSeat.objects.create(challenge=challenge, seat=2, member=members[1])


def test_standing_up_frees_the_seat_and_a_closed_table_takes_nobody(members: list[User]) -> None:
    challenge = table(members, seats=3)
    table_sit(pk=challenge.pk, member=members[1], seat=1)
    with pytest.raises(PlayError, match="You do not sit at this table"):
        table_stand(pk=challenge.pk, member=members[2])
    table_stand(pk=challenge.pk, member=members[1])
    assert not challenge.sitting.exists()
    table_sit(pk=challenge.pk, member=members[2], seat=1)
    challenge_close(pk=challenge.pk, member=members[0])  # the challenger withdraws it
    with pytest.raises(PlayError, match="no longer open"):
        table_sit(pk=challenge.pk, member=members[3], seat=2)
    with pytest.raises(PlayError, match="no longer open"):
        table_begin(pk=challenge.pk, member=members[0])


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"best_of": 3}, "one game, never rated and without muggins"),
        ({"rated": True}, "one game, never rated and without muggins"),
        ({"muggins": True}, "one game, never rated and without muggins"),
        ({"seats": 5}, "two, three or four players"),
    ],
)
def test_what_a_table_is_not_is_refused(
    members: list[User], options: dict[str, object], message: str
) -> None:
    with pytest.raises(PlayError, match=message):
        challenge_create(challenger=members[0], **{"seats": 4, **options})  # type: ignore[arg-type]
    assert not Challenge.objects.exists()


def test_a_table_is_open_to_all_and_not_accepted_as_a_challenge(members: list[User]) -> None:
    with pytest.raises(PlayError, match="open in the lobby"):
        challenge_create(challenger=members[0], challenged=members[1], seats=3)
    challenge = table(members, seats=3)
    with pytest.raises(PlayError, match="Choose a free seat"):
        challenge_accept(pk=challenge.pk, member=members[1])


def test_a_short_game_of_two_is_one_unrated_game(members: list[User]) -> None:
    with pytest.raises(PlayError, match="61 or 91 is one game"):
        challenge_create(challenger=members[0], challenged=members[1], target=61, best_of=3)
    with pytest.raises(PlayError, match="61 or 91 is one game"):
        challenge_create(challenger=members[0], challenged=members[1], target=91, rated=True)
    challenge = challenge_create(challenger=members[0], challenged=members[1], target=61)
    game = challenge_accept(pk=challenge.pk, member=members[1], seed=4)
    assert game.target == 61
    assert load_online(game).game.target == 61


def test_a_member_who_leaves_is_replaced_by_the_computer(members: list[User]) -> None:
    game = full_table(members, 4, seed=9)
    game = table_leave(pk=game.pk, member=members[3])
    assert game.computers == "3"
    assert game.level == "standard"
    assert game.seat_of(members[3].pk) is None
    assert game.sat_at(members[3].pk) == 3
    assert "3" not in game.awaiting  # the computer laid away for them
    with pytest.raises(OnlineGame.DoesNotExist):  # their seat is no longer theirs to play
        table_leave(pk=game.pk, member=members[3])
    # Nobody resigns or claims at a table.
    with pytest.raises(PlayError, match="Nobody resigns or claims at a table"):
        online_resign(pk=game.pk, member=members[0])
    with pytest.raises(PlayError, match="Nobody resigns or claims at a table"):
        online_claim(pk=game.pk, member=members[0])
    users = {seat: members[seat] for seat in range(3)}
    game = play_out(game, users)
    assert game.ended == OnlineGame.Ended.PLAYED


def test_when_the_last_member_leaves_the_computers_finish_the_game(members: list[User]) -> None:
    challenge = table(members, seats=3, target=61)
    table_sit(pk=challenge.pk, member=members[1], seat=1)
    game = table_begin(pk=challenge.pk, member=members[0], seed=8)
    game = table_leave(pk=game.pk, member=members[0])
    assert not game.finished
    game = table_leave(pk=game.pk, member=members[1])
    assert game.finished
    assert game.ended == OnlineGame.Ended.PLAYED
    assert game.computers == "012"
    assert max(load_online(game).game.scores) >= 61


def test_a_silent_member_is_handed_to_the_computer_after_72_hours(members: list[User]) -> None:
    game = full_table(members, 3, seed=6)
    users = dict(enumerate(members[:3]))
    for seat in (0, 1):  # seat 2 never lays away
        match = load_online(game)
        decision = stand_in_decision(match, ComputerPlayer("standard", seat), seat)
        game = online_decide(pk=game.pk, member=users[seat], moves=0, decision=decision)
    with pytest.raises(PlayError, match="the computer may play for them"):
        table_hand_over(pk=game.pk, member=members[0])
    with pytest.raises(PlayError, match="waiting for you"):
        table_hand_over(pk=game.pk, member=members[2], now=game.last_move + CLAIM_AFTER)
    later = game.last_move + CLAIM_AFTER + datetime.timedelta(minutes=1)
    game = table_hand_over(pk=game.pk, member=members[1], now=later)
    assert game.computers == "2"
    assert not game.finished
    assert "2" not in game.awaiting


def test_the_database_refuses_a_table_that_breaks_the_rules(members: list[User]) -> None:
    game = full_table(members, 3, seed=1)
    for field, value in (("rated", True), ("best_of", 3), ("muggins", True), ("target", 100)):
        with pytest.raises(IntegrityError), transaction.atomic():
            OnlineGame.objects.filter(pk=game.pk).update(**{field: value})
    with pytest.raises(IntegrityError), transaction.atomic():
        OnlineGame.objects.filter(pk=game.pk).update(seat_2=members[0])  # one member twice
    with pytest.raises(IntegrityError), transaction.atomic():
        OnlineGame.objects.filter(pk=game.pk).update(computers="1", level="")
    challenge = table(members, seats=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        Challenge.objects.filter(pk=challenge.pk).update(challenged=members[1])


def test_a_game_of_two_stays_as_it_was(members: list[User]) -> None:
    challenge = challenge_create(challenger=members[0], challenged=members[1], best_of=3)
    game = challenge_accept(pk=challenge.pk, member=members[1], seed=7)
    assert (game.seats, game.target, game.level, game.computers) == (2, 121, "", "")
    assert (
        load_online(game).to_json()
        == Match.new(seed=7, best_of=3, players=(NAMES[0], NAMES[1])).to_json()
    )
