"""Practice games of three and four seats through the pages: starting one to 61, 91 or 121
in both languages, refusing what only two can play, a whole game of three and of four
played through the views with what the player sees checked at every step, and the hint,
the replay and the review of a game of four (docs/rules.md §7)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pytest_django import DjangoCaptureOnCommitCallbacks

from play.models import GameReview, PracticeGame
from play.selectors import TableView
from play.services import HUMAN, load_match
from scoring.rules.events import Phase
from scoring.rules.game import Game
from tests.play.factories import PracticeGameFactory, owner_of

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def start(client: Client, **fields: object) -> Any:
    return client.post(reverse("play:start"), {"level": "easy", "best_of": "1", **fields})


def speaking(client: Client, language: str) -> translation.override:
    client.cookies["django_language"] = language
    return translation.override(language)


@pytest.mark.parametrize(
    ("seats", "target", "language", "lay_away"),
    [
        (3, 61, "en", "Lay away one card"),
        (3, 91, "sv", "Lägg bort ett kort"),
        (4, 121, "en", "Lay away one card"),
        (4, 61, "sv", "Lägg bort ett kort"),
        (3, 121, "sv", "Lägg bort ett kort"),
        (4, 91, "en", "Lay away one card"),
    ],
)
def test_a_guest_starts_a_game_of_three_or_four_to_any_length(
    client: Client, seats: int, target: int, language: str, lay_away: str
) -> None:
    with speaking(client, language):
        response = start(client, seats=str(seats), target=str(target))
        assert response.status_code == 302
        practice = PracticeGame.objects.get()
        assert (practice.seats, practice.target, practice.best_of) == (seats, target, 1)
        page = client.get(reverse("play:game", args=[practice.pk]))
    html = page.content.decode()
    table: TableView = page.context["table"]
    assert table.phase == "discard"
    assert len(table.hand) == 5  # five dealt at three or four
    assert len(table.seat_views) == seats - 1
    assert len(table.side_views) == (3 if seats == 3 else 2)
    assert lay_away in html
    assert 'class="move-form discard-form discard-one-form"' in html
    assert html.count('name="cards"') == 5  # one button a card: choosing it lays it away
    assert f"{seats} " in table_line(html)
    assert str(target) in table_line(html)


def table_line(html: str) -> str:
    found = re.search(r'<p class="match-line">(.*?)</p>', html, re.S)
    assert found is not None
    return found.group(1)


def test_the_start_form_offers_the_players_and_the_length_with_121_first_chosen(
    client: Client,
) -> None:
    with speaking(client, "en"):
        html = client.get(reverse("play:index")).content.decode()
    for value in ("2", "3", "4"):
        assert f'name="seats" value="{value}"' in html
    assert re.search(r'name="target" value="121"[^>]*checked', html)
    assert "you and a computer partner against two computers" in html.lower()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"seats": "4", "muggins": "on"}, "muggins", "Muggins is played by two only"),
        ({"seats": "3", "muggins": "on"}, "muggins", "Muggins is played by two only"),
        ({"seats": "3", "best_of": "3"}, "best_of", "A match of three games is played by two"),
        ({"seats": "2", "target": "61", "best_of": "3"}, "best_of", "played by two to 121"),
        ({"seats": "4", "target": "100"}, "target", "played to 61, 91 or 121 points"),
        ({"seats": "5"}, "seats", "two, three or four players"),
    ],
)
def test_a_start_that_only_two_can_play_or_of_no_known_length_is_refused_clearly(
    client: Client, fields: dict[str, str], field: str, message: str
) -> None:
    with speaking(client, "en"):
        response = start(client, **fields)
        assert message in " ".join(response.context["form"].errors[field])
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not PracticeGame.objects.exists()


def test_a_refusal_is_said_in_swedish_too(client: Client) -> None:
    with speaking(client, "sv"):
        response = start(client, seats="4", muggins="on")
    assert response.status_code == 400
    assert "Muggins spelas bara av två" in response.content.decode()
    assert not PracticeGame.objects.exists()


def test_count_it_yourself_is_offered_at_four(client: Client) -> None:
    with speaking(client, "en"):
        assert start(client, seats="4", target="61", self_count="on").status_code == 302
    practice = PracticeGame.objects.get()
    assert practice.self_count
    assert load_match(practice).game.self_count == frozenset({HUMAN})


def check_the_table(table: TableView, game: Game, html: str) -> None:
    """What the player sees is the engine's game, seat by seat."""
    assert [held.face.code for held in table.hand] == [str(card) for card in game.hand(HUMAN)]
    for held in table.hand:
        assert f'value="{held.face.code}"' in html or table.game_over
    others = [seat.seat for seat in table.seat_views]
    assert others == [(HUMAN + step) % game.seats for step in range(1, game.seats)]
    for seat in table.seat_views:
        assert seat.holds == len(game.hand(seat.seat))
        assert [laid.code for laid in seat.laid] == [
            str(card) for who, card in game.played if who == seat.seat
        ]
        assert seat.dealer == (seat.seat == game.dealer)
        assert seat.partner == (game.seats == 4 and seat.seat == 2)
        assert seat.name in html
    assert [side.score for side in table.side_views] == [
        game.scores[side.side] for side in table.side_views
    ]
    assert table.side_views[0].mine
    assert table.side_views[0].side == game.side_of(HUMAN)
    for side in table.side_views:
        assert f'data-score-text="{side.side}">{side.score}</strong>' in html
    assert table.count == game.count
    assert [(laid.seat, laid.card.code) for laid in table.sequence] == [
        (who, str(card)) for who, card in game.sequence
    ]
    if not table.game_over:  # the computers have moved: the game waits for the player
        assert game.awaiting == frozenset({HUMAN})
        assert not any(seat.to_move for seat in table.seat_views)
        assert table.your_move


