"""Two real servers over one PostgreSQL and one Redis behave as one site.

Two gunicorn servers on two ports, as two machines behind a proxy would run them, and
one task worker (``manage.py db_worker``), over this test's PostgreSQL database and one
Redis (``CACHE_URL``, under a key prefix of this run's own). What a player, a spectator
or an abuser would notice must not depend on which server answers: a result reported
on one shows on the other at once, failed logins and rate limits count across both,
and one PDF asked for on both is rendered once (docs/operating.md, "Several servers").
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlencode

import pytest
import redis
from django.db import connection
from django.urls import reverse
from django_ratelimit.core import _get_window
from django_tasks_db.models import DBTaskResult

from printing.tasks import render_pdf
from tests.conftest import skip_or_fail
from tests.factories import UserFactory
from tests.processes import database_url, free_port, started, stop
from tests.tournaments.conftest import make_tournament, seats
from tournaments.models import Match, Tournament
from tournaments.services import rounds

pytestmark = [pytest.mark.postgres, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# How long a server may take to start, and a render to be done.
START_SECONDS = 60
RENDER_SECONDS = 90


@dataclass(frozen=True)
class Servers:
    a: str
    b: str


def _wait_for_ping(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server at {url} stopped:\n{log.read_text()[-3000:]}")
        try:
            if fetch(f"{url}/ping/").text == "ok":
                return
        except OSError:  # not listening yet, or still loading the site
            pass
        time.sleep(0.2)
    pytest.fail(f"the server at {url} did not answer /ping/ in {START_SECONDS} s")


@pytest.fixture(scope="module")
def servers(
    django_db_setup: None, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Servers]:
    """Servers A and B (2 gunicorn workers each) and one task worker, one database and one
    Redis; stopped, and this run's Redis keys deleted, at the end of the module."""
    if connection.vendor != "postgresql":
        skip_or_fail("this test needs PostgreSQL (set DATABASE_URL=postgres://...)")
    prefix = f"two-servers-{uuid.uuid4().hex}"
    joiner = "&" if "?" in redis_url else "?"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.venue.server_settings",
        "DATABASE_URL": database_url(),
        "CACHE_URL": f"{redis_url}{joiner}key_prefix={prefix}",
        "LOG_LEVEL": "WARNING",
    }
    logs = tmp_path_factory.mktemp("two-servers")
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    processes: list[subprocess.Popen[bytes]] = []
    try:
        worker = [sys.executable, "manage.py", "db_worker", "--no-startup-delay"]
        worker += ["--interval", "0.2", "--queue-name", "*"]
        processes.append(started(worker, env, logs / "worker.log"))
        urls = []
        for name in ("a", "b"):
            port = free_port()
            argv = [gunicorn, "config.wsgi:application", "-b", f"127.0.0.1:{port}", "-w", "2"]
            log = logs / f"{name}.log"
            processes.append(started(argv, env, log))
            urls.append((f"http://127.0.0.1:{port}", processes[-1], log))
        for url, process, log in urls:
            _wait_for_ping(url, process, log)
        yield Servers(a=urls[0][0], b=urls[1][0])
    finally:
        stop(processes)
        store = redis.Redis.from_url(redis_url)
        for key in store.scan_iter(match=f"{prefix}:*"):
            store.delete(key)


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Message
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the redirect is the answer looked at


def fetch(
    url: str,
    *,
    data: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    opener: urllib.request.OpenerDirector | None = None,
) -> Answer:
    """One request; any status is an answer (a 302, a 304, a 429), not an error."""
    body = None if data is None else urlencode(data).encode()
    request = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with (opener or urllib.request.build_opener(_NoRedirects)).open(request, timeout=30) as r:
            return Answer(r.status, r.headers, r.read())
    except HTTPError as error:
        return Answer(error.code, error.headers, error.read())


class Browser:
    """A reader in English with cookies of its own, which sends forms as a browser does:
    with the CSRF token its pages gave."""

    def __init__(self) -> None:
        self.cookies = CookieJar()
        handler = urllib.request.HTTPCookieProcessor(self.cookies)
        self.opener = urllib.request.build_opener(handler, _NoRedirects)

    def get(self, url: str, headers: dict[str, str] | None = None) -> Answer:
        return fetch(url, headers={"Accept-Language": "en", **(headers or {})}, opener=self.opener)

    def post(self, url: str, data: dict[str, str]) -> Answer:
        token = next((c.value for c in self.cookies if c.name == "csrftoken"), None) or ""
        form = {**data, "csrfmiddlewaretoken": token}
        return fetch(url, data=form, headers={"Accept-Language": "en"}, opener=self.opener)


def browser(base: str, path: str = "/") -> Browser:
    """A reader who has opened ``path`` on ``base`` (and so has its cookies)."""
    reader = Browser()
    assert reader.get(base + path).status == 200
    return reader


def published_match(tournament: Tournament) -> Match:
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    match = round_.matches.filter(is_bye=False).order_by("table").first()
    assert match is not None
    return match


