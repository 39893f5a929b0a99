"""A cache that cannot be reached is never a 500 (docs/operating.md, "The cache", "Throttles").

With the site's Redis stopped, or its cache folder unusable, a round's page, the
standings, a login, a password reset and a guest's new game all work; the password reset
limits fail closed (the usual answer, no mail), the guest game limit fails open; a PDF
waits ("being prepared", nothing rendered). Once the cache is back the next request uses
it again, without a restart. Each test runs the site's cache as ``CACHE_URL`` configures
it (``config.environment.cache_at``): its own Redis server, or a folder of its own.
"""

from __future__ import annotations

import logging
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from django.core import mail
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from config.environment import cache_at
from core.cache import RETRY_SECONDS
from play.models import PracticeGame
from tests.conftest import RedisServer
from tests.factories import OrganiserFactory, UserFactory
from tests.tournaments.conftest import make_tournament, play_round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

PREPARING = "The PDF is being prepared"
WARNED = "cannot be reached"
BACK = "answers again"


@dataclass(frozen=True)
class Site:
    round_url: str
    standings_url: str
    pdf_url: str


@pytest.fixture
def site() -> Site:
    """Round 1 closed, round 2 published; a member, maja, who may forget her password."""
    organiser = OrganiserFactory.create(username="organiser")
    tournament = make_tournament(8)
    play_round(tournament, organiser)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    UserFactory.create(username="maja", email="maja@example.se")
    return Site(
        round_url=reverse("tournaments:round", args=[tournament.slug, 2]),
        standings_url=reverse("tournaments:standings", args=[tournament.slug]),
        pdf_url=reverse("tournaments:pairings_pdf", args=[tournament.slug, 2]),
    )


@contextmanager
def site_cache(url: str) -> Iterator[None]:
    """The site's cache as ``CACHE_URL=url`` makes it, for this test's database."""
    cache = cache_at(url, database=connection.settings_dict)
    with override_settings(CACHES={"default": cache}):
        yield


def reader() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def served_without_the_cache(site: Site, renders: list[str]) -> None:
    """Everything a venue does works, each limit as documented, and the PDF waits."""
    round_page = reader().get(site.round_url)
    assert round_page.status_code == 200
    assert "Player 00" in round_page.content.decode()  # the pairings, drawn without the cache
    standings = reader().get(site.standings_url)
    assert standings.status_code == 200
    assert "Player 00" in standings.content.decode()

    pdf = reader().get(site.pdf_url)
    assert pdf.status_code == 200
    assert PREPARING in pdf.content.decode()
    assert renders == []  # nothing queued: its PDF could not be kept

    member = reader()
    login = member.post(reverse("login"), {"username": "maja", "password": "secret-pass-121"})
    assert login.status_code == 302
    assert member.get(reverse("account")).status_code == 200

    # Fails closed, in silence: the page's usual answer, and no mail.
    reset = reader().post(reverse("password_reset"), {"email": "maja@example.se"})
    assert reset.status_code == 302
    assert reset["Location"] == reverse("password_reset_done")
    assert mail.outbox == []

    # Fails open: the guest gets their game.
    games = PracticeGame.objects.count()
    guest = reader().post(reverse("play:start"), {"level": "easy", "best_of": "1"})
    assert guest.status_code == 302
    assert PracticeGame.objects.count() == games + 1


def used_again(site: Site, renders: list[str]) -> None:
    """Once the cache answers again: the PDF is rendered, kept and served from it; the
    reset mail goes out."""
    time.sleep(RETRY_SECONDS)
    pdf = reader().get(site.pdf_url)
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert reader().get(site.pdf_url)["Content-Type"] == "application/pdf"
    assert renders == ["pairings"]  # the second reader's copy came from the cache
    reader().post(reverse("password_reset"), {"email": "maja@example.se"})
    assert [message.to for message in mail.outbox] == [["maja@example.se"]]


def warnings(caplog: pytest.LogCaptureFixture, text: str) -> int:
    return sum(text in record.getMessage() for record in caplog.records)


@pytest.mark.redis
def test_with_redis_stopped_the_site_works_without_it_and_uses_it_again_when_it_is_back(
    site: Site,
    redis_server: RedisServer,
    renders: list[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="core.cache")
    store = redis.Redis.from_url(redis_server.url)
    with site_cache(redis_server.url):
        assert reader().get(site.round_url).status_code == 200
        assert store.dbsize() > 0  # the round's table is kept in Redis

        redis_server.stop()
        served_without_the_cache(site, renders)
        assert warnings(caplog, WARNED) == 1  # one line, not one per request

        redis_server.start()
        used_again(site, renders)
        assert store.dbsize() > 0
        assert warnings(caplog, BACK) == 1


def test_with_the_cache_folder_gone_the_site_works_without_it_until_it_can_be_made(
    site: Site, tmp_path: Path, renders: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    """The folder cannot be made: where it should be is a file (a volume not mounted, a
    path mistyped). Once it can be made, the cache is used again."""
    caplog.set_level(logging.INFO, logger="core.cache")
    blocked = tmp_path / "volume"
    blocked.write_text("not a folder")
    with site_cache(f"filecache://{blocked / 'cache'}"):
        served_without_the_cache(site, renders)
        assert warnings(caplog, WARNED) == 1

        blocked.unlink()
        used_again(site, renders)
        assert list((blocked / "cache").glob("*/*.djcache"))


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """``folder`` that nobody may write to, root included (the tests may run as root, whom
    permissions do not stop): the immutable attribute, where the file system and the
    process' capabilities allow it."""
    made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot make a folder read-only here: {made.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_with_the_cache_folder_read_only_the_site_works_without_writing_to_it(
    site: Site, tmp_path: Path, renders: list[str]
) -> None:
    folder = tmp_path / "cache"
    with site_cache(f"filecache://{folder}"):
        assert reader().get(site.round_url).status_code == 200  # some entries kept
        (entries,) = {entry.parent for entry in folder.rglob("*.djcache")}
        with read_only(entries):
            served_without_the_cache(site, renders)
        used_again(site, renders)
