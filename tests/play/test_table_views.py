"""The pages of a table of three or four members: made from the lobby's form, its seats
taken and left there, begun by its maker, its page for each member at it and for a
member looking on, the moves posted with and without htmx, and leaving the table; what
the form refuses, with a message and nothing saved."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from play import tables
from play.models import Challenge, OnlineGame
from play.online import load_online, online_decide
from play.services import stand_in_decision
from play.tables import table_begin, table_sit
from scoring.players.strategy import ComputerPlayer
from scoring.rules.events import Phase
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
HTMX = {"HX-Request": "true"}
NAMES = ("Anna Ek", "Bertil Ås", "Cecilia Berg", "David Dahl", "Eva Ek")


def member(number: int) -> User:
    user = UserFactory.create(username=f"m{number}")
    PlayerFactory.create(user=user, name=NAMES[number], club="Umeå")
    return user


@pytest.fixture
def members() -> list[User]:
    return [member(number) for number in range(5)]


def logged_in(user: User, language: str = "en") -> Client:
    browser = Client()
    browser.cookies["django_language"] = language
    browser.force_login(user)
    return browser


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_a_table_is_made_in_the_lobby_and_members_sit_down(members: list[User]) -> None:
    anna, bertil, cecilia = members[:3]
    response = logged_in(anna).post(
        reverse("play:challenge"), {"seats": "4", "target": "91", "best_of": "1", "level": "expert"}
    )
    assert response.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.seats, challenge.target, challenge.level) == (4, 91, "expert")
    assert challenge.challenged is None
    assert not challenge.rated
    lobby = text_of(logged_in(bertil).get(reverse("play:lobby")).content.decode())
    assert "Anna Ek's table of four, two partnerships, a game to 91" in lobby
    assert "the computer plays a free seat at expert level" in lobby
    assert "Anna Ek's partner: free" in lobby
    # Bertil sits down across from Anna; the seat is his in everyone's lobby.
    response = logged_in(bertil).post(
        reverse("play:challenge_answer", args=[challenge.pk]), {"answer": "sit", "seat": "2"}
    )
    assert response.status_code == 302
    lobby = text_of(logged_in(cecilia).get(reverse("play:lobby")).content.decode())
    assert "Anna Ek's partner: Bertil Ås" in lobby
    assert "On Anna Ek's left: free" in lobby
    own = text_of(logged_in(anna).get(reverse("play:lobby")).content.decode())
    assert "Begin: the computer takes the free seats" in own
    # Anna begins it: the computer takes seats 1 and 3; the page is the table's.
    response = logged_in(anna).post(
        reverse("play:challenge_answer", args=[challenge.pk]), {"answer": "begin"}
    )
    game = OnlineGame.objects.get()
    assert response.headers["Location"] == reverse("play:online_game", args=[game.pk])
    assert game.computers == "13"
    assert game.level == "expert"
    assert game.target == 91
    page = text_of(
        logged_in(bertil).get(reverse("play:online_game", args=[game.pk])).content.decode()
    )
    assert "Table of four: Anna Ek and Bertil Ås against Computer 1 and Computer 2" in page
    assert "The computer plays for Computer 1, Computer 2, at expert level." in page
    assert "Lay away one card" in page


@pytest.mark.parametrize(
    ("post", "field_error"),
    [
        ({"seats": "3", "best_of": "3"}, "A match of three games is played by two to 121"),
        ({"seats": "4", "muggins": "on", "best_of": "1"}, "Muggins is played by two only"),
        (
            {"seats": "3", "rated": "on", "best_of": "1"},
            "Only a game or match of two to 121 is rated",
        ),
        (
            {"seats": "2", "target": "61", "rated": "on", "best_of": "1"},
            "Only a game or match of two to 121 is rated",
        ),
        ({"seats": "5", "best_of": "1"}, "A table has two, three or four players."),
    ],
)
def test_the_form_refuses_what_a_table_is_not(
    members: list[User], post: dict[str, str], field_error: str
) -> None:
    response = logged_in(members[0]).post(reverse("play:challenge"), post)
    assert response.status_code == 400
    assert field_error in response.content.decode()
    assert not Challenge.objects.exists()


def test_a_table_to_a_member_is_refused_with_a_message(members: list[User]) -> None:
    response = logged_in(members[0]).post(
        reverse("play:challenge"), {"seats": "3", "best_of": "1", "opponent": members[1].pk}
    )
    assert response.status_code == 400
    assert "members choose their seats" in response.content.decode()
    assert not Challenge.objects.exists()


def test_a_taken_seat_says_so_and_standing_up_frees_it(members: list[User]) -> None:
    anna, bertil, cecilia = members[:3]
    challenge = Challenge.objects.create(challenger=anna, seats=3, target=61)
    answer = reverse("play:challenge_answer", args=[challenge.pk])
    logged_in(bertil).post(answer, {"answer": "sit", "seat": "1"})
    response = logged_in(cecilia).post(answer, {"answer": "sit", "seat": "1"}, follow=True)
    assert "That seat has just been taken" in response.content.decode()
    response = logged_in(cecilia).post(answer, {"answer": "sit", "seat": "x"}, follow=True)
    assert "This table has no such seat." in response.content.decode()
    logged_in(bertil).post(answer, {"answer": "stand"})
    assert not challenge.sitting.exists()
    # The last free seat taken begins the game, and its taker is shown to the table.
    logged_in(bertil).post(answer, {"answer": "sit", "seat": "1"})
    response = logged_in(cecilia).post(answer, {"answer": "sit", "seat": "2"})
    game = OnlineGame.objects.get()
    assert response.headers["Location"] == reverse("play:online_game", args=[game.pk])
    assert game.computers == ""
    assert game.seats == 3


def started(members: list[User], seats: int = 3) -> OnlineGame:
    challenge = Challenge.objects.create(challenger=members[0], seats=seats, target=61)
    game = None
    for seat in range(1, seats):
        game = table_sit(pk=challenge.pk, member=members[seat], seat=seat, seed=17)
    assert game is not None
    return game


def test_each_member_at_the_table_sees_their_own_hand_and_nobody_elses(members: list[User]) -> None:
    game = started(members)
    match = load_online(game)
    url = reverse("play:online_game", args=[game.pk])
    for seat in range(3):
        page = logged_in(members[seat]).get(url).content.decode()
        shown = set(re.findall(r'name="cards" value="(\w+)"', page))
        assert shown == {str(card) for card in match.game.hand(seat)}
        for other in {0, 1, 2} - {seat}:
            assert NAMES[other] in page
    # A member not at the table looks on: no hand, every seat by name, no form to move.
    page = logged_in(members[4]).get(url).content.decode()
    assert 'name="cards"' not in page
    assert "You are watching" in page
    assert 'name="end"' not in page
    # A visitor is sent to log in.
    response = Client().get(url)
    assert response.status_code == 302
    assert reverse("login") in response.headers["Location"]


def test_moves_are_posted_with_and_without_htmx(members: list[User]) -> None:
    game = started(members)
    move = reverse("play:online_move", args=[game.pk])
    match = load_online(game)
    discard = stand_in_decision(match, ComputerPlayer("standard", 0), 0)
    response = logged_in(members[0]).post(
        move,
        {"version": "0", "action": "discard", "cards": [str(discard.cards[0])]},
        headers=HTMX,
    )
    assert response.status_code == 200
    assert 'id="game"' in response.content.decode()
    assert "Waiting for" in text_of(response.content.decode())
    discard = stand_in_decision(load_online(game), ComputerPlayer("standard", 1), 1)
    response = logged_in(members[1]).post(
        move, {"version": "0", "action": "discard", "cards": [str(discard.cards[0])]}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert (game.moves_0, game.moves_1, game.awaiting) == (1, 1, "2")
    # A doubled post is refused with a message, and nothing changes.
    response = logged_in(members[1]).post(
        move, {"version": "0", "action": "discard", "cards": [str(discard.cards[0])]}, headers=HTMX
    )
    assert "out of date" in response.content.decode()
    game.refresh_from_db()
    assert game.moves_1 == 1


def test_leaving_the_table_gives_the_seat_to_the_computer(members: list[User]) -> None:
    game = started(members, seats=4)
    end = reverse("play:online_end", args=[game.pk])
    response = logged_in(members[2]).post(end, {"end": "leave"}, follow=True)
    page = text_of(response.content.decode())
    game.refresh_from_db()
    assert game.computers == "2"
    assert "Left the table: Cecilia Berg." in page
    assert "You are watching" in page
    # Resigning is not for a table: the member is told what to do instead.
    response = logged_in(members[0]).post(end, {"end": "resign"}, follow=True)
    assert "whoever leaves it, the computer plays their seat" in response.content.decode()
    game.refresh_from_db()
    assert not game.finished


def test_the_swedish_table_page_names_every_seat(members: list[User]) -> None:
    challenge = Challenge.objects.create(challenger=members[0], seats=4, target=121)
    table_sit(pk=challenge.pk, member=members[1], seat=2)
    game = table_begin(pk=challenge.pk, member=members[0], seed=2)
    page = text_of(
        logged_in(members[1], "sv")
        .get(reverse("play:online_game", args=[game.pk]))
        .content.decode()
    )
    assert "Bord för fyra: Anna Ek och Bertil Ås mot Dator 1 och Dator 2" in page
    assert "Du och Anna Ek" in page
    assert load_online(game).game.phase is Phase.DISCARD


def test_a_finished_table_is_replayed_and_reviewed_seat_by_seat(members: list[User]) -> None:
    """The replay and the review of a finished table name every seat; each member's
    figures reach their accuracy, whichever seat they sat in."""
    from play.reviews import member_accuracy

    challenge = Challenge.objects.create(challenger=members[0], seats=4, target=61)
    table_sit(pk=challenge.pk, member=members[1], seat=3)
    game = table_begin(pk=challenge.pk, member=members[0], seed=12)
    users = {0: members[0], 3: members[1]}
    while not game.finished:
        match = load_online(game)
        seat = sorted(match.game.awaiting, key=lambda s: s != match.game.to_move)[0]
        decision = stand_in_decision(match, ComputerPlayer("standard", seat), seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
    replay = logged_in(members[1]).get(reverse("play:online_replay", args=[game.pk]) + "?step=3")
    assert replay.status_code == 200
    assert "Computer 1" in text_of(replay.content.decode())
    review = text_of(
        logged_in(members[1]).get(reverse("play:online_review", args=[game.pk])).content.decode()
    )
    assert NAMES[0] in review
    assert NAMES[1] in review
    # The stored review has a row for each member's seat: seat 3's is Bertil's.
    anna, bertil = member_accuracy(members[0]), member_accuracy(members[1])
    assert [point.game_id for point in anna] == [game.pk]
    assert [point.game_id for point in bertil] == [game.pk]
    row = game.review
    assert (row.member_0, row.member_1, row.member_2, row.member_3) == (
        members[0], None, None, members[1],
    )  # fmt: skip
    assert row.decisions_3 > 0
    assert bertil[0].accuracy == row.accuracy_3


def test_the_lobby_of_a_member_waiting_at_a_table_follows_it(members: list[User]) -> None:
    """While a member waits at a table, the lobby's live part asks again (htmx) and shows
    the game once it begins; a member at no table is not asked to."""
    anna, bertil, cecilia = members[:3]
    challenge = Challenge.objects.create(challenger=anna, seats=3, target=61)
    table_sit(pk=challenge.pk, member=bertil, seat=1)
    lobby = reverse("play:lobby")
    waiting = logged_in(bertil).get(lobby).content.decode()
    assert 'id="lobby-live" hx-get="/' in waiting
    assert 'id="lobby-live" hx-get' not in logged_in(cecilia).get(lobby).content.decode()
    game = table_begin(pk=challenge.pk, member=anna, seed=3)
    live = logged_in(bertil).get(lobby, headers=HTMX)
    text = live.content.decode()
    assert live.status_code == 200
    assert text.lstrip().startswith('<div id="lobby-live"')  # the live part alone
    assert reverse("play:online_game", args=[game.pk]) in text
    assert "Table of three with Anna Ek and the computer" in text_of(text)
    assert "Your move." in text_of(text)


def test_a_members_statistics_count_their_tables_apart(members: list[User]) -> None:
    """A finished table is counted as a table, won when the member's side won (a member who
    left it too), never as a game against one member."""
    challenge = Challenge.objects.create(challenger=members[0], seats=4, target=61)
    table_sit(pk=challenge.pk, member=members[1], seat=2)  # partners
    game = table_begin(pk=challenge.pk, member=members[0], seed=5)
    tables.table_leave(pk=game.pk, member=members[0])
    game = tables.table_leave(pk=game.pk, member=members[1])  # the computers play it out
    assert game.finished
    ours = game.winner == 0
    for user in members[:2]:
        page = text_of(logged_in(user).get(reverse("play:stats")).content.decode())
        won = 1 if ours else 0
        assert f"At tables of three and four: 1 game, {won} won by your side." in page
        assert "Games and matches" not in page  # no game against one member
