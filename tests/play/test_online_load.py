"""A game between members is replayed once, not at every request: a move and a poll replay
as many of the engine's decisions at deal 20 of a long match as at deal 1 (none, when the
worker served the game before), and a match kept from another game, a move rolled back or
a version behind is never taken for the row's. A move and a poll ask the database as
many queries at deal 20 as at deal 1, and a move reads its game once (the locked read:
its answer is drawn from the row it saved)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from play import online
from play.models import OnlineGame
from play.online import forget_online, load_online, online_decide, online_start, read_online
from play.services import Decision, stand_in_decision, take
from scoring.players.strategy import ComputerPlayer
from scoring.rules.game import Game
from scoring.rules.match import Match
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
HTMX = {"HX-Request": "true"}


def member(username: str, name: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=name, club="Umeå")
    return user


@pytest.fixture
def game() -> OnlineGame:
    forget_online()
    players = (member("anna", "Anna Ek"), member("bertil", "Bertil Ås"))
    return online_start(players=players, best_of=7, seed=21)


@pytest.fixture
def replayed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many saved decisions the engine replays (``Game.apply``) while a test counts."""
    count = [0]
    apply = Game.apply

    def counted(self: Game, decision: Any) -> Any:
        count[0] += 1
        return apply(self, decision)

    monkeypatch.setattr(Game, "apply", counted)
    return count


def deals(game: OnlineGame) -> int:
    """The deals begun in the whole match."""
    return sum(played.deal_number for played in read_online(game).games)


def advance(game: OnlineGame, *, to_deal: int) -> OnlineGame:
    """Both members play as the computer would until deal ``to_deal`` is being discarded."""
    stand_ins = {0: ComputerPlayer("standard", 1), 1: ComputerPlayer("standard", 2)}
    users = dict(enumerate(game.pair))
    while True:
        match = read_online(game)
        begun = sum(played.deal_number for played in match.games)
        if begun >= to_deal and match.game.phase.value == "discard" and 0 in match.game.awaiting:
            return game
        seat = match.game.to_move if match.game.to_move is not None else 0
        decision = stand_in_decision(match, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )


def client_of(user: User) -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    client.force_login(user)
    return client


def a_move_and_a_poll(game: OnlineGame, replayed: list[int]) -> tuple[int, int]:
    """The decisions replayed by seat 0's discard (posted as htmx does) and by seat 1's
    poll that brings it."""
    match = read_online(game)
    cards = stand_in_decision(match, ComputerPlayer("standard", 1), 0).cards
    replayed[0] = 0
    answer = client_of(game.seat_0).post(
        reverse("play:online_move", args=[game.pk]),
        {"version": game.moves_0, "action": "discard", "cards": [str(card) for card in cards]},
        headers=HTMX,
    )
    assert answer.status_code == 200
    assert OnlineGame.objects.get(pk=game.pk).version == game.version + 1  # the move was taken
    move = replayed[0]
    replayed[0] = 0
    poll = client_of(game.pair[1]).get(reverse("play:online_table", args=[game.pk]), headers=HTMX)
    assert poll.status_code == 200
    return move, replayed[0]


def test_a_move_and_a_poll_replay_as_much_at_deal_20_as_at_deal_1(
    game: OnlineGame, replayed: list[int]
) -> None:
    at_deal_1 = a_move_and_a_poll(game, replayed)
    game = advance(OnlineGame.objects.get(pk=game.pk), to_deal=20)
    assert deals(game) == 20
    at_deal_20 = a_move_and_a_poll(game, replayed)
    assert at_deal_20 == at_deal_1 == (0, 0)


def test_another_worker_takes_only_the_decisions_saved_since_it_last_served(
    game: OnlineGame, replayed: list[int]
) -> None:
    game = advance(game, to_deal=3)
    behind, version = Match.from_json(game.state), game.version
    taken_then = len(game.state["games"][-1]["decisions"])
    game = advance(game, to_deal=4)
    forget_online()  # this worker served the game at ``version``, not since
    online._KEPT.matches[game.pk] = (version, behind)
    replayed[0] = 0
    assert load_online(game).to_json() == game.state
    taken_since = len(game.state["games"][-1]["decisions"]) - taken_then
    assert 0 < replayed[0] == taken_since < 20