def row(page: str, match: Match) -> str:
    """The pairings row of ``match`` on a round's page."""
    found = [part for part in page.split("<tr") if f"/match/{match.pk}/" in part]
    assert len(found) == 1, f"one row for match {match.pk}"
    return found[0].split("</tr>")[0]


def test_a_result_reported_on_one_server_shows_on_the_other_at_once(servers: Servers) -> None:
    tournament = make_tournament(6, accounts=False)
    match = published_match(tournament)
    me = seats(match)[0]
    round_page = reverse("tournaments:round", args=[tournament.slug, 1])
    spectator = browser(servers.b, round_page)
    before = spectator.get(servers.b + round_page)
    etag = before.headers["ETag"]
    assert "Not reported" in row(before.text, match)
    unchanged = spectator.get(servers.b + round_page, headers={"If-None-Match": etag})
    assert unchanged.status == 304

    me.entry.refresh_from_db()
    phone = browser(servers.a, reverse("private_link", kwargs={"key": me.entry.private_key}))
    report = {"first_dealer": "0", "game_1_winner": "0", "game_1_loser_score": "85"}
    report |= {"game_2_winner": "0", "game_2_loser_score": "100"}
    action = reverse("tournaments:match_report", args=[tournament.slug, match.pk])
    assert phone.post(servers.a + action, report).status == 302

    after = spectator.get(servers.b + round_page, headers={"If-None-Match": etag})
    assert after.status == 200
    assert after.headers["ETag"] != etag
    assert "Reported, awaiting confirmation" in row(after.text, match)


def test_failed_logins_on_both_servers_count_toward_one_lock(servers: Servers) -> None:
    UserFactory.create(username="maja")
    login = reverse("login")
    readers = {"a": browser(servers.a, login), "b": browser(servers.b, login)}

    def log_in(server: str, password: str) -> Answer:
        base = servers.a if server == "a" else servers.b
        return readers[server].post(base + login, {"username": "maja", "password": password})

    # 4 failures, 2 on each server: neither has seen the 5 that lock an account.
    for server in ("a", "b", "a", "b"):
        refused = log_in(server, "wrong")
        assert refused.status == 200
        assert "Too many failed logins" not in refused.text
    locked = log_in("a", "wrong")
    assert locked.status == 429
    assert "Too many failed logins." in locked.text
    # The lock holds on the other server, even for the right password.
    assert log_in("b", "secret-pass-121").status == 429


def test_a_rate_limit_counts_requests_to_both_servers(servers: Servers) -> None:
    # Guest game starts: 30 a minute per address (play.views.GUEST_STARTS); the minute is
    # django-ratelimit's window, so start where the 32 requests cannot straddle two.
    left = _get_window("127.0.0.1", 60) - time.time()
    if left < 20:
        time.sleep(left + 1)
    start = reverse("play:start")
    readers = {servers.a: browser(servers.a, "/play/"), servers.b: browser(servers.b, "/play/")}
    # An empty form is refused (400) after it has been counted.
    answers = [readers[base].post(base + start, {}).status for base in [*readers] * 15]
    assert answers == [400] * 30
    assert readers[servers.a].post(servers.a + start, {}).status == 429
    assert readers[servers.b].post(servers.b + start, {}).status == 429


def test_one_pdf_asked_for_on_both_servers_at_once_is_rendered_once(servers: Servers) -> None:
    tournament = make_tournament(6, accounts=False)
    published_match(tournament)
    path = reverse("tournaments:pairings_pdf", args=[tournament.slug, 1])
    bases = [servers.a, servers.b]
    together = threading.Barrier(len(bases))
    first: dict[str, Answer] = {}

    def ask(base: str) -> None:
        together.wait()
        first[base] = fetch(base + path)

    threads = [threading.Thread(target=ask, args=(base,)) for base in bases]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {base: answer.status for base, answer in first.items()} == dict.fromkeys(bases, 200)
    # Both requests are answered: whatever they queued is in the queue now.
    renders = DBTaskResult.objects.filter(task_path=render_pdf.module_path)
    assert renders.count() == 1

    pdfs = {base: _pdf_when_ready(base + path) for base in bases}
    assert pdfs[servers.a].startswith(b"%PDF")
    assert pdfs[servers.a] == pdfs[servers.b]
    assert [task.status for task in renders] == ["SUCCESSFUL"]


def _pdf_when_ready(url: str) -> bytes:
    """The PDF at ``url`` once the worker has rendered it (the page says "being prepared"
    until then)."""
    deadline = time.monotonic() + RENDER_SECONDS
    answer = None
    while time.monotonic() < deadline:
        answer = fetch(url)
        if answer.headers.get("Content-Type") == "application/pdf":
            return answer.body
        time.sleep(0.3)
    pytest.fail(f"no PDF at {url} after {RENDER_SECONDS} s (last answer {answer})")
