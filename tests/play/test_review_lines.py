"""A review read decision by decision, in both languages (issue 33 §4, docs/review.md):
each decision one line that says what was done, what was best and the points given away,
and opens for its detail; the costliest first; links that list only one player's
mistakes, the reader's own by default, working as plain links."""

from __future__ import annotations

import html as entities
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks

from club.names import member_name
from play.board import faces
from play.models import GameReview, OnlineGame, PracticeGame
from scoring.rules.cards import parse_cards
from tests.play.factories import PracticeGameFactory, owner_of
from tests.play.test_championship import accepted, play_to_the_end
from tests.play.test_review_online import (  # noqa: F401  # fixtures
    between_members,
    championship_match,
    member,
    reader,
)
from tournaments.models import Match

pytestmark = pytest.mark.django_db

CARD = re.compile(r'<span class="card-text[^"]*" role="img" aria-label="([^"]*)">[^<]*</span>')


def lines(page: str) -> dict[str, str]:
    """Each decision's line in the list, by its anchor: its text as a screen reader reads
    it (a card by its name), with ``[mistake]`` before it when it is marked."""
    found = {}
    pattern = (
        r'<details class="review-line( marked)?" id="(decision-\d+)">\s*<summary>(.*?)</summary>'
    )
    for marked, anchor, summary in re.findall(pattern, page, re.S):
        text = re.sub(r"<[^>]+>", " ", CARD.sub(r" \1 ", summary))
        said = " ".join(entities.unescape(text).split()).replace(" ,", ",")
        found[anchor] = ("[mistake] " if marked else "") + said
    return found


def listed(page: str) -> list[str]:
    """The anchors of the decisions listed, in their order."""
    return list(lines(page))


def decisions(review: GameReview) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = review.review["decisions"]
    return items


def card_names(codes: list[str], language: str) -> str:
    from django.utils import translation

    with translation.override(language):
        return " ".join(face.name for face in faces(parse_cards(codes)))


def figure(points: float, language: str) -> str:
    """As the page writes a figure: up to two decimals (rounded half up, as Django's
    ``floatformat``), none for a whole number, a decimal comma in Swedish."""
    text = str(Decimal(repr(points)).quantize(Decimal("0.01"), ROUND_HALF_UP)).removesuffix(".00")
    return text.replace(".", ",") if language == "sv" else text


WORDS = {
    "en": {
        "discard": "The discard",
        "play": "A card at",
        "count": "The count",
        "laid away": "Laid away",
        "laid": "Laid",
        "best": "best",
        "the best": "the best",
        "as good": "as good as the best",
        "given away": "given away",
        "claimed": "Claimed",
        "worth": "worth",
        "missed": "missed",
        "mistake": "a mistake",
    },
    "sv": {
        "discard": "Korten till krubban",
        "play": "Kort vid summan",
        "count": "Räkningen",
        "laid away": "Lade",
        "laid": "Lade",
        "best": "bäst",
        "the best": "det bästa",
        "as good": "lika bra som det bästa",
        "given away": "bortgivet",
        "claimed": "Begärde",
        "worth": "värd",
        "missed": "missat",
        "mistake": "ett misstag",
    },
}


def expected_line(decision: dict[str, Any], name: str, language: str) -> str:
    """What the line of ``decision`` says: the kind and who, what was done, the best
    (its cards, unless the choice made was the best), the points given away."""
    words = WORDS[language]
    kind = decision["kind"]
    chosen = card_names(decision.get("chosen", []), language)
    best = card_names(decision.get("best", []), language)
    lost = decision["lost"]
    if kind == "discard":
        head = f"{words['discard']} · {name}"
        done = (
            f"{words['laid away']} {chosen}, {words['the best']}"
            if lost <= 0 or chosen == best
            else f"{words['laid away']} {chosen}, {words['best']} {best}"
        )
    elif kind == "play":
        head = f"{words['play']} {decision['count_before']} · {name}"
        done = (
            f"{words['laid']} {chosen}, {words['best']} {best}"
            if decision["marked"]
            else f"{words['laid']} {chosen}, {words['as good']}"
        )
        lost = lost if decision["marked"] else 0
    else:
        head = f"{words['count']} · {name}"
        claimed, worth = decision["claimed"], decision["worth"]
        done = f"{words['claimed']} {claimed}, {words['worth']} {worth}"
    unit = words["missed"] if kind == "count" else words["given away"]
    text = f"{head} {done} {figure(lost, language)} {unit}"
    if decision["marked"]:
        return f"[mistake] {text}, {words['mistake']}"
    return text