def test_a_post_of_two_cards_or_out_of_turn_at_four_is_refused_in_its_words(
    client: Client,
) -> None:
    practice = PracticeGameFactory.create(seats=4, target=61)
    client.force_login(owner_of(practice))
    move = reverse("play:move", args=[practice.pk])
    two = [str(card) for card in load_match(practice).game.hand(HUMAN)[:2]]
    with speaking(client, "en"):
        post = {"version": practice.version, "action": "discard", "cards": two}
        answer = client.post(move, post, headers=HTMX)
        assert "Choose exactly one card for the crib." in answer.content.decode()
        card = two[0]
        post = {"version": practice.version, "action": "play", "card": card}
        answer = client.post(move, post, headers=HTMX)
        assert "It is time to lay away a card to the crib." in answer.content.decode()
    practice.refresh_from_db()
    assert practice.version == 0
    assert load_match(practice).game.awaiting == frozenset({HUMAN})


def play_through_the_views(client: Client, practice: PracticeGame) -> tuple[TableView, str]:
    """Play the player's seat with the engine's first legal move, through the pages
    (htmx and plain posts in turn), checking the table at every step; the last table."""
    url, move = reverse("play:game", args=[practice.pk]), reverse("play:move", args=[practice.pk])
    for step in range(200):
        practice.refresh_from_db()
        page = client.get(url)
        html = page.content.decode()
        table: TableView = page.context["table"]
        game = load_match(practice).game
        check_the_table(table, game, html)
        if practice.finished:
            return table, html
        post: dict[str, object] = {"version": practice.version}
        if game.phase is Phase.DISCARD:
            assert "discard-one-form" in html
            post |= {"action": "discard", "cards": [str(game.legal_discards(HUMAN)[0][0])]}
        elif game.phase is Phase.PLAY:
            post |= {"action": "play", "card": str(game.legal_plays(HUMAN)[0])}
        else:
            shown = game.showing_score
            assert shown is not None
            post |= {"action": "count", "points": shown.total}
        headers = HTMX if step % 2 else {}
        answer = client.post(move, post, headers=headers)
        assert answer.status_code == (200 if headers else 302)
    raise AssertionError("the game did not end in 200 decisions")


@pytest.mark.parametrize(("seats", "self_count"), [(3, False), (4, False), (3, True)])
def test_a_whole_game_of_three_or_four_to_61_is_played_through_the_pages(
    client: Client, seats: int, self_count: bool
) -> None:
    counting = {"self_count": "on"} if self_count else {}
    with speaking(client, "en"):
        assert start(client, seats=str(seats), target="61", **counting).status_code == 302
        practice = PracticeGame.objects.get()
        table, html = play_through_the_views(client, practice)
    game = load_match(practice).game
    assert game.phase is Phase.DONE
    assert practice.winner == game.winner
    assert game.winner is not None
    assert max(game.scores) == 61 == game.scores[game.winner]
    assert table.winner == game.winner
    assert table.skunk in (None, "none")  # no skunk in a game to 61
    if table.we_won:
        expected = "You and your partner won!" if seats == 4 else "You won!"
    else:
        expected = f"{table.winners} won."
    assert expected in html
    final = re.search(r'<p class="result">(.*?)</p>', html, re.S)
    assert final is not None
    for side in table.side_views:
        assert f"{side.name} <strong>{side.score}</strong>" in final.group(1)
    names = ("You and your partner", "Left and Right") if seats == 4 else ("You", "Left", "Right")
    assert [side.name for side in table.side_views] == list(names)
    assert practice.record is not None
    assert practice.record["games"][0].get("seats") == seats
    assert practice.record["games"][0].get("target") == 61
    assert "win the game" in html or "wins the game" in html  # the log tells the win


