"""The pages of a tournament match played on the site: the proposal on the match page, its
answer, the round page's "being played online" with its link, and the spectator's page
(anyone may watch, without login, and sees no card of either hand), polled like a
player's."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from play.board import face
from play.championship import match_propose
from play.models import Challenge, OnlineGame
from play.online import challenge_accept, load_online, online_decide, online_resign
from play.services import Action, Decision, stand_in_decision
from scoring.players.strategy import ComputerPlayer
from scoring.rules.events import Phase
from tests.tournaments.conftest import account, make_tournament, seats
from tournaments.models import Match
from tournaments.services import rounds

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def match() -> Match:
    tournament = make_tournament(2, best_of=3)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    return Match.objects.select_related("round__tournament").get(round=round_)


def client_of(user: User | None) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.cookies["django_language"] = "en"
    if user is not None:
        client.force_login(user)
    return client


def match_page(match: Match) -> str:
    return reverse("tournaments:match", args=[match.round.tournament.slug, match.pk])


def test_a_player_proposes_on_the_match_page_and_the_opponent_answers_there(match: Match) -> None:
    first, second = (account(seat) for seat in seats(match))
    page = client_of(second).get(match_page(match)).content.decode()
    assert "Propose it to your opponent" in page
    assert "Propose it" not in client_of(None).get(match_page(match)).content.decode()
    answer = client_of(second).post(reverse("play:online_propose", args=[match.pk]))
    assert answer["Location"] == match_page(match)
    page = client_of(first).get(match_page(match)).content.decode()
    assert "proposes to play this match on the site, best of 3" in page
    proposal = Challenge.objects.get()
    declined = client_of(first).post(
        reverse("play:challenge_answer", args=[proposal.pk]), {"answer": "decline"}
    )
    assert declined["Location"] == match_page(match)  # back where it was answered
    assert Challenge.objects.get().status == Challenge.Status.DECLINED


def test_a_stranger_cannot_propose_someone_elses_match(match: Match) -> None:
    from tests.factories import UserFactory

    stranger = UserFactory.create(username="stranger")
    answer = client_of(stranger).post(reverse("play:online_propose", args=[match.pk]), follow=True)
    assert "You can only report your own match." in answer.content.decode()
    assert not Challenge.objects.exists()


def started(match: Match) -> OnlineGame:
    first, second = (account(seat) for seat in seats(match))
    proposal = match_propose(match=match, member=second)
    return challenge_accept(pk=proposal.pk, member=first, seed=3)


def test_the_round_page_links_a_spectator_to_a_page_without_a_hidden_card(match: Match) -> None:
    game = started(match)
    anyone = client_of(None)
    round_page = anyone.get(
        reverse("tournaments:round", args=[match.round.tournament.slug, match.round.number])
    ).content.decode()
    assert "Being played on the site" in round_page
    watch = reverse("play:online_match", args=[match.pk])
    assert f'href="{watch}"' in round_page
    answer = anyone.get(watch)
    assert answer["Location"] == reverse("play:online_game", args=[game.pk])
    page = anyone.get(answer["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    played = load_online(game).game
    with translation.override("en"):
        held = [face(card).name for seat in (0, 1) for card in played.hand(seat)]
    # The news tells the cut for the deal, whose cards come from another deck: left out.
    table_part = re.sub(r'<section class="news".*?</section>', "", html, flags=re.S)
    assert "cuts" in html
    assert [name for name in held if f'aria-label="{name}"' in table_part] == []
    assert "<form" not in html.split('id="game"')[1]
    # Polled like a player's page: nothing new, a 304.
    table = reverse("play:online_table", args=[game.pk])
    etag = anyone.get(table).headers.get("ETag") or page.context["etag"]
    assert anyone.get(table, headers={"if-none-match": etag}).status_code == 304


def test_a_game_between_members_is_not_for_spectators(match: Match) -> None:
    from play.online import challenge_create
    from tests.factories import UserFactory

    anna, bertil = UserFactory.create(username="a1"), UserFactory.create(username="b1")
    friendly = challenge_accept(
        pk=challenge_create(challenger=anna, challenged=bertil).pk, member=bertil
    )
    page = reverse("play:online_game", args=[friendly.pk])
    assert client_of(None).get(page).status_code == 302  # to log in
    assert client_of(UserFactory.create(username="c1")).get(page).status_code == 404
    table = reverse("play:online_table", args=[friendly.pk])
    assert client_of(None).get(table).status_code == 404


def test_a_stopped_match_links_its_players_to_the_games_played_to_the_end(match: Match) -> None:
    """A resigned match goes to the organisers without its games saved; its players can
    still replay each game that was finished, and only those."""
    first, second = (account(seat) for seat in seats(match))
    proposal = match_propose(match=match, member=first)
    game = challenge_accept(pk=proposal.pk, member=second, seed=5)
    stand_ins = {seat: ComputerPlayer("standard", seat) for seat in (0, 1)}
    users = dict(enumerate(game.pair))
    played = load_online(game)
    while played.game.phase is not Phase.DONE:  # game 1 to its end, then one move of game 2
        seat = played.game.to_move or 0
        decision = stand_in_decision(played, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )
        played = load_online(game)
    game = online_decide(
        pk=game.pk, member=users[0], moves=game.moves_of(0), decision=Decision(Action.NEXT)
    )
    online_resign(pk=game.pk, member=first)
    replay = reverse("play:online_replay", args=[game.pk])
    for page in (match_page(match), reverse("play:online_game", args=[game.pk])):
        html = client_of(second).get(page).content.decode()
        assert f'href="{replay}?game=1"' in html, page
        assert "Replay game 1" in html
        assert f"{replay}?game=2" not in html
    assert replay not in client_of(None).get(match_page(match)).content.decode()
    assert client_of(second).get(f"{replay}?game=1").status_code == 200


@pytest.mark.parametrize(
    ("language", "over", "in_play"),
    [
        ("sv", "spelad på webbplatsen", ("spelas på webbplatsen", "Giv ")),
        ("en", "· played on the site", ("being played on the site", "Deal ")),
    ],
)
def test_once_an_organiser_enters_the_result_the_watch_page_says_the_match_is_over(
    match: Match, language: str, over: str, in_play: tuple[str, ...]
) -> None:
    from tests.factories import OrganiserFactory
    from tournaments.services import results

    game = started(match)
    organiser = OrganiserFactory.create(username="olle")
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 80), (0, 70)])
    anyone = client_of(None)
    anyone.cookies["django_language"] = language
    page = anyone.get(reverse("play:online_game", args=[game.pk])).content.decode()
    top = page.split('<section class="hand-area"')[0]
    assert over in top
    for words in in_play:
        assert words not in top, words