@pytest.mark.parametrize(
    "kept",
    [
        pytest.param(lambda game: Match.new(seed=99, best_of=7, players=("A", "B")), id="foreign"),
        pytest.param(lambda game: _one_move_on(game), id="rolled-back"),
    ],
)
def test_a_match_kept_that_is_not_the_rows_is_never_used(
    game: OnlineGame, kept: Callable[[OnlineGame], Match]
) -> None:
    online._KEPT.matches[game.pk] = (game.version, kept(game))
    assert load_online(game).to_json() == game.state


def _one_move_on(game: OnlineGame) -> Match:
    """The match one decision ahead of the row, as a move whose transaction was rolled
    back leaves it."""
    match = Match.from_json(game.state)
    match.game.apply({"player": 0, "discard": [str(c) for c in match.game.hand(0)[:2]]})
    return match


def test_a_refused_move_leaves_the_game_as_it_was(game: OnlineGame) -> None:
    from play.errors import PlayError
    from play.services import Action

    match = load_online(game)
    not_held = next(
        card for card in match.game.hand(1) if card not in match.game.hand(0)
    )  # the other player's card
    with pytest.raises(PlayError):
        online_decide(
            pk=game.pk,
            member=game.seat_0,
            moves=0,
            decision=Decision(Action.DISCARD, (not_held, match.game.hand(0)[0])),
        )
    assert load_online(OnlineGame.objects.get(pk=game.pk)).to_json() == game.state


def test_two_loads_never_share_one_match(game: OnlineGame) -> None:
    """A caller may try a decision on a match of its own without touching anyone else's."""
    read_online(game)  # kept, as after a poll
    taken, other = load_online(game), load_online(game)
    assert taken is not other
    decision = stand_in_decision(taken, ComputerPlayer("standard", 1), 0)
    take(taken, decision, seat=0, opponent="")
    assert other.to_json() == game.state
    assert load_online(game).to_json() == game.state  # the one tried on is not kept


def reads_of_the_game(queries: CaptureQueriesContext) -> int:
    return sum(
        1
        for query in queries.captured_queries
        if query["sql"].startswith("SELECT") and 'FROM "play_onlinegame"' in query["sql"]
    )


def queries_of_a_move_and_a_poll(game: OnlineGame) -> tuple[int, int, int]:
    """The queries of seat 0's discard (posted as htmx does), the reads of the game among
    them, and the queries of seat 1's poll that brings it."""
    cards = stand_in_decision(read_online(game), ComputerPlayer("standard", 1), 0).cards
    mover, poller = client_of(game.seat_0), client_of(game.pair[1])
    with CaptureQueriesContext(connection) as move:
        answer = mover.post(
            reverse("play:online_move", args=[game.pk]),
            {"version": game.moves_0, "action": "discard", "cards": [str(card) for card in cards]},
            headers=HTMX,
        )
    assert answer.status_code == 200
    assert b"play-error" not in answer.content
    assert OnlineGame.objects.get(pk=game.pk).version == game.version + 1  # the move was taken
    with CaptureQueriesContext(connection) as poll:
        table = poller.get(reverse("play:online_table", args=[game.pk]), headers=HTMX)
    assert table.status_code == 200
    return len(move), reads_of_the_game(move), len(poll)


def test_a_move_reads_its_game_once_and_asks_as_much_at_deal_20_as_at_deal_1(
    game: OnlineGame,
) -> None:
    at_deal_1 = queries_of_a_move_and_a_poll(game)
    game = advance(OnlineGame.objects.get(pk=game.pk), to_deal=20)
    at_deal_20 = queries_of_a_move_and_a_poll(game)
    assert at_deal_20 == at_deal_1
    assert at_deal_1[1] == 1  # the locked read; the answer is drawn from the row saved


def test_a_moves_answer_is_the_table_its_player_would_get_afresh(game: OnlineGame) -> None:
    """Drawn from the row the move saved, the answer is the table a fresh read draws."""
    game = advance(game, to_deal=3)
    cards = stand_in_decision(read_online(game), ComputerPlayer("standard", 1), 0).cards
    mover = client_of(game.seat_0)
    answer = mover.post(
        reverse("play:online_move", args=[game.pk]),
        {"version": game.moves_0, "action": "discard", "cards": [str(card) for card in cards]},
        headers=HTMX,
    )
    forget_online()  # another worker, which replays the match from the row
    afresh = mover.get(reverse("play:online_table", args=[game.pk]), headers=HTMX)
    assert answer.status_code == afresh.status_code == 200
    assert without_csrf(answer.content.decode()) == without_csrf(afresh.content.decode())


def without_csrf(page: str) -> str:
    """The page without its CSRF tokens (masked anew at every request)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)
