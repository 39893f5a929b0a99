"""A tournament match played on the site and its official result agree: an organiser's
result ends the game there at once (for both players and every spectator, and no move is
taken after it), the match page says where the result came from, a proposal to play a
match lapses when the match is decided otherwise or its round closes, and the match a
game decides is final on the organisers' desk at once."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from play.championship import match_propose
from play.errors import PlayError
from play.models import Challenge, OnlineGame
from play.online import challenge_accept, load_online, online_decide
from play.services import Decision, stand_in_decision
from scoring.players.strategy import ComputerPlayer
from tests.factories import OrganiserFactory
from tests.tournaments.conftest import account, make_tournament, seats
from tournaments.access import Actor
from tournaments.models import Match
from tournaments.services import results, rounds

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def match() -> Match:
    tournament = make_tournament(2, best_of=3)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    return Match.objects.select_related("round__tournament").get(round=round_)


@pytest.fixture
def organiser() -> User:
    return OrganiserFactory.create(username="organiser")


def client_of(user: User | None, language: str = "en") -> Client:
    client = Client(headers={"accept-language": language})
    client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    return client


def started(match: Match) -> OnlineGame:
    first, second = (account(seat) for seat in seats(match))
    proposal = match_propose(match=match, member=second)
    return challenge_accept(pk=proposal.pk, member=first, seed=3)


def a_move(game: OnlineGame) -> tuple[int, Decision]:
    match = load_online(game)
    seat = match.game.to_move if match.game.to_move is not None else 0
    return seat, stand_in_decision(match, ComputerPlayer("standard", seat), seat)


def match_page(match: Match) -> str:
    return reverse("tournaments:match", args=[match.round.tournament.slug, match.pk])


def test_an_organisers_result_ends_the_game_on_the_site_for_everyone(
    match: Match, organiser: User
) -> None:
    game = started(match)
    first, second = game.seat_0, game.pair[1]
    seat, decision = a_move(game)
    game = online_decide(pk=game.pk, member=[first, second][seat], moves=0, decision=decision)
    results.match_settle(match=match, organiser=organiser, first_dealer=1, games=[(1, 80), (1, 70)])
    game.refresh_from_db()
    assert game.finished
    assert (game.ended, game.winner) == (OnlineGame.Ended.ORGANISER, 1)
    # No move after it, and the player is told why.
    seat, decision = a_move(game)
    with pytest.raises(PlayError, match="organiser has entered the result"):
        online_decide(
            pk=game.pk,
            member=[first, second][seat],
            moves=game.moves_of(seat),
            decision=decision,
        )
    page = reverse("play:online_game", args=[game.pk])
    winner = seats(match)[1].entry.player.name
    for reader in (first, second, None):
        html = client_of(reader).get(page).content.decode()
        assert "The organiser has entered the result." in html
        assert "hx-trigger" not in html  # the page no longer polls a game that is over
        assert "<form" not in html.split('id="game"')[1]
    assert f"{winner} won the match." in client_of(first).get(page).content.decode()
    assert "You won the match." in client_of(second).get(page).content.decode()
    swedish = client_of(None, "sv").get(page).content.decode()
    assert "Arrangören har fört in resultatet." in swedish
    # The match page says where its result came from, as its log does.
    html = client_of(None).get(match_page(match)).content.decode()
    assert "An organiser entered this match's result" in html
    assert "the result is the engine" not in html


def test_a_move_posted_after_the_organisers_result_gets_the_message(
    match: Match, organiser: User
) -> None:
    game = started(match)
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 80), (0, 7)])
    seat, decision = a_move(OnlineGame.objects.get(pk=game.pk))
    assert decision.cards
    player = [game.seat_0, game.pair[1]][seat]
    answer = client_of(player).post(
        reverse("play:online_move", args=[game.pk]),
        {"version": 0, "action": decision.action.value, "cards": [str(c) for c in decision.cards]},
        follow=True,
    )
    assert "The organiser has entered the result of this match: the game is over." in (
        answer.content.decode()
    )
    assert OnlineGame.objects.get(pk=game.pk).moves_of(seat) == 0


@pytest.mark.parametrize("how", ["games saved at the table", "organiser's result"])
def test_a_proposal_lapses_when_its_match_is_decided_otherwise(
    match: Match, organiser: User, how: str
) -> None:
    first, second = (account(seat) for seat in seats(match))
    proposal = match_propose(match=match, member=second)
    if how == "organiser's result":
        results.match_settle(
            match=match, organiser=organiser, first_dealer=0, games=[(0, 80), (0, 70)]
        )
    else:
        results.match_report_result(
            match=match, by=Actor(user=first), first_dealer=0, games=[(0, 90)]
        )
    proposal.refresh_from_db()
    assert proposal.status == Challenge.Status.LAPSED
    for member in (first, second):
        assert "proposes to play your match" not in (
            client_of(member).get(reverse("play:lobby")).content.decode()
        )
        assert "Accept and play" not in client_of(member).get(match_page(match)).content.decode()
        assert "Withdraw the proposal" not in (
            client_of(member).get(match_page(match)).content.decode()
        )


def test_a_proposal_lapses_when_its_round_closes(match: Match) -> None:
    first, second = (account(seat) for seat in seats(match))
    proposal = match_propose(match=match, member=second)
    # A proposal left open on a final match (as before proposals lapsed), then the round closes.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINAL, winner=0)
    rounds.round_close(round=match.round)
    proposal.refresh_from_db()
    assert proposal.status == Challenge.Status.LAPSED


def test_a_match_the_game_decides_is_final_on_the_organisers_desk_at_once(
    match: Match, organiser: User
) -> None:
    game = started(match)
    desk = client_of(organiser)
    round_page = reverse("tournaments:round", args=[match.round.tournament.slug, 1])
    before = desk.get(round_page).content.decode()
    assert "1 match is not final yet" in before
    poll = desk.get(round_page, headers={"HX-Request": "true", "HX-Target": "attention"})
    assert "1 match is not final yet" in poll.content.decode()
    users = dict(enumerate(game.pair))
    computer = {0: ComputerPlayer("expert", 1), 1: ComputerPlayer("standard", 2)}
    while not game.finished:
        played = load_online(game)
        seat = played.game.to_move or 0
        game = online_decide(
            pk=game.pk,
            member=users[seat],
            moves=game.moves_of(seat),
            decision=stand_in_decision(played, computer[seat], seat),
        )
    poll = desk.get(round_page, headers={"HX-Request": "true", "HX-Target": "attention"})
    assert "Every match is final: nothing needs your attention." in poll.content.decode()
    page = desk.get(round_page).content.decode()
    assert "Every match is final" in page
    detail = desk.get(
        reverse("tournaments:detail", args=[match.round.tournament.slug])
    ).content.decode()
    assert "Being played online" not in detail