def test_a_whole_game_of_four_is_told_in_swedish(client: Client) -> None:
    practice = PracticeGameFactory.create(seats=4, target=61, finished=True)
    client.force_login(owner_of(practice))
    with speaking(client, "sv"):
        html = client.get(reverse("play:game", args=[practice.pk])).content.decode()
    assert "Du och din partner" in html
    assert "Vänster och Höger" in html
    assert "Slutställning:" in html


def test_the_hint_of_a_game_of_four_weighs_one_card_then_names_the_card_to_lay(
    client: Client,
) -> None:
    practice = PracticeGameFactory.create(seats=4, target=61)
    client.force_login(owner_of(practice))
    url = reverse("play:game", args=[practice.pk])
    with speaking(client, "en"):
        page = client.get(url + "?hint=1")
        hint = page.context["hint"]
        assert len(hint.discard_rows) == 5
        assert all(len(row.cards) == 1 for row in hint.discard_rows)
        assert "Expected points of each discard" in page.content.decode()
        partial = client.get(url + "?hint=1", headers={**HTMX, "HX-Target": "hint"})
        assert partial.status_code == 200
        assert "hint-table" in partial.content.decode()
        game = load_match(practice).game
        card = str(game.legal_discards(HUMAN)[0][0])
        post = {"version": practice.version, "action": "discard", "cards": [card]}
        client.post(reverse("play:move", args=[practice.pk]), post)
        practice.refresh_from_db()
        game = load_match(practice).game
        assert game.phase is Phase.PLAY
        assert game.to_move == HUMAN
        hint = client.get(url + "?hint=1").context["hint"]
    assert hint.best_play is not None
    assert hint.best_play.code in {str(card) for card in game.legal_plays(HUMAN)}


def test_a_finished_game_of_four_has_its_review_and_replay(
    client: Client, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        practice = PracticeGameFactory.create(seats=4, target=61, finished=True)
    stored = GameReview.objects.get(practice=practice)
    assert stored.review["seats"] == 4
    assert stored.decisions_0 > 0
    client.force_login(owner_of(practice))
    with speaking(client, "en"):
        review = client.get(reverse("play:review", args=[practice.pk]))
        assert review.status_code == 200
        seats = review.context["review"].games[0].seats
        assert [seat.who for seat in seats] == ["You", "Left", "Partner", "Right"]
        html = review.content.decode()
        assert "All 5 ways to lay away one card" in html
        assert "All 15 ways" not in html
        replay_url = reverse("play:replay", args=[practice.pk])
        first = client.get(replay_url + "?game=1&step=0")
        assert first.status_code == 200
        view = first.context["replay"]
        assert [name for name, _cards in view.seat_hands] == ["You", "Left", "Partner", "Right"]
        assert view.cuts
        assert all(len(cards) == 2 for cards in view.cuts)
        last = client.get(replay_url + f"?game=1&step={view.last_step}")
    assert last.status_code == 200
    assert max(last.context["replay"].board.scores) == 61


def test_a_game_of_two_to_61_ends_at_61_without_a_skunk(client: Client) -> None:
    practice = PracticeGameFactory.create(seats=2, target=61, finished=True)
    client.force_login(owner_of(practice))
    with speaking(client, "en"):
        page = client.get(reverse("play:game", args=[practice.pk]))
    html = page.content.decode()
    table: TableView = page.context["table"]
    game = load_match(practice).game
    assert game.winner is not None
    assert game.scores[game.winner] == 61
    assert table.skunk in (None, "none")
    assert not table.many
    assert ("You won!" if game.winner == HUMAN else "The computer won.") in html
    assert "2 players, a game to 61 points." in html
    assert len(table.board.finish) == 2
    assert practice.record is not None
    assert "game_points" not in practice.record  # reckoned to 121 only