@pytest.fixture
def practice(django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks) -> PracticeGame:
    with django_capture_on_commit_callbacks(execute=True):
        game = PracticeGameFactory.create(finished=True, self_count=True)
    return game


@pytest.fixture
def online(
    between_members: OnlineGame,  # noqa: F811
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> OnlineGame:
    """A game between Anna Ek and Bertil Ås played to its end, each with a mistake (each
    plays as the standard computer: the expert makes none)."""
    with django_capture_on_commit_callbacks(execute=True):
        return play_to_the_end(between_members, levels=("standard", "standard"))


@pytest.mark.parametrize("language", ["en", "sv"])
def test_each_decision_is_one_line_what_was_done_the_best_and_the_points_given_away(
    client: Client, practice: PracticeGame, language: str
) -> None:
    client.force_login(owner_of(practice))
    client.cookies["django_language"] = language
    page = client.get(reverse("play:review", args=[practice.pk])).content.decode()
    review = GameReview.objects.get(practice=practice)
    name = "You" if language == "en" else "Du"
    expected = {
        f"decision-{index}": expected_line(decision, name, language)
        for index, decision in enumerate(decisions(review), start=1)
        if decision["seat"] == 0  # the player's own: the computer's are not listed
    }
    shown = lines(page)
    assert shown == expected
    kinds = {decision["kind"] for decision in decisions(review) if decision["seat"] == 0}
    assert kinds == {"discard", "play", "count"}
    # Each line opens for its detail: nothing is open before the reader asks.
    assert page.count('<details class="review-line') >= len(expected)
    assert "<details open" not in page
    assert page.count('class="review-choices"') >= len(expected) - len(
        [d for d in decisions(review) if d["seat"] == 0 and d["kind"] == "count"]
    )


def test_the_costliest_decisions_come_first_before_the_deals(
    client: Client, online: OnlineGame
) -> None:
    page = reader(online.seat_0).get(reverse("play:online_review", args=[online.pk]))
    html = page.content.decode()
    review = GameReview.objects.get(online=online)
    marked = [d for d in decisions(review) if d["marked"]]
    costliest = html.split('class="review-costliest')[1].split("</ol>")[0]
    assert html.index("review-costliest") < html.index('class="review-deals"')
    lost = re.findall(r'class="review-line-lost"><strong>([\d.]+)</strong>', costliest)
    costliest_0 = sorted((d["lost"] for d in marked if d["seat"] == 0), reverse=True)[:3]
    costliest_1 = sorted((d["lost"] for d in marked if d["seat"] == 1), reverse=True)[:3]
    assert lost == [figure(points, "en") for points in costliest_0 + costliest_1]


def mistakes_of(review: GameReview, seats: tuple[int, ...]) -> list[str]:
    return [
        f"decision-{index}"
        for index, decision in enumerate(decisions(review), start=1)
        if decision["marked"] and decision["seat"] in seats
    ]


def links(page: str) -> list[tuple[str, str, bool]]:
    """The links choosing what is listed: (label, href, current)."""
    nav = page.split('class="review-shown"')[1].split("</nav>")[0]
    found = re.findall(
        r'<a id="[^"]*" href="([^"]*)"[^>]*?( aria-current="page")?><span>([^<]*)</span>', nav
    )
    return [
        (entities.unescape(label), entities.unescape(href), bool(current))
        for href, current, label in found
    ]


@pytest.mark.parametrize(
    ("language", "all_", "mine", "theirs"),
    [
        ("en", "All decisions", "Only my mistakes", "Only mistakes by {}"),
        ("sv", "Alla beslut", "Bara mina misstag", "Bara misstag av {}"),
    ],
)
def test_a_player_lists_only_their_own_mistakes_or_their_opponents(
    online: OnlineGame, language: str, all_: str, mine: str, theirs: str
) -> None:
    url = reverse("play:online_review", args=[online.pk])
    review = GameReview.objects.get(online=online)
    everything = [f"decision-{index}" for index in range(1, len(decisions(review)) + 1)]
    names = (member_name(online.seat_0), member_name(online.pair[1]))
    for seat, player in enumerate(online.pair):
        other = 1 - seat
        client = reader(player, language)
        page = client.get(url).content.decode()
        assert listed(page) == everything
        assert links(page) == [
            (all_, url, True),
            (mine, f"{url}?only=mistakes", False),
            (theirs.format(names[other]), f"{url}?only=mistakes&seat={other}", False),
        ]
        own = client.get(f"{url}?only=mistakes").content.decode()
        assert listed(own) == mistakes_of(review, (seat,))
        assert listed(own)  # each made a mistake in this game
        assert all(names[seat] in line for line in lines(own).values())
        assert (mine, f"{url}?only=mistakes", True) in links(own)
        showing = "Showing" if language == "en" else "Visar"
        assert f"{showing} {len(listed(own))} " in own
        others = client.get(f"{url}?only=mistakes&seat={other}").content.decode()
        assert listed(others) == mistakes_of(review, (other,))
        assert links(others)[2][2]  # the current choice


def test_the_filter_keeps_the_figures_and_narrows_the_costliest_to_the_player(
    online: OnlineGame,
) -> None:
    url = reverse("play:online_review", args=[online.pk])
    names = (member_name(online.seat_0), member_name(online.pair[1]))

    def costliest(page: str) -> list[str]:
        listed = page.split('class="review-costliest')[1].split("</ol>")[0]
        return re.findall(r'class="review-line-title">([^<]*)<', listed)

    everything = reader(online.seat_0).get(url).content.decode()
    assert {title.split(" · ")[-1] for title in costliest(everything)} == set(names)
    mine = reader(online.seat_0).get(f"{url}?only=mistakes").content.decode()
    assert costliest(mine)
    assert {title.split(" · ")[-1] for title in costliest(mine)} == {names[0]}
    totals = mine.split("review-totals")[1].split("</table>")[0]
    assert names[0] in totals
    assert names[1] in totals  # the figures stay both players'


def test_htmx_swaps_the_list_and_the_page_works_without_it(online: OnlineGame) -> None:
    url = reverse("play:online_review", args=[online.pk])
    client = reader(online.seat_0)
    page = client.get(f"{url}?only=mistakes").content.decode()
    nav = page.split('class="review-shown"')[1].split("</nav>")[0]
    assert f'href="{url}?only=mistakes"' in nav  # a real link, for a page without htmx
    assert f'hx-get="{url}?only=mistakes"' in nav
    assert 'hx-push-url="true"' in nav
    swapped = client.get(
        f"{url}?only=mistakes", headers={"HX-Request": "true", "HX-Target": "review-content"}
    ).content.decode()
    assert swapped.lstrip().startswith('<div id="review-content"')
    assert listed(swapped) == listed(page)
    # Going back in the browser's history asks htmx for the whole page.
    restored = client.get(
        f"{url}?only=mistakes", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"}
    ).content.decode()
    assert restored.lstrip().startswith("<!doctype html>")


def test_a_spectator_lists_one_players_mistakes_or_both(
    championship_match: Match,  # noqa: F811
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(accepted(championship_match))
    url = reverse("play:online_review", args=[game.pk])
    review = GameReview.objects.get(online=game)
    spectator = reader(member("cecilia", "Cecilia Ek"), "sv")
    page = spectator.get(url).content.decode()
    labels = [label for label, _href, _current in links(page)]
    assert "Bara mina misstag" not in labels  # not theirs: they did not play
    assert labels[0] == "Alla beslut"
    assert [href for _label, href, _current in links(page)][1:] == [
        f"{url}?only=mistakes&seat=0",
        f"{url}?only=mistakes&seat=1",
    ]
    for seat in (0, 1):
        one = spectator.get(f"{url}?only=mistakes&seat={seat}").content.decode()
        assert listed(one) == mistakes_of(review, (seat,))
    both = spectator.get(f"{url}?only=mistakes").content.decode()
    assert listed(both) == mistakes_of(review, (0, 1))
    for nonsense in ("?only=mistakes&seat=7", "?only=everything"):
        odd = spectator.get(url + nonsense)
        assert odd.status_code == 200
    assert listed(spectator.get(url + "?only=everything").content.decode()) == listed(page)
