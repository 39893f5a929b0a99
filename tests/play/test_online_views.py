"""The pages of games between members: the lobby and its challenges, a game's page for each
of its two players (and nobody else), its poll (a 304 while nothing changed), moves with
and without htmx, refusals that change nothing, resigning, and the home page's summary."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from play.board import face
from play.models import Challenge, OnlineGame
from play.online import challenge_accept, challenge_create, load_online, online_decide
from play.services import stand_in_decision
from scoring.players.strategy import ComputerPlayer
from scoring.rules.events import EventType, Phase
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
HTMX = {"HX-Request": "true"}


def member(username: str, name: str) -> User:
    user = UserFactory.create(username=username)
    PlayerFactory.create(user=user, name=name, club="Umeå")
    return user


@pytest.fixture
def anna() -> User:
    return member("anna", "Anna Ek")


@pytest.fixture
def bertil() -> User:
    return member("bertil", "Bertil Ås")


def logged_in(user: User) -> Client:
    browser = Client()
    browser.cookies["django_language"] = "en"
    browser.force_login(user)
    return browser


def started(anna: User, bertil: User, *, best_of: int = 1) -> OnlineGame:
    challenge = challenge_create(challenger=anna, challenged=bertil, best_of=best_of)
    return challenge_accept(pk=challenge.pk, member=bertil, seed=5)


def card_names(game: OnlineGame, seat: int) -> set[str]:
    """The names of the cards ``seat`` holds, but those of the cut for deal (another deck,
    shown to both)."""
    events = load_online(game).game.events
    cut = {card for event in events if event.type is EventType.CUT for card in event.cards}
    return {face(card).name for card in load_online(game).game.hand(seat) if card not in cut}


def test_the_lobby_is_for_members(client: Client, anna: User) -> None:
    response = client.get(reverse("play:lobby"))
    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("login"))
    assert logged_in(anna).get(reverse("play:lobby")).status_code == 200


def test_a_challenge_is_made_seen_accepted_and_the_game_opens(anna: User, bertil: User) -> None:
    response = logged_in(anna).post(
        reverse("play:challenge"), {"opponent": bertil.pk, "best_of": "3"}
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.challenged, challenge.best_of) == (bertil, 3)
    bertils = logged_in(bertil)
    home = bertils.get(reverse("home")).content.decode()
    assert "Anna Ek to Bertil Ås: a match, best of three" in home
    lobby = bertils.get(reverse("play:lobby")).content.decode()
    assert "Challenges to you" in lobby
    assert reverse("play:challenge_answer", args=[challenge.pk]) in lobby
    response = bertils.post(
        reverse("play:challenge_answer", args=[challenge.pk]), {"answer": "accept"}
    )
    game = OnlineGame.objects.get()
    assert response.headers["Location"] == reverse("play:online_game", args=[game.pk])
    page = bertils.get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert "Match against Anna Ek, best of 3" in page
    assert "Your hand" in page
    annas_lobby = logged_in(anna).get(reverse("play:lobby")).content.decode()
    assert "Match against Bertil Ås, best of 3" in annas_lobby


def test_a_challenge_to_yourself_is_refused_with_a_message(anna: User) -> None:
    response = logged_in(anna).post(reverse("play:challenge"), {"opponent": "", "best_of": "2"})
    assert response.status_code == 400
    assert not Challenge.objects.exists()


def test_each_player_sees_their_own_hand_only_and_strangers_nothing(
    anna: User, bertil: User
) -> None:
    game = started(anna, bertil)
    address = reverse("play:online_game", args=[game.pk])
    for user, seat in ((anna, 0), (bertil, 1)):
        page = logged_in(user).get(address).content.decode()
        assert all(f'aria-label="{name}"' in page for name in card_names(game, seat))
        assert not any(f'aria-label="{name}"' in page for name in card_names(game, 1 - seat))
    stranger = logged_in(member("cecilia", "Cecilia Ek"))
    for name in ("play:online_game", "play:online_table"):
        assert stranger.get(reverse(name, args=[game.pk])).status_code == 404
    move = {"version": 0, "action": "next"}
    assert stranger.post(reverse("play:online_move", args=[game.pk]), move).status_code == 404


def test_the_poll_is_a_304_until_the_other_player_moves(anna: User, bertil: User) -> None:
    game = started(anna, bertil)
    annas, bertils = logged_in(anna), logged_in(bertil)
    page = annas.get(reverse("play:online_game", args=[game.pk]))
    assert page["Cache-Control"] == "no-store"
    etag = page.context["etag"]
    assert f"{etag}" in page.content.decode().replace("\\u0022", '"')
    poll = reverse("play:online_table", args=[game.pk])
    unchanged = annas.get(poll, headers={"If-None-Match": etag, **HTMX})
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    bertil_cards = [str(card) for card in load_online(game).game.hand(1)[:2]]
    bertils.post(
        reverse("play:online_move", args=[game.pk]),
        {"version": 0, "action": "discard", "cards": bertil_cards},
    )
    changed = annas.get(poll, headers={"If-None-Match": etag, **HTMX})
    assert changed.status_code == 200
    assert "Bertil Ås lays away two cards." in changed.content.decode()
    assert changed.context["etag"] != etag


def test_moves_with_and_without_htmx_and_a_refusal_that_changes_nothing(
    anna: User, bertil: User
) -> None:
    game = started(anna, bertil)
    annas = logged_in(anna)
    address = reverse("play:online_move", args=[game.pk])
    cards = [str(card) for card in load_online(game).game.hand(0)[:2]]
    response = annas.post(address, {"version": 0, "action": "discard", "cards": cards})
    assert response.status_code == 302
    again = annas.post(address, {"version": 0, "action": "discard", "cards": cards}, headers=HTMX)
    assert again.status_code == 200
    assert "already made" in again.content.decode()
    game.refresh_from_db()
    assert (game.moves_0, game.version) == (1, 1)
    page = annas.get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert "Waiting for Bertil Ås." in page
    not_now = annas.post(address, {"version": 1, "action": "play", "card": cards[0]})
    assert [str(m) for m in get_messages(not_now.wsgi_request)] == [
        "It is time to lay away two cards to the crib."
    ]


def test_a_player_resigns_from_the_page(anna: User, bertil: User) -> None:
    game = started(anna, bertil, best_of=3)
    annas = logged_in(anna)
    response = annas.post(reverse("play:online_end", args=[game.pk]), {"end": "resign"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.finished, game.winner) == (True, 1)
    page = annas.get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert "Bertil Ås won the match." in page
    assert "You resigned." in page
    assert "hx-trigger" not in page  # a finished game is not polled
    bertils_page = logged_in(bertil).get(reverse("play:online_game", args=[game.pk]))
    assert "Anna Ek resigned." in bertils_page.content.decode()


def test_a_finished_game_is_replayed_step_by_step_for_its_players(anna: User, bertil: User) -> None:
    from play.online import online_decide
    from play.services import stand_in_decision
    from scoring.players.strategy import ComputerPlayer

    game = started(anna, bertil)
    members, stand_ins = (anna, bertil), (ComputerPlayer("easy", 1), ComputerPlayer("easy", 2))
    while not game.finished:
        match = load_online(game)
        seat = match.game.to_move
        assert seat is not None  # a single game: over once its winner is known
        decision = stand_in_decision(match, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=members[seat], moves=game.moves_of(seat), decision=decision
        )
    address = reverse("play:online_replay", args=[game.pk])
    page = logged_in(bertil).get(address + "?game=1&step=0").content.decode()
    assert "Cut for deal: Anna Ek, then Bertil Ås" in page
    assert "Replay of game 1" in page
    last = logged_in(anna).get(address + "?game=1&step=999")
    assert last.status_code == 404
    end = logged_in(anna).get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert f'href="{address}?game=1"' in end
    stranger = logged_in(member("cecilia", "Cecilia Ek"))
    assert stranger.get(address).status_code == 404


def test_with_muggins_the_opponent_checks_each_count_and_takes_what_was_missed(
    anna: User, bertil: User
) -> None:
    """Between members muggins is called, not taken for the caller: the opponent sees the
    hand and the claim, and may let it stand or take up to the points missed."""
    challenge = challenge_create(challenger=anna, challenged=bertil, muggins=True)
    game = challenge_accept(pk=challenge.pk, member=bertil, seed=6)
    users = {0: anna, 1: bertil}
    stand_ins = {seat: ComputerPlayer("standard", seat) for seat in (0, 1)}
    match = load_online(game)
    while match.game.phase is not Phase.COUNT:  # to the first show
        seat = match.game.to_move or 0
        decision = stand_in_decision(match, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
        match = load_online(game)
    counting = match.game.to_move
    assert counting is not None
    counter, caller = logged_in(users[counting]), logged_in(users[1 - counting])
    counter_name = "Anna Ek" if counting == 0 else "Bertil Ås"
    worth = match.game.showing_score
    assert worth is not None
    assert worth.total >= 2, "the first hand shown is worth points"
    address = reverse("play:online_move", args=[game.pk])
    counter.post(address, {"version": game.moves_of(counting), "action": "count", "points": 0})
    game.refresh_from_db()
    scores = load_online(game).game.scores

    checking = caller.get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert f"Check the count of {counter_name}" in checking
    assert f"{counter_name} claims 0 points." in checking
    assert 'name="action" value="muggins"' in checking
    waiting = counter.get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert "is checking your count." in waiting
    assert 'value="muggins"' not in waiting
    for page in (checking, waiting):  # the caller decides blind: nothing the engine counted
        assert 'class="breakdown"' not in page
        assert 'class="missed"' not in page
        assert "the count is being checked." in page
    moves = game.moves_of(1 - counting)
    caller.post(address, {"version": moves, "action": "muggins", "points": worth.total})
    game.refresh_from_db()
    after = load_online(game).game
    assert after.scores[1 - counting] >= scores[1 - counting] + worth.total
    told = counter.get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert f"claims the {worth.total} points you missed." in told
    assert 'class="breakdown"' in told
    assert f"You claimed 0 and missed {worth.total} points" in told
    seen = caller.get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert f"{counter_name} claimed 0 and missed {worth.total} points" in seen
    assert 'class="breakdown"' in seen


def test_a_muggins_call_above_the_points_missed_is_final_and_wins_nothing(
    anna: User, bertil: User
) -> None:
    """Each call is made once: stepping down from 29 would tell the caller the worth."""
    challenge = challenge_create(challenger=anna, challenged=bertil, muggins=True)
    game = challenge_accept(pk=challenge.pk, member=bertil, seed=6)
    users = {0: anna, 1: bertil}
    stand_ins = {seat: ComputerPlayer("standard", seat) for seat in (0, 1)}
    match = load_online(game)
    while match.game.phase is not Phase.COUNT:
        seat = match.game.to_move or 0
        decision = stand_in_decision(match, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
        match = load_online(game)
    counting = match.game.to_move
    assert counting is not None
    counter, caller = logged_in(users[counting]), logged_in(users[1 - counting])
    names = ("Anna Ek", "Bertil Ås")
    worth = match.game.showing_score
    assert worth is not None
    address = reverse("play:online_move", args=[game.pk])
    counter.post(address, {"version": game.moves_of(counting), "action": "count", "points": 0})
    game.refresh_from_db()
    scores = load_online(game).game.scores
    moves = game.moves_of(1 - counting)
    over = caller.post(address, {"version": moves, "action": "muggins", "points": worth.total + 1})
    assert [str(m) for m in get_messages(over.wsgi_request)] == []
    game.refresh_from_db()
    assert load_online(game).game.scores == scores
    assert game.moves_of(1 - counting) == moves + 1
    again = caller.post(address, {"version": moves + 1, "action": "muggins", "points": worth.total})
    assert len(list(get_messages(again.wsgi_request))) == 1  # no second call
    game.refresh_from_db()
    assert load_online(game).game.scores == scores
    seen = caller.get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert (
        f"You called muggins for {worth.total + 1} points, but fewer were missed: "
        "the call wins nothing."
    ) in seen
    assert 'class="breakdown"' in seen
    told = counter.get(reverse("play:online_game", args=[game.pk])).content.decode()
    assert (
        f"{names[1 - counting]} called muggins for {worth.total + 1} points, but you missed "
        "fewer: the call wins nothing."
    ) in told


@pytest.mark.parametrize("ending", ["bogus", ""])
def test_ending_a_match_other_than_by_resigning_or_claiming_is_refused(
    anna: User, bertil: User, ending: str
) -> None:
    game = started(anna, bertil, best_of=3)
    annas = logged_in(anna)
    address = reverse("play:online_end", args=[game.pk])
    response = annas.post(address, {"end": ending})
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Choose whether to resign or to claim the match."
    ]
    with_htmx = annas.post(address, {"end": ending}, headers=HTMX)
    assert "Choose whether to resign or to claim the match." in with_htmx.content.decode()
    game.refresh_from_db()
    assert (game.finished, game.winner, game.version) == (False, None, 0)


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_lobby_offers_the_members_who_can_play_and_nobody_else(
    anna: User, bertil: User, language: str
) -> None:
    from tests.factories import OrganiserFactory

    OrganiserFactory.create(username="kansliet")  # the organisers' staff account
    left = member("greta", "Greta Lind")
    left.player.active = False
    left.player.save()
    closed = member("dan", "Dan Berg")
    closed.is_active = False
    closed.save()
    browser = logged_in(anna)
    browser.cookies["django_language"] = language
    lobby = browser.get(reverse("play:lobby")).content.decode()
    offered = re.findall(r'<option value="(\d+)"', lobby)
    assert offered == [str(bertil.pk)]
    assert "Bertil Ås (Umeå)" in lobby
    assert "kansliet" not in lobby
    refused = browser.post(reverse("play:challenge"), {"opponent": left.pk, "best_of": "1"})
    assert not Challenge.objects.exists()
    assert refused.status_code == 400  # the form again, with its error


@pytest.mark.parametrize(
    ("language", "game_words", "match_words"),
    [
        (
            "sv",
            ("Du vann partiet.", "Slutställning: du "),
            ("Du vann matchen.", "Slutställning i sista partiet"),
        ),
        (
            "en",
            ("You won the game.", "Final score: you "),
            ("You won the match.", "Final score of the last game"),
        ),
    ],
)
def test_a_one_game_challenge_ends_with_the_game_won_not_a_match(
    anna: User,
    bertil: User,
    language: str,
    game_words: tuple[str, ...],
    match_words: tuple[str, ...],
) -> None:
    game = started(anna, bertil)  # one game
    stand_ins = {0: ComputerPlayer("expert", 1), 1: ComputerPlayer("easy", 2)}
    users = {0: anna, 1: bertil}
    while not game.finished:
        match = load_online(game)
        seat = match.game.to_move or 0
        decision = stand_in_decision(match, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
    winner = users[game.winner or 0]
    browser = logged_in(winner)
    browser.cookies["django_language"] = language
    page = browser.get(reverse("play:online_game", args=[game.pk])).content.decode()
    for words in game_words:
        assert words in page, words
    for words in match_words:
        assert words not in page, words
