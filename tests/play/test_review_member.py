"""``manage.py review_game`` and a member's accuracy over their last reviewed games on
their page (docs/game-record.md, "The review of a game")."""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks

from play.models import GameReview, PracticeGame
from tests.factories import PlayerFactory
from tests.play.factories import PracticeGameFactory

pytestmark = pytest.mark.django_db


def review_json(*arguments: str) -> dict[str, object]:
    out = io.StringIO()
    call_command("review_game", *arguments, "--json", stdout=out)
    data: dict[str, object] = json.loads(out.getvalue())
    return data


def test_the_command_prints_the_review_as_the_issues_machine_interface_says() -> None:
    practice = PracticeGameFactory.create(finished=True)
    assert not GameReview.objects.exists()  # the queue ran on no commit: not stored yet
    data = review_json("practice", str(practice.pk))
    assert GameReview.objects.filter(practice=practice).count() == 1  # computed and stored
    decisions = data["decisions"]
    assert isinstance(decisions, list)
    assert decisions
    kinds = {decision["kind"] for decision in decisions}
    assert kinds <= {"discard", "play", "count"}
    assert {"discard", "play"} <= kinds
    for decision in decisions:
        assert {"game", "deal", "seat", "kind", "lost"} <= decision.keys()
        if decision["kind"] == "discard":
            assert {"hand", "dealer", "options", "chosen", "best"} <= decision.keys()
            assert len(decision["hand"]) == 6
            assert len(decision["options"]) == 15
            assert {"discard", "hand_ev", "crib_ev", "net"} <= decision["options"][0].keys()
            assert re.fullmatch(r"[A2-9TJQK][CDHS]", decision["hand"][0])
        elif decision["kind"] == "play":
            assert {"count_before", "chosen", "best"} <= decision.keys()
    assert review_json("practice", str(practice.pk)) == data  # stored: the same again


def test_the_command_prints_the_review_as_text_too() -> None:
    practice = PracticeGameFactory.create(finished=True)
    out = io.StringIO()
    call_command("review_game", "practice", str(practice.pk), stdout=out)
    text = out.getvalue()
    assert text.startswith("Player 0: accuracy ")
    assert "game 1 deal 1 player 0 discard" in text


def test_the_command_refuses_a_game_in_progress_and_one_that_does_not_exist() -> None:
    practice = PracticeGameFactory.create()
    with pytest.raises(CommandError, match="still being played"):
        call_command("review_game", "practice", str(practice.pk), "--json")
    with pytest.raises(CommandError, match="There is no online game 999"):
        call_command("review_game", "online", "999")
    assert not GameReview.objects.exists()


def test_a_members_page_shows_their_accuracy_in_their_last_games(
    client: Client, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    owner = PracticeGameFactory.create().owner
    assert owner is not None
    player = PlayerFactory.create(user=owner, name="Anna Ek")
    url = reverse("player_detail", args=[player.pk])
    client.cookies["django_language"] = "en"
    assert "Accuracy in the last games" not in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        games = [PracticeGameFactory.create(owner=owner, finished=True) for _ in range(3)]
        PracticeGameFactory.create(finished=True)  # someone else's: not theirs
    html = client.get(url).content.decode()
    panel = html.split('class="panel accuracy-panel"')[1].split("</section>")[0]
    assert '<svg class="accuracy-chart"' in panel
    assert panel.count("<polyline") == 2  # the discards and the play
    assert panel.count("<circle") == 3
    rows = panel.split("<tbody>")[1].split("</tbody>")[0].count("<tr>")
    assert rows == 3
    figures = [GameReview.objects.get(practice=game).discard_accuracy_0 for game in games]
    for figure in figures:
        assert f"{figure:.1f}" in panel
    client.cookies["django_language"] = "sv"
    swedish = client.get(url).content.decode()
    assert "Träffsäkerhet i de senaste partierna" in swedish


def test_a_guests_games_count_for_nobody(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    from tests.play.factories import GuestPracticeGameFactory

    with django_capture_on_commit_callbacks(execute=True):
        guest: PracticeGame = GuestPracticeGameFactory.create(finished=True)
    review = GameReview.objects.get(practice=guest)
    assert (review.member_0, review.member_1) == (None, None)
