"""The review of a practice game through its page, in both languages: nobody sees it
before the game is over; once over it is computed by a task and stored; the page of a
review not ready yet says so and fills in (docs/review.md)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from pytest_django import DjangoCaptureOnCommitCallbacks

from play.models import GameReview, PracticeGame
from play.reviews import Kind, review_store
from play.services import practice_autoplay
from scoring.review import REVIEW_VERSION
from tests.play.factories import PracticeGameFactory, owner_of
from tests.queue import DATABASE_TASKS, run_queue, waiting

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "review-content"}
TASK = "play.tasks.compute_review"


@pytest.fixture
def finished(django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks) -> PracticeGame:
    """A member's practice game played to its end by the computer, its review queued as
    the game ended (the test settings' queue runs it at once)."""
    with django_capture_on_commit_callbacks(execute=True):
        practice = PracticeGameFactory.create(finished=True)
    return practice


def test_a_game_that_ends_has_its_review_computed_and_stored_once(finished: PracticeGame) -> None:
    review = GameReview.objects.get(practice=finished)
    assert review.version == REVIEW_VERSION
    assert review.member_0 == finished.owner
    assert review.member_1 is None
    assert review.decisions_0 > 0
    assert 0 <= review.accuracy_0 <= 100
    assert review.review["decisions"]
    computed = review.computed_at
    assert review_store(kind=Kind.PRACTICE, pk=finished.pk) == review  # nothing new
    review.refresh_from_db()
    assert review.computed_at == computed


def test_a_game_in_progress_has_no_review_nor_a_task(
    client: Client, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with override_settings(TASKS=DATABASE_TASKS), django_capture_on_commit_callbacks(execute=True):
        practice = PracticeGameFactory.create()
        assert waiting(TASK) == []
        client.force_login(owner_of(practice))
        assert client.get(reverse("play:review", args=[practice.pk])).status_code == 404
        assert waiting(TASK) == []
        assert review_store(kind=Kind.PRACTICE, pk=practice.pk) is None
    assert not GameReview.objects.exists()


def page(client: Client, practice: PracticeGame, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(reverse("play:review", args=[practice.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Analysis of the game", "Accuracy", "Given away in the discards", "The best")),
        ("sv", ("Analys av partiet", "Träffsäkerhet", "Bortgivet vid krubban", "Bästa")),
    ],
)
def test_the_owner_reads_the_review_in_both_languages(
    client: Client, finished: PracticeGame, language: str, words: tuple[str, ...]
) -> None:
    client.force_login(owner_of(finished))
    html = page(client, finished, language)
    for word in words:
        assert word in html
    # Every discard of the player's: its six cards, the choice made and the best, and the
    # 15 options with the chosen and the best named in words, not by colour alone.
    discards = html.count('class="review-choices"')
    assert discards >= 8
    assert html.count("<tbody>") >= 1 + html.count("review-options-table")
    table = html.split('class="table review-options-table"')[1].split("</table>")[0]
    assert table.count("<tr") == 16
    assert re.search(r'<tr class="[^"]*best', table)
    assert re.search(r'<tr class="[^"]*chosen', table)
    assert "<caption" in html
    assert 'scope="col"' in html


def test_the_costliest_decisions_link_to_their_moment_in_the_replay(
    client: Client, finished: PracticeGame
) -> None:
    client.force_login(owner_of(finished))
    html = page(client, finished, "en")
    costliest = html.split('class="review-costliest')[1].split("</ol>")[0]
    links = re.findall(r'href="(/play/\d+/replay/\?game=1&amp;step=\d+)"', costliest)
    assert 1 <= len(links) <= 3
    replay = client.get(links[0].replace("&amp;", "&"))
    assert replay.status_code == 200


def test_the_finished_game_and_its_replay_link_to_the_review(
    client: Client, finished: PracticeGame
) -> None:
    client.force_login(owner_of(finished))
    review_url = reverse("play:review", args=[finished.pk])
    assert review_url in client.get(reverse("play:game", args=[finished.pk])).content.decode()
    assert review_url in client.get(reverse("play:replay", args=[finished.pk])).content.decode()
    assert review_url in client.get(reverse("play:index")).content.decode()


def test_nobody_but_the_owner_reads_a_practice_review(
    client: Client, finished: PracticeGame
) -> None:
    url = reverse("play:review", args=[finished.pk])
    assert client.get(url).status_code == 404
    client.force_login(owner_of(PracticeGameFactory.create()))
    assert client.get(url).status_code == 404


def test_the_review_not_ready_says_so_and_fills_in_when_the_worker_has_made_it(
    client: Client, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    with override_settings(TASKS=DATABASE_TASKS):
        with django_capture_on_commit_callbacks(execute=True):
            practice = PracticeGameFactory.create(finished=True)
        assert len(waiting(TASK)) == 1  # queued as the game ended, not yet run
        client.force_login(owner_of(practice))
        client.cookies["django_language"] = "en"
        url = reverse("play:review", args=[practice.pk])
        first = client.get(url).content.decode()
        assert "being prepared" in first
        assert 'http-equiv="refresh"' in first
        assert 'hx-trigger="every' in first
        client.get(url)
        assert len(waiting(TASK)) == 1  # its readers queue nothing more meanwhile
        assert run_queue() == 1
        assert GameReview.objects.count() == 1
        polled = client.get(url, headers=HTMX).content.decode()
        assert polled.lstrip().startswith('<div id="review-content"')
        assert "hx-trigger" not in polled
        assert "review-choices" in polled
        assert "refresh" not in client.get(url).content.decode().split("<body")[0]


def test_a_finished_game_whose_end_queued_nothing_is_queued_once_by_its_page(
    client: Client,
) -> None:
    with override_settings(TASKS=DATABASE_TASKS):
        practice = PracticeGameFactory.create(finished=True)  # no commit: nothing queued
        assert waiting(TASK) == []
        client.force_login(owner_of(practice))
        url = reverse("play:review", args=[practice.pk])
        client.get(url)
        client.get(url)
        assert len(waiting(TASK)) == 1
        assert run_queue() == 1
    assert GameReview.objects.filter(practice=practice).count() == 1


def test_a_review_of_an_older_version_is_made_again(client: Client, finished: PracticeGame) -> None:
    GameReview.objects.filter(practice=finished).update(version=REVIEW_VERSION - 1)
    cache.clear()  # the marker of the game's end is gone (a new version is a new marker)
    client.force_login(owner_of(finished))
    assert "review-choices" in page(client, finished, "en")  # the queue runs at once
    assert GameReview.objects.get(practice=finished).version == REVIEW_VERSION


def test_a_page_asking_for_a_review_of_an_older_version_says_it_is_being_prepared(
    client: Client, finished: PracticeGame
) -> None:
    """A stored review of an older ``REVIEW_VERSION`` is never shown: its page says the
    review is being prepared, queues it once for the worker, and fills in with the new one."""
    GameReview.objects.filter(practice=finished).update(version=REVIEW_VERSION - 1)
    cache.clear()
    client.force_login(owner_of(finished))
    client.cookies["django_language"] = "en"
    url = reverse("play:review", args=[finished.pk])
    with override_settings(TASKS=DATABASE_TASKS):
        first = client.get(url).content.decode()
        assert "being prepared" in first
        assert "review-choices" not in first  # not the old one
        assert client.get(url, headers=HTMX).content.decode().count("being prepared") == 1
        assert len(waiting(TASK)) == 1  # its readers queue it once
        assert run_queue() == 1
    assert GameReview.objects.get(practice=finished).version == REVIEW_VERSION
    assert "review-choices" in client.get(url).content.decode()


def test_a_guests_game_is_reviewed_for_their_session(
    client: Client, django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks
) -> None:
    client.post(reverse("play:start"), {"level": "easy", "best_of": 1})
    practice = PracticeGame.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        practice_autoplay(practice=practice, level="easy")
    assert "review-choices" in page(client, practice, "sv")
    assert GameReview.objects.get(practice=practice).member_0 is None


def test_after_a_migrate_every_review_of_an_older_version_is_redone_on_the_queue(
    finished: PracticeGame,
) -> None:
    """A release that changes what a review says (``REVIEW_VERSION``) redoes the stored
    reviews on the queue, not only those a reader opens; current ones are left alone."""
    current = PracticeGameFactory.create(finished=True)
    review_store(kind=Kind.PRACTICE, pk=current.pk)
    GameReview.objects.filter(practice=finished).update(version=REVIEW_VERSION - 1, review={})
    cache.clear()
    with override_settings(TASKS=DATABASE_TASKS):
        migrated()
        assert len(waiting(TASK)) == 1  # the outdated one alone
        assert run_queue() == 1
    redone = GameReview.objects.get(practice=finished)
    assert redone.version == REVIEW_VERSION
    assert redone.review["version"] == REVIEW_VERSION


def migrated() -> None:
    """What ``migrate`` announces when it is done."""
    from django.apps import apps
    from django.db.models.signals import post_migrate

    play = apps.get_app_config("play")
    post_migrate.send(
        sender=play,
        app_config=play,
        verbosity=0,
        interactive=False,
        using="default",
        apps=apps,
        plan=[],
    )


@pytest.mark.django_db(transaction=True)
def test_a_migrate_back_past_the_reviews_table_does_not_fail() -> None:
    """The after-migrate hook asks for reviews only where their table is."""
    from django.core.management import call_command

    call_command("migrate", "play", "0007", verbosity=0)
    try:
        assert "play_gamereview" not in connection_tables()
    finally:
        call_command("migrate", verbosity=0)
    assert "play_gamereview" in connection_tables()


def connection_tables() -> list[str]:
    from django.db import connection

    return connection.introspection.table_names()
