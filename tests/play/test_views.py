"""The practice pages: start, play with and without htmx, whose games are whose, hints,
replays, the deck setting and the statistics page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pytest_django import Settings

from play.board import face
from play.models import PracticeGame
from play.services import HUMAN, SESSION_GAMES, load_match
from scoring.rules.cards import DECK
from tests.factories import UserFactory
from tests.play.factories import PracticeGameFactory, owner_of, play_until

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
HTMX = {"HX-Request": "true"}


def start_as_guest(client: Client, **fields: object) -> PracticeGame:
    data = {"level": "easy", "best_of": "1", **fields}
    response = client.post(reverse("play:start"), data)
    assert response.status_code == 302
    practice = PracticeGame.objects.latest("pk")
    assert response.headers["Location"] == reverse("play:game", args=[practice.pk])
    return practice


def discard_post(
    practice: PracticeGame, cards: list[str], version: int | None = None
) -> dict[str, object]:
    return {
        "version": practice.version if version is None else version,
        "action": "discard",
        "cards": cards,
    }


def held(practice: PracticeGame) -> list[str]:
    return [str(card) for card in load_match(practice).game.hand(HUMAN)]


def test_the_play_page_offers_a_new_game_and_is_in_the_navigation(client: Client) -> None:
    response = client.get(reverse("play:index"))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'action="{reverse("play:start")}"' in html
    assert f'href="{reverse("play:index")}" aria-current="page"' in html
    assert 'name="seed"' not in html  # a fixed seed only in development and tests


def test_a_guest_starts_a_game_kept_in_their_session(client: Client) -> None:
    practice = start_as_guest(client, level="standard")
    assert practice.owner is None
    assert practice.session_key == client.session.session_key
    assert client.session[SESSION_GAMES] == [practice.pk]
    page = client.get(reverse("play:game", args=[practice.pk]))
    assert page.status_code == 200
    assert page.context["table"].phase == "discard"
    assert len(page.context["table"].hand) == 6
    assert "card-check" in page.content.decode()


def test_a_seed_is_taken_only_when_allowed(client: Client, settings: Settings) -> None:
    settings.PRACTICE_SEED_FIELD = True
    first = start_as_guest(client, seed="4242")
    second = start_as_guest(client, seed="4242")
    assert first.seed == second.seed == 4242
    assert first.state["games"][0]["decisions"] == second.state["games"][0]["decisions"]
    assert 'name="seed"' in client.get(reverse("play:index")).content.decode()
    settings.PRACTICE_SEED_FIELD = False
    assert start_as_guest(client, seed="4242").seed != 4242  # the field is ignored


def test_another_visitor_gets_404_and_changes_nothing(client: Client) -> None:
    practice = start_as_guest(client)
    stranger = Client()
    assert stranger.get(reverse("play:game", args=[practice.pk])).status_code == 404
    post = discard_post(practice, held(practice)[:2])
    assert stranger.post(reverse("play:move", args=[practice.pk]), post).status_code == 404
    member = UserFactory.create()
    stranger.force_login(member)
    assert stranger.get(reverse("play:replay", args=[practice.pk])).status_code == 404
    assert PracticeGame.objects.get(pk=practice.pk).version == 0


def test_a_members_game_is_theirs_alone(client: Client) -> None:
    practice = PracticeGameFactory.create()
    client.force_login(UserFactory.create())
    assert client.get(reverse("play:game", args=[practice.pk])).status_code == 404
    client.force_login(owner_of(practice))
    assert client.get(reverse("play:game", args=[practice.pk])).status_code == 200


def test_a_decision_without_htmx_redirects_back(client: Client) -> None:
    practice = start_as_guest(client)
    url = reverse("play:move", args=[practice.pk])
    response = client.post(url, discard_post(practice, held(practice)[:2]))
    assert response.status_code == 302
    assert response.headers["Location"] == reverse("play:game", args=[practice.pk])
    practice.refresh_from_db()
    assert practice.version == 1
    page = client.get(reverse("play:game", args=[practice.pk])).content.decode()
    assert "line-starter" in page


def test_a_decision_with_htmx_returns_the_game_partial(client: Client) -> None:
    practice = start_as_guest(client)
    url = reverse("play:move", args=[practice.pk])
    response = client.post(url, discard_post(practice, held(practice)[:2]), headers=HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="game"')
    assert "<html" not in html
    assert 'data-version="1"' in html


def test_a_card_not_held_is_refused_with_a_message(client: Client) -> None:
    practice = start_as_guest(client)
    stranger = next(str(card) for card in DECK if str(card) not in held(practice))
    url = reverse("play:move", args=[practice.pk])
    response = client.post(url, discard_post(practice, [held(practice)[0], stranger]))
    assert response.status_code == 302
    shown = [str(message) for message in get_messages(response.wsgi_request)]
    assert any("is not in your hand" in message for message in shown)
    assert PracticeGame.objects.get(pk=practice.pk).state == practice.state


def test_a_stale_post_is_refused_in_the_partial(client: Client) -> None:
    practice = start_as_guest(client)
    url = reverse("play:move", args=[practice.pk])
    post = discard_post(practice, held(practice)[:2])
    client.post(url, post, headers=HTMX)
    again = client.post(url, post, headers=HTMX)  # a double click
    assert again.status_code == 200
    assert "out of date" in again.content.decode()
    assert PracticeGame.objects.get(pk=practice.pk).version == 1


@pytest.mark.parametrize(
    "post",
    [
        {"action": "discard", "cards": ["ZZ", "5H"]},
        {"action": "discard"},
        {"action": "dance"},
        {"action": "count", "points": "-3"},
        {"action": "play", "card": "5H\x00"},
        {"action": "play", "card": "11H"},
    ],
)
def test_malformed_posts_get_a_message_and_change_nothing(
    client: Client, post: dict[str, object]
) -> None:
    practice = start_as_guest(client)
    response = client.post(
        reverse("play:move", args=[practice.pk]), {"version": 0, **post}, headers=HTMX
    )
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert PracticeGame.objects.get(pk=practice.pk).version == 0


def test_a_code_that_is_no_card_is_named_in_the_message(client: Client) -> None:
    practice = start_as_guest(client)
    url = reverse("play:move", args=[practice.pk])
    post = {"version": 0, "action": "discard", "cards": ["5H", "ZZ"]}
    response = client.post(url, post, headers={**HTMX, "Accept-Language": "en"})
    assert "ZZ is not a card." in response.content.decode()
    stranger = Client()  # a malformed post to another visitor's game is a 404 all the same
    assert stranger.post(url, post).status_code == 404


def test_the_hint_is_a_partial_for_htmx_and_part_of_the_page_without(client: Client) -> None:
    practice = start_as_guest(client)
    url = reverse("play:game", args=[practice.pk]) + "?hint=1"
    partial = client.get(url, headers={**HTMX, "HX-Target": "hint"}).content.decode()
    assert partial.lstrip().startswith('<section id="hint"')
    assert partial.count("<tr") == 16  # the head and the 15 discards
    page = client.get(url).content.decode()
    assert "hint-table" in page
    assert "<html" in page


def test_a_finished_game_has_a_replay_with_steps(client: Client) -> None:
    practice = PracticeGameFactory.create(finished=True)
    client.force_login(owner_of(practice))
    url = reverse("play:replay", args=[practice.pk])
    first = client.get(url)
    assert first.status_code == 200
    view = first.context["replay"]
    assert view.step == 0
    assert view.previous_step is None
    assert f'?game=1&amp;step={view.next_step}"' in first.content.decode()
    last = client.get(url, {"step": view.last_step})
    assert last.context["replay"].next_step is None
    assert max(last.context["replay"].scores) == 121
    assert client.get(url, {"step": view.steps}).status_code == 404
    assert client.get(url, {"game": 2}).status_code == 404
    assert client.get(url, {"step": "x"}).status_code == 404


def test_an_unfinished_game_has_no_replay_yet(client: Client) -> None:
    practice = start_as_guest(client)
    assert client.get(reverse("play:replay", args=[practice.pk])).status_code == 404


def test_the_four_colour_deck_is_a_setting_of_the_session(client: Client) -> None:
    practice = start_as_guest(client)
    game_url = reverse("play:game", args=[practice.pk])
    response = client.post(reverse("play:deck"), {"four_colours": "on", "next": game_url})
    assert response.headers["Location"] == game_url
    assert "deck-four" in client.get(game_url).content.decode()
    client.post(reverse("play:deck"), {"next": game_url})
    assert "deck-two" in client.get(game_url).content.decode()
    away = client.post(reverse("play:deck"), {"next": "https://evil.example/"})
    assert away.headers["Location"] == reverse("play:index")


@pytest.mark.parametrize(
    "post",
    [
        {},
        {"next": ""},
        {"next": "https://evil.example/"},
        {"next": "//evil.example/play/"},
        {"next": "play:stats"},
        {"next": "nowhere"},
        {"next": "/no/such/page/"},
        {"next": "javascript:alert(1)"},
        {"four_colours": "on", "next": "x" * 400},
    ],
)
def test_the_deck_setting_sends_an_unknown_or_unsafe_next_to_the_play_page(
    client: Client, post: dict[str, str]
) -> None:
    response = client.post(reverse("play:deck"), post)
    assert response.status_code == 302
    assert response.headers["Location"] == reverse("play:index")


def test_the_deck_setting_keeps_the_query_of_a_page_of_this_site(client: Client) -> None:
    practice = start_as_guest(client)
    target = reverse("play:game", args=[practice.pk]) + "?hint=1"
    response = client.post(reverse("play:deck"), {"next": target})
    assert response.headers["Location"] == target


def test_a_guest_address_may_start_30_games_in_a_minute(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    import django_ratelimit.core

    # One fixed instant, so the 31 starts cannot straddle two of the limit's windows.
    clock = type("Clock", (), {"time": staticmethod(lambda: 1_800_000_000.0)})
    monkeypatch.setattr(django_ratelimit.core, "time", clock)
    for _ in range(30):
        start_as_guest(client)
    refused = client.post(reverse("play:start"), {"level": "easy", "best_of": "1"})
    assert refused.status_code == 429
    assert PracticeGame.objects.count() == 30
    elsewhere = Client(REMOTE_ADDR="192.0.2.7")  # another address is not held up
    assert (
        elsewhere.post(reverse("play:start"), {"level": "easy", "best_of": "1"}).status_code == 302
    )
    member = Client()
    member.force_login(UserFactory.create())
    for _ in range(31):
        response = member.post(reverse("play:start"), {"level": "easy", "best_of": "1"})
        assert response.status_code == 302


def count_replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    from scoring.rules.match import Match

    replays: list[int] = []
    from_json = Match.from_json

    def counted(data: dict[str, Any]) -> Match:
        replays.append(1)
        return from_json(data)

    monkeypatch.setattr(Match, "from_json", staticmethod(counted))
    return replays


def test_a_decision_replays_the_saved_game_once(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    practice = start_as_guest(client, level="expert")
    post = discard_post(practice, held(practice)[:2])
    replays = count_replays(monkeypatch)
    response = client.post(reverse("play:move", args=[practice.pk]), post, headers=HTMX)
    assert response.status_code == 200
    assert 'data-version="1"' in response.content.decode()
    assert len(replays) == 1


def test_the_page_with_its_hint_replays_the_saved_game_once(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    practice = start_as_guest(client, level="expert")
    replays = count_replays(monkeypatch)
    page = client.get(reverse("play:game", args=[practice.pk]) + "?hint=1")
    assert "hint-table" in page.content.decode()
    assert len(replays) == 1


def test_the_account_page_links_to_the_practice_statistics(client: Client) -> None:
    client.force_login(UserFactory.create())
    html = client.get(reverse("account")).content.decode()
    assert f'hx-get="{reverse("play:stats")}"' in html
    partial = client.get(reverse("play:stats"), headers={**HTMX, "HX-Target": "practice-summary"})
    assert partial.content.decode().lstrip().startswith('<div id="practice-summary"')


def test_counting_yourself_shows_what_was_missed(client: Client) -> None:
    from scoring.rules.events import Phase
    from tests.play.factories import play_until

    user = UserFactory.create()
    client.force_login(user)
    practice = play_until(
        PracticeGameFactory.create(owner=user, seed=9, self_count=True, muggins=True),
        lambda game: game.phase is Phase.COUNT,
    )
    page = client.get(reverse("play:game", args=[practice.pk])).content.decode()
    assert 'name="points"' in page
    url = reverse("play:move", args=[practice.pk])
    response = client.post(url, {"version": practice.version, "action": "count", "points": 0})
    assert response.status_code == 302
    response = client.get(reverse("play:game", args=[practice.pk]))
    news = response.context["table"].news
    shown = next(line for line in news if line.type == "show" and line.mine)
    assert shown.missed == sum(item.points for item in shown.items) > 0
    html = response.content.decode()
    assert 'class="missed"' in html
    assert "line-muggins" in html


def test_counts_are_said_in_swedish_by_default_and_in_english_on_request(client: Client) -> None:
    practice = PracticeGameFactory.create(seed=77, finished=True)
    client.force_login(owner_of(practice))
    url = reverse("play:game", args=[practice.pk])
    # The other tests here read English; this one starts as a first-time visitor would.
    del client.cookies["django_language"]
    swedish = client.get(url).context["table"].log
    said = " ".join(line.said for line in swedish)
    assert "femton" in said
    assert "fifteen" not in said
    client.post(reverse("set_language"), {"language": "en", "next": url})
    english = " ".join(line.said for line in client.get(url).context["table"].log)
    assert "fifteen" in english


def test_the_news_of_a_long_move_shows_its_latest_lines_and_folds_the_rest(
    client: Client,
) -> None:
    practice = play_until(
        PracticeGameFactory.create(level="standard", seed=8),
        lambda game: sum(1 for event in game.events if event.type == "show") >= 3,
    )
    client.force_login(owner_of(practice))
    response = client.get(
        reverse("play:game", args=[practice.pk]), headers={"Accept-Language": "en"}
    )
    table = response.context["table"]
    assert len(table.news) > 3  # a show: the hands, the crib, the next deal
    assert table.news_shown == table.news[-3:]
    assert table.news_earlier == table.news[:-3]
    html = response.content.decode()
    told, folded = html.split("data-news ")[1], html.split("data-news ")[0]
    assert f"Earlier in this move: {len(table.news_earlier)} events" in folded
    assert told.split("</ol>")[0].count('class="line ') == 3
    # The telling starts where the folded lines left the pegs.
    before = " ".join(str(peg) for peg in table.news_earlier[-1].pegs)
    assert f'data-pegs-before="{before}"' in html


@pytest.mark.parametrize("language", ["sv", "en"])
def test_once_the_game_is_over_the_crib_is_turned_face_up(client: Client, language: str) -> None:
    """At the table everything is turned over when the game ends; a crib not yet counted
    (someone pegged out first) is shown, not left as four backs."""
    practice = PracticeGameFactory.create(seed=31, finished=True)
    client.force_login(owner_of(practice))
    client.cookies["django_language"] = language
    page = client.get(reverse("play:game", args=[practice.pk])).content.decode()
    crib = load_match(practice).game.crib
    assert len(crib) == 4
    shown = re.search(r'<span class="crib-shown">(.*?)</span>\s*</div>', page, re.S)
    assert shown is not None, "the crib is face up"
    names = re.findall(r'aria-label="([^"]+)"', shown.group(1))
    with translation.override(language):
        assert names == [face(card).name for card in crib]
    assert "card-back" not in shown.group(1)
