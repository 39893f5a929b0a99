"""Games between members through the services: challenges, each seat's decisions judged by
the engine, stale, doubled and out-of-turn posts that change nothing, whole matches
(loser deals next), resigning and claiming, and what each seat's table shows."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User

from play.board import face
from play.errors import PlayError
from play.models import Challenge, OnlineGame
from play.narration import Seats
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
from play.selectors import TableView, table_view
from play.services import Action, Decision, stand_in_decision
from scoring.players.strategy import ComputerPlayer
from scoring.rules.cards import Card
from scoring.rules.events import EventType, Phase
from scoring.rules.match import Match
from scoring.rules.replay import game_from_record
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def member(username: str, name: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=name)
    return user


@pytest.fixture
def anna() -> User:
    return member("anna", "Anna Ek")


@pytest.fixture
def bertil() -> User:
    return member("bertil", "Bertil Ås")


def started(anna: User, bertil: User, *, best_of: int = 1, seed: int = 7) -> OnlineGame:
    challenge = challenge_create(challenger=anna, challenged=bertil, best_of=best_of)
    return challenge_accept(pk=challenge.pk, member=bertil, seed=seed)


def due(match: Match) -> int:
    """The seat that decides next: the engine's ``to_move`` (while both lay away, the pone
    first); between games either may start the next, and seat 0 does."""
    return match.game.to_move or 0


def move(game: OnlineGame, user: User, decision: Decision) -> OnlineGame:
    seat = game.seat_of(user.pk)
    assert seat is not None
    return online_decide(pk=game.pk, member=user, moves=game.moves_of(seat), decision=decision)


def test_a_challenge_accepted_starts_a_game_cut_by_the_engine(anna: User, bertil: User) -> None:
    game = started(anna, bertil, best_of=3)
    challenge = Challenge.objects.get()
    assert challenge.status == Challenge.Status.ACCEPTED
    assert challenge.game == game
    assert (game.seat_0, game.seat_1) == (anna, bertil)
    match = load_online(game)
    assert match.players == ("Anna Ek", "Bertil Ås")
    assert match.best_of == 3
    assert match.game.events[0].type is EventType.CUT
    assert match.game.phase is Phase.DISCARD
    assert match.game.awaiting == {0, 1}


def test_an_open_challenge_is_accepted_by_any_member_but_its_maker(
    anna: User, bertil: User
) -> None:
    challenge = challenge_create(challenger=anna)
    with pytest.raises(PlayError, match="your own challenge"):
        challenge_accept(pk=challenge.pk, member=anna)
    game = challenge_accept(pk=challenge.pk, member=bertil)
    assert game.seat_1 == bertil
    assert Challenge.objects.get().challenged == bertil
    with pytest.raises(PlayError, match="no longer open"):
        challenge_accept(pk=challenge.pk, member=bertil)
    with pytest.raises(Challenge.DoesNotExist):  # taken: now Bertil's alone
        challenge_accept(pk=challenge.pk, member=member("cecilia", "Cecilia Ek"))


def test_challenges_that_cannot_be_made_or_taken(anna: User, bertil: User) -> None:
    with pytest.raises(PlayError, match="challenge yourself"):
        challenge_create(challenger=anna, challenged=anna)
    challenge = challenge_create(challenger=anna, challenged=bertil)
    with pytest.raises(PlayError, match="already challenged Bertil Ås"):
        challenge_create(challenger=anna, challenged=bertil)
    cecilia = member("cecilia", "Cecilia Ek")
    with pytest.raises(Challenge.DoesNotExist):
        challenge_accept(pk=challenge.pk, member=cecilia)  # not hers to take
    with pytest.raises(Challenge.DoesNotExist):
        challenge_close(pk=challenge.pk, member=cecilia)
    assert challenge_close(pk=challenge.pk, member=bertil).status == Challenge.Status.DECLINED
    with pytest.raises(PlayError, match="no longer open"):
        challenge_accept(pk=challenge.pk, member=bertil)
    assert not OnlineGame.objects.exists()
    again = challenge_create(challenger=anna, challenged=bertil)
    assert challenge_close(pk=again.pk, member=anna).status == Challenge.Status.WITHDRAWN


def test_both_lay_away_at_once_and_a_doubled_post_changes_nothing(anna: User, bertil: User) -> None:
    game = started(anna, bertil)
    match = load_online(game)
    anna_cards = tuple(match.game.hand(0)[:2])
    bertil_cards = tuple(match.game.hand(1)[:2])
    first = online_decide(
        pk=game.pk, member=anna, moves=0, decision=Decision(Action.DISCARD, anna_cards)
    )
    # Bertil's page was drawn before Anna laid away: his own count is still right.
    second = online_decide(
        pk=game.pk, member=bertil, moves=0, decision=Decision(Action.DISCARD, bertil_cards)
    )
    assert (second.moves_0, second.moves_1, second.version) == (1, 1, 2)
    state = second.state
    with pytest.raises(PlayError, match="already made"):
        online_decide(
            pk=game.pk, member=anna, moves=0, decision=Decision(Action.DISCARD, anna_cards)
        )
    second.refresh_from_db()
    assert second.state == state
    assert second.version == 2
    assert first.moves_0 == 1


def test_a_move_out_of_turn_or_of_a_card_not_held_is_refused(anna: User, bertil: User) -> None:
    game = started(anna, bertil)
    players = {0: ComputerPlayer("standard", 1), 1: ComputerPlayer("standard", 2)}
    users = {0: anna, 1: bertil}
    match = load_online(game)
    while match.game.phase is Phase.DISCARD:
        seat = due(match)
        game = move(game, users[seat], stand_in_decision(match, players[seat], seat))
        match = load_online(game)
    mover = match.game.to_move
    assert mover is not None
    waiting = 1 - mover
    with pytest.raises(PlayError, match="Wait for .* to play"):
        move(game, users[waiting], Decision(Action.PLAY, (match.game.hand(waiting)[0],)))
    not_held = match.game.hand(waiting)[0]
    with pytest.raises(PlayError, match="not in your hand"):
        move(game, users[mover], Decision(Action.PLAY, (not_held,)))
    stranger = member("cecilia", "Cecilia Ek")
    with pytest.raises(OnlineGame.DoesNotExist):
        online_decide(pk=game.pk, member=stranger, moves=0, decision=Decision(Action.NEXT))
    game.refresh_from_db()
    assert load_online(game).to_json() == match.to_json()


def test_a_card_not_held_is_refused_alike_wherever_it_is(anna: User, bertil: User) -> None:
    """The refusal says the card is not in your hand, never whether it is in the other's
    hand, the crib or the starter (that would tell a hidden card's place)."""
    game = started(anna, bertil)
    players = {0: ComputerPlayer("standard", 1), 1: ComputerPlayer("standard", 2)}
    users = {0: anna, 1: bertil}
    match = load_online(game)
    while match.game.phase is Phase.DISCARD:
        seat = due(match)
        game = move(game, users[seat], stand_in_decision(match, players[seat], seat))
        match = load_online(game)
    mover = match.game.to_move
    assert mover is not None
    assert match.game.starter is not None
    crib = [card for seat in (0, 1) for card in match.game.deals[-1]["discards"][seat]]
    elsewhere = {
        "the other's hand": match.game.hand(1 - mover)[0],
        "the crib": Card.parse(crib[0]),
        "the starter": match.game.starter,
    }
    said = {}
    for where, card in elsewhere.items():
        with pytest.raises(PlayError) as refused:
            move(game, users[mover], Decision(Action.PLAY, (card,)))
        said[where] = refused.value.message.replace(face(card).name, "CARD")
    assert set(said.values()) == {"CARD is not in your hand."}, said


def test_a_best_of_three_is_played_to_the_end_and_the_loser_deals_next(
    anna: User, bertil: User
) -> None:
    game = started(anna, bertil, best_of=3, seed=11)
    players = {0: ComputerPlayer("expert", 3), 1: ComputerPlayer("easy", 4)}
    users = {0: anna, 1: bertil}
    match = load_online(game)
    for _step in range(2000):
        if game.finished:
            break
        seat = due(match)
        game = move(game, users[seat], stand_in_decision(match, players[seat], seat))
        match = load_online(game)
    assert game.finished
    assert game.ended == OnlineGame.Ended.PLAYED
    assert game.winner == match.winner
    assert max(match.result.wins) == 2
    for before, after in zip(match.games, match.games[1:], strict=False):
        assert before.winner is not None
        assert after.first_dealer == 1 - before.winner  # the loser deals next
    assert game.record is not None
    assert game.record["wins"] == list(match.result.wins)
    assert len(game.record["games"]) == len(match.games)
    with pytest.raises(PlayError, match="over"):
        move(game, anna, Decision(Action.NEXT))


def test_a_member_resigns_the_match(anna: User, bertil: User) -> None:
    game = started(anna, bertil, best_of=3)
    game = online_resign(pk=game.pk, member=bertil)
    assert (game.finished, game.winner, game.ended) == (True, 0, OnlineGame.Ended.RESIGNED)
    assert game.record is not None
    assert (game.record["winner"], game.record["ended"]) == (0, "resigned")
    with pytest.raises(PlayError, match="over"):
        online_resign(pk=game.pk, member=anna)


def test_a_game_left_waiting_72_hours_may_be_claimed(anna: User, bertil: User) -> None:
    game = started(anna, bertil)
    match = load_online(game)
    game = move(game, anna, Decision(Action.DISCARD, tuple(match.game.hand(0)[:2])))
    later = game.last_move + CLAIM_AFTER
    with pytest.raises(PlayError, match="waiting for you"):
        online_claim(pk=game.pk, member=bertil, now=later)
    with pytest.raises(PlayError, match="if Bertil Ås has not moved by"):
        online_claim(pk=game.pk, member=anna, now=later - datetime.timedelta(minutes=1))
    game = online_claim(pk=game.pk, member=anna, now=later)
    assert (game.finished, game.winner, game.ended) == (True, 0, OnlineGame.Ended.CLAIMED)


def seen_by(table: TableView) -> set[str]:
    """Every card the table shows its reader, the cut for deal left out (another deck)."""
    codes = {held.face.code for held in table.hand} | {card.code for card in table.kept}
    codes |= {laid.card.code for laid in table.sequence + table.laid_before}
    lines = [line for line in table.news + table.log if line.type is not EventType.CUT]
    return codes | {card.code for line in lines for card in line.cards}


def test_each_seat_sees_its_own_cards_and_never_the_others(anna: User, bertil: User) -> None:
    game = started(anna, bertil)
    match = load_online(game)
    dealt = {seat: {str(card) for card in match.game.hand(seat)} for seat in (0, 1)}
    game = move(game, anna, Decision(Action.DISCARD, tuple(match.game.hand(0)[:2])))
    match = load_online(game)
    names = match.players
    for viewer in (0, 1):
        table = table_view(match, viewer=viewer, news_from=0, seats=Seats(viewer, names))
        assert seen_by(table) == dealt[viewer]  # Anna sees her two laid away in the news
        assert table.holds == (4, 6)
    spectator = table_view(match, viewer=None, news_from=0, seats=Seats(None, names))
    assert seen_by(spectator) == set()
    assert "Anna Ek lays away two cards." in [line.text for line in spectator.news]


def test_a_game_of_muggins_between_members_is_called_by_each_and_replays(
    anna: User, bertil: User
) -> None:
    challenge = challenge_create(challenger=anna, challenged=bertil, muggins=True)
    game = challenge_accept(pk=challenge.pk, member=bertil, seed=9)
    players = {0: ComputerPlayer("standard", 1), 1: ComputerPlayer("standard", 2)}
    users = {0: anna, 1: bertil}
    match = load_online(game)
    calls = 0
    while not game.finished:
        seat = due(match)
        calls += match.game.phase is Phase.MUGGINS
        game = move(game, users[seat], stand_in_decision(match, players[seat], seat))
        match = load_online(game)
    assert calls >= 3, "each count was checked by the other player"
    assert game.record is not None
    (record,) = game.record["games"]
    assert record["callers"] == [0, 1]
    assert game_from_record(record).scores == tuple(record["final_scores"])
