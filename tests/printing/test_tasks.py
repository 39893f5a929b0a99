"""A PDF not rendered yet is rendered by the worker, once, while readers get a page at once.

Through the documents of a tournament and the rating list, printing's two users."""

from __future__ import annotations

import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import Settings

from printing import cache, documents
from tests.queue import DATABASE_TASKS, run_queue, waiting
from tests.tournaments.conftest import organiser, playing
from tournaments.models import Tournament

__all__ = ["organiser", "playing"]  # the fixtures, used by name

pytestmark = pytest.mark.django_db

RENDER_TASK = "printing.tasks.render_pdf"


@pytest.fixture
def queued(settings: Settings) -> None:
    """Tasks wait in the database for a worker, as on the site."""
    settings.TASKS = DATABASE_TASKS


def browser(language: str = "en") -> Client:
    client = Client()
    client.cookies["django_language"] = language
    return client


def standings_url(tournament: Tournament, round_number: int = 2) -> str:
    return reverse("tournaments:standings_pdf", args=[tournament.slug]) + f"?round={round_number}"


@pytest.mark.usefixtures("queued")
def test_the_waiting_page_is_in_the_readers_language_and_costs_two_queries(
    playing: Tournament,
) -> None:
    """A reader's tabs reload "being prepared" until their PDF is there: a plain page in
    their language, costing no query beyond the two the document's version needs (a
    guard: the page is what one reader's burst asks for many times a second)."""
    url = standings_url(playing)
    for language in ("sv", "en"):
        browser(language).get(url)  # the first reader in each language queues its render
    for language, words in [
        ("sv", "<h1>Ställning · Rond 2 · "),
        ("en", "<h1>Standings · Round 2 · "),
    ]:
        client = browser(language)
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url)
        text = page.content.decode()
        assert f'<html lang="{language}">' in text
        assert words in text
        assert 'http-equiv="refresh"' in text
        # The tournament and its rounds (the document's version); no session, no user.
        assert len(queries) <= 2, [query["sql"] for query in queries]


@pytest.mark.usefixtures("queued")
def test_the_waiting_page_looks_again_a_second_later_each_time_up_to_ten(
    playing: Tournament,
) -> None:
    """Behind a queue of renders a reader's tabs should not ask every 2 s for a minute:
    the page looks again after 2 s, then 3, 4... at most 10; a bad count starts over."""
    url = standings_url(playing)
    client = browser()
    refresh = re.compile(r'http-equiv="refresh" content="(\d+);url=([^"]+)"')

    def looks_again(address: str) -> tuple[int, str]:
        found = refresh.search(client.get(address).content.decode())
        assert found is not None
        return int(found.group(1)), html.unescape(found.group(2))

    waits = []
    address = url
    for _look in range(11):
        seconds, address = looks_again(address)
        waits.append(seconds)
    assert waits == [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10]
    assert address.startswith(url)  # the same document, its look counted after it
    assert looks_again(url + "&waited=x")[0] == 2
    # The polled fragment slows down the same way.
    fragment = client.get(url + "&waited=3", headers={"HX-Request": "true"})
    assert 'hx-trigger="every 5s"' in fragment.content.decode()


@pytest.mark.usefixtures("queued")
def test_a_new_document_is_prepared_by_the_worker_and_then_served(
    playing: Tournament, renders: list[str]
) -> None:
    client = browser()
    url = standings_url(playing)

    waiting_page = client.get(url)
    assert renders == []  # the request rendered nothing
    assert waiting_page.status_code == 200
    assert waiting_page["Content-Type"].startswith("text/html")
    text = waiting_page.content.decode()
    assert f"<h1>Standings · Round 2 · {playing.name}</h1>" in text  # which document
    assert "The PDF is being prepared and opens here by itself" in text
    assert 'http-equiv="refresh"' in text
    assert 'role="status"' in text
    assert len(waiting(RENDER_TASK)) == 1

    # The page refreshes itself with the validator it was given: never a 304 from it.
    again = client.get(url, headers={"If-None-Match": waiting_page["ETag"]})
    assert again.status_code == 200
    assert "being prepared" in again.content.decode()
    assert len(waiting(RENDER_TASK)) == 1  # not queued twice

    run_queue()  # the render, and the re-rates of the results played before it
    assert waiting(RENDER_TASK) == []
    assert renders == ["standings"]
    pdf = client.get(url, headers={"If-None-Match": waiting_page["ETag"]})
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF-")
    # As before: the reader who has it gets a 304, another reader the cached copy.
    assert client.get(url, headers={"If-None-Match": pdf["ETag"]}).status_code == 304
    assert browser().get(url).content == pdf.content
    assert renders == ["standings"]


@pytest.mark.usefixtures("queued")
def test_a_request_never_renders(playing: Tournament, monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> bytes:
        raise AssertionError("a web request rendered a PDF")

    monkeypatch.setattr(documents, "render_pdf", forbidden)
    for name in ("standings_pdf", "crosstable_pdf"):
        response = browser().get(reverse(f"tournaments:{name}", args=[playing.slug]))
        assert response.status_code == 200
        assert "being prepared" in response.content.decode()


@pytest.mark.usefixtures("queued")
def test_a_burst_of_requests_queues_one_render_per_document(
    playing: Tournament, renders: list[str]
) -> None:
    urls = [
        standings_url(playing, 1),
        standings_url(playing, 2),
        reverse("tournaments:crosstable_pdf", args=[playing.slug]),
        reverse("tournaments:pairings_pdf", args=[playing.slug, 2]),
        reverse("tournaments:scoresheets_pdf", args=[playing.slug, 2]),
    ]
    visitor, others = browser(), [browser() for _ in range(4)]
    for n in range(25):  # one visitor's burst, and other readers of the same documents
        assert visitor.get(urls[n % len(urls)]).status_code == 200
        assert others[n % 4].get(urls[n % len(urls)]).status_code == 200
    assert len(waiting(RENDER_TASK)) == len(urls)
    run_queue()
    assert sorted(renders) == sorted(
        ["standings", "standings", "crosstable", "pairings", "scoresheets"]
    )
    for url in urls:
        assert visitor.get(url)["Content-Type"] == "application/pdf"


@pytest.mark.usefixtures("queued")
def test_the_limit_counts_a_render_once(
    playing: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asking again for a document being prepared, or ready, is never refused."""
    monkeypatch.setattr(cache, "VISITOR_RENDERS", "2/10m")
    client = browser()
    first, second, third = (
        standings_url(playing, 1),
        standings_url(playing, 2),
        reverse("tournaments:crosstable_pdf", args=[playing.slug]),
    )
    for _ in range(10):
        assert client.get(first).status_code == 200
        assert client.get(second).status_code == 200
    assert client.get(third).status_code == 429  # a third new document
    run_queue()
    assert client.get(first)["Content-Type"] == "application/pdf"
    assert len(waiting(RENDER_TASK)) == 0


@pytest.mark.usefixtures("queued")
def test_a_failed_render_says_so_and_can_be_tried_again(
    playing: Tournament, monkeypatch: pytest.MonkeyPatch, renders: list[str]
) -> None:
    client = browser("sv")
    url = reverse("tournaments:crosstable_pdf", args=[playing.slug])
    client.get(url)
    real = documents.render_pdf

    def broken(*args: object, **kwargs: object) -> bytes:
        raise RuntimeError("out of memory")

    monkeypatch.setattr(documents, "render_pdf", broken)
    run_queue()
    failed = client.get(url)
    text = failed.content.decode()
    assert "Något gick fel" in text
    assert 'http-equiv="refresh"' not in text  # no endless waiting
    assert f"{url}?retry=1" in text
    assert waiting(RENDER_TASK) == []

    monkeypatch.setattr(documents, "render_pdf", real)
    retried = client.get(url, {"retry": "1"})
    assert "PDF:en görs i ordning" in retried.content.decode()
    assert len(waiting(RENDER_TASK)) == 1
    run_queue()
    assert client.get(url)["Content-Type"] == "application/pdf"


@pytest.mark.usefixtures("queued")
def test_htmx_gets_202_while_preparing_then_the_link(playing: Tournament) -> None:
    client = browser()
    url = reverse("tournaments:crosstable_pdf", args=[playing.slug])
    preparing = client.get(url, headers={"HX-Request": "true"})
    assert preparing.status_code == 202
    assert 'hx-trigger="every 2s"' in preparing.content.decode()
    run_queue()
    ready = client.get(url, headers={"HX-Request": "true"})
    assert ready.status_code == 200
    assert f'href="{url}"' in ready.content.decode()
    assert "hx-trigger" not in ready.content.decode()


def test_without_a_worker_queue_the_first_request_gets_the_pdf(playing: Tournament) -> None:
    """Tasks run at once (the tests' and a quick look's backend): no page in between."""
    response = browser().get(standings_url(playing))
    assert response["Content-Type"] == "application/pdf"


@pytest.mark.usefixtures("queued")
def test_the_rating_list_is_prepared_by_the_worker(renders: list[str]) -> None:
    client = browser()
    url = reverse("ratings:pdf")
    assert "being prepared" in client.get(url).content.decode()
    assert client.get(url).status_code == 200
    assert len(waiting(RENDER_TASK)) == 1
    run_queue()
    assert client.get(url)["Content-Type"] == "application/pdf"
    assert renders == ["rating_list"]
