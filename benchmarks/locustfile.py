"""Locust scenarios: a championship venue, and a closed-loop stress of single pages.

Run by ``make load`` (``benchmarks/load.py``), which seeds the venue and writes its
description to the file named by ``VENUE_FILE``. By hand::

    VENUE_FILE=venue.json locust -f benchmarks/locustfile.py --host http://127.0.0.1:8001 \\
        Spectator TablePair Organiser

``LOAD_HOSTS`` (base URLs separated by commas) spreads the users over several servers:
each user takes the next one in turn (``--host`` is then only locust's default).

**The venue.** *Spectators* (the players) open the championship and the round in play,
then poll the round's pairings every 10 s as the page does (htmx, with the ETag of what
they hold), now and then also opening the standings or a player's page. A *table pair*
is the two players of one unreported match, each on their own private link: one reports
the games, the other finds the report on their page and confirms it; then they take the
next unreported table. The pairs take turns so that a table reports one result every
``RESULT_EVERY`` seconds (20: 128 tables over about 40 minutes), each confirmed half
that time after its report (a report awaiting its confirmation is no final result). The
*organiser* logs in, keeps the round's "needs attention" panel open (polled every 15 s),
prints the pairings and the standings, and pairs the side event's proposal again.

Each spectator's poll is counted (``POLLS_FILE``, written when the run stops): polls,
304s, the polls *between two final results* (no confirmation started or ended since
the same spectator's previous poll began), and those with no report either since then
(a report shows in its row, so it moves the round page's version: ``Finals``).

**The PDF burst.** ``RoundReader`` opens the round page as a new visitor (a full render)
every second; ``Burster`` settles the next table by private link and then runs the next
phase of ``PHASES``, in turn: *quiet* (no PDF requests for ``BURST_EVERY`` seconds, 15)
or a burst, one reader (an anonymous visitor, then a logged-in member) asking at once
for the round's ten new documents (five PDFs in two languages) in 25 concurrent tabs,
each reloading "being prepared" when its meta refresh says until its PDF is there. Each
round page is named after the phase it starts in, so one run compares the round page
with and without bursts under the same load of the machine: the p95 of each phase is
the measure.

**The stress** (closed loop, no think time): ``StandingsReader`` asks for the standings
page as a polling browser does (revalidating with its ETag), ``StandingsNewcomer`` as a
new visitor (no ETag: a full render every time), ``Ping`` ``/ping/`` (answered before
the middleware, so not a view of the same stack: ``benchmarks/revalidation.py`` measures
the pages against ``/health/bare/``, which is), ``PdfReader`` a cached standings PDF.
"""

from __future__ import annotations

import html
import itertools
import json
import os
import random
import re
import threading
import time
from typing import Any

from locust import HttpUser, constant, events, task
from locust.clients import HttpSession

from benchmarks.venue_seed import CSRF, VERSION, report_data


def _venue() -> dict[str, Any]:
    with open(os.environ["VENUE_FILE"], encoding="utf-8") as file:
        venue: dict[str, Any] = json.load(file)
    return venue


VENUE = _venue()
SLUG = VENUE["championship"]
ROUND = f"/t/{SLUG}/round/{VENUE['round']}/"
STANDINGS = f"/t/{SLUG}/standings/"
_tables = iter(VENUE["tables"][int(os.environ.get("TABLES_FROM", "0")) :])
_tables_lock = threading.Lock()


def next_table() -> dict[str, Any] | None:
    with _tables_lock:
        return next(_tables, None)


HOSTS = [host for host in os.environ.get("LOAD_HOSTS", "").split(",") if host]
_hosts = itertools.cycle(HOSTS)


class Spread(HttpUser):
    """A user of one of ``LOAD_HOSTS``, each in turn (of ``--host`` without them)."""

    abstract = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if HOSTS:
            self.host = next(_hosts)
        super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]


class Finals:
    """When the last confirmation (a final result) and the last report started or ended,
    and the polls seen: all of them, those between two final results (no confirmation
    since the same spectator's previous poll began) and those between two results of any
    kind (no report either: the round's page shows a report in its row, so a report
    moves its version too)."""

    last = 0.0
    last_report = 0.0
    polls = {
        "polls": 0,
        "not_modified": 0,
        "between": 0,
        "between_not_modified": 0,
        "unchanged": 0,
        "unchanged_not_modified": 0,
    }

    @classmethod
    def moved(cls) -> None:
        cls.last = time.monotonic()

    @classmethod
    def reported(cls) -> None:
        cls.last_report = time.monotonic()

    @classmethod
    def poll(cls, started: float, previous: float | None, status: int) -> None:
        cls.polls["polls"] += 1
        cls.polls["not_modified"] += status == 304
        if previous is not None and cls.last < previous:
            cls.polls["between"] += 1
            cls.polls["between_not_modified"] += status == 304
            if cls.last_report < previous:
                cls.polls["unchanged"] += 1
                cls.polls["unchanged_not_modified"] += status == 304


@events.quitting.add_listener  # type: ignore[untyped-decorator]
def _write_polls(environment: Any, **kwargs: Any) -> None:
    if os.environ.get("POLLS_FILE"):
        with open(os.environ["POLLS_FILE"], "w", encoding="utf-8") as file:
            json.dump(Finals.polls, file)


class Revalidating:
    """What a browser keeps of each page: its ETag, sent back as If-None-Match."""

    def __init__(self) -> None:
        self.etags: dict[tuple[str, str], str] = {}

    def get(self, client: HttpSession, url: str, *, target: str = "", name: str = "") -> int:
        headers = {"HX-Request": "true", "HX-Target": target} if target else {}
        held = self.etags.get((url, target))
        if held:
            headers["If-None-Match"] = held
        with client.get(url, headers=headers, name=name or url, catch_response=True) as response:
            if response.status_code == 304 or response.ok:
                if "ETag" in response.headers:
                    self.etags[(url, target)] = response.headers["ETag"]
                response.success()
            else:
                response.failure(f"{response.status_code}")
            return int(response.status_code)


class Spectator(Spread):
    """A player at the venue: polls the round page every 10 s, now and then looks around."""

    weight = 1
    wait_time = constant(10)

    def on_start(self) -> None:
        self.cache = Revalidating()
        self.cache.get(self.client, f"/t/{SLUG}/", name="tournament page")
        self.cache.get(self.client, ROUND, name="round page")
        self.polled: float | None = None
        time.sleep(random.uniform(0, 10))  # the players did not all arrive at once

    @task
    def poll_the_round(self) -> None:
        started = time.monotonic()
        status = self.cache.get(self.client, ROUND, target="pairings", name="round page, polled")
        Finals.poll(started, self.polled, status)
        self.polled = started
        chance = random.random()
        if chance < 0.1:
            self.cache.get(self.client, STANDINGS, name="standings page")
        elif chance < 0.2:
            table = random.choice(VENUE["tables"])
            self.cache.get(self.client, f"/t/{SLUG}/match/{table['match']}/", name="match page")


RESULT_EVERY = float(os.environ.get("RESULT_EVERY", "20"))
_slots = {"next": 0.0}
_slots_lock = threading.Lock()


def wait_for_a_slot(every: float) -> None:
    """Take the next turn to report: one table every ``every`` seconds across all pairs."""
    with _slots_lock:
        now = time.monotonic()
        slot = max(now, _slots["next"])
        _slots["next"] = slot + every
    time.sleep(slot - now)


class TablePair(Spread):
    """Two players of one table, each with their own browser and private link."""

    fixed_count = 8
    wait_time = constant(0)  # each waits for its turn (``wait_for_a_slot``)

    def on_start(self) -> None:
        self.opponent = HttpSession(
            base_url=self.host, request_event=self.environment.events.request, user=self
        )
        self.table = next_table()
        self.answer_after = RESULT_EVERY / 2

    def _page(self, client: HttpSession, key: str) -> str:
        return client.get(f"/p/{key}/", name="private page").text

    @task
    def play_a_table(self) -> None:
        if self.table is None:
            self._page(self.client, VENUE["tables"][0]["keys"][0])  # every table is reported
            time.sleep(30)
            return
        wait_for_a_slot(RESULT_EVERY)
        self.settle(self.table)
        self.table = next_table()

    def settle(self, table: dict[str, Any]) -> None:
        """Report the table's match on one link, confirm it on the other."""
        match, (reporter, confirmer) = table["match"], table["keys"]
        page = self._page(self.client, reporter)
        self._page(self.opponent, confirmer)
        games = report_data(random.randint(50, 119))
        Finals.reported()
        self._post(self.client, f"/t/{SLUG}/match/{match}/report/", page, games, "report")
        Finals.reported()
        time.sleep(self.answer_after)  # the opponent checks the report: the polls meanwhile
        page = self._page(self.opponent, confirmer)
        version = VERSION.search(page)
        if version is None:
            return
        data = {"version": version.group(1)}
        Finals.moved()
        self._post(self.opponent, f"/t/{SLUG}/match/{match}/confirm/", page, data, "confirm")
        Finals.moved()

    def _post(
        self, client: HttpSession, url: str, page: str, data: dict[str, str], name: str
    ) -> None:
        token = CSRF.search(page)
        data = {"csrfmiddlewaretoken": token.group(1) if token else "", **data}
        with client.post(url, data=data, name=name, catch_response=True) as response:
            # A refused report or confirmation comes back as the page with an alert.
            if response.ok and 'role="alert"' not in response.text:
                response.success()
            else:
                response.failure(f"{response.status_code}: refused")


class Organiser(Spread):
    weight = 1
    fixed_count = 1
    wait_time = constant(15)

    def on_start(self) -> None:
        log_in(self.client, VENUE["organiser"])
        self.turn = itertools.count()

    @task
    def keep_the_desk(self) -> None:
        self.client.get(
            ROUND, headers={"HX-Request": "true", "HX-Target": "attention"}, name="desk"
        )
        turn = next(self.turn)
        if turn % 4 == 0:
            self.client.get(f"{ROUND}pairings.pdf", name="pairings PDF (organiser)")
            self.client.get(f"/t/{SLUG}/standings.pdf", name="standings PDF (organiser)")
        if turn % 4 == 2:
            side_round = f"/t/{VENUE['side']}/round/1/"
            page = self.client.get(side_round, name="side event proposal").text
            token = CSRF.search(page)
            self.client.post(
                f"{side_round}repair/",
                data={"csrfmiddlewaretoken": token.group(1) if token else ""},
                name="pair again",
            )


def log_in(client: HttpSession, account: dict[str, str]) -> None:
    page = client.get("/accounts/login/", name="login page").text
    client.post(
        "/accounts/login/",
        data={
            "csrfmiddlewaretoken": CSRF.search(page).group(1),  # type: ignore[union-attr]
            **account,
        },
        name="log in",
    )


class StandingsReader(HttpUser):
    wait_time = constant(0)

    def on_start(self) -> None:
        self.cache = Revalidating()

    @task
    def standings(self) -> None:
        self.cache.get(self.client, STANDINGS, name="standings (revalidating)")


class StandingsNewcomer(HttpUser):
    wait_time = constant(0)

    @task
    def standings(self) -> None:
        self.client.get(STANDINGS, name="standings (new visitor, full render)")


class Ping(HttpUser):
    wait_time = constant(0)

    @task
    def ping(self) -> None:
        self.client.get("/ping/", name="trivial view")


class PdfReader(HttpUser):
    wait_time = constant(0)

    @task
    def standings_pdf(self) -> None:
        # A closed round's standings: cached after the first render, as at a venue.
        self.client.get(f"/t/{SLUG}/standings.pdf?round={VENUE['round'] - 1}", name="cached PDF")


# The burst's phases, in turn, each started by a final result: as long without PDFs as with.
PHASES = ["quiet", "anonymous", "quiet", "member"]
_phase = {"name": "start"}


class RoundReader(Spread):
    """A new visitor opening the round page (no ETag: a full render), once a second; the
    request is named after the burst's phase it starts in."""

    wait_time = constant(1)

    @task
    def round_page(self) -> None:
        self.client.get(ROUND, name=f"round page ({_phase['name']})")


BURST_EVERY = float(os.environ.get("BURST_EVERY", "15"))
# "Being prepared"'s meta refresh: when, and where.
REFRESH = re.compile(r'http-equiv="refresh" content="(\d+);url=([^"]+)"')
BURST_REQUESTS = 25
# How long a tab keeps reloading "being prepared" before the run calls it a failure.
BURST_PATIENCE = 90.0
# The round's documents that a final result makes new, in two languages: ten documents.
DOCUMENTS = [
    f"{ROUND}pairings.pdf",
    f"{ROUND}scoresheets.pdf?per_page=2",
    f"{ROUND}scoresheets.pdf?per_page=4",
    f"{STANDINGS[:-1]}.pdf?round={VENUE['round']}",
    f"/t/{SLUG}/crosstable.pdf",
]


class Burster(TablePair):
    """Settles the next table by private link, then runs the next of ``PHASES``: quiet
    (nothing more for ``BURST_EVERY`` s) or a burst, one reader's 25 concurrent requests
    for the ten documents the result made new, each tab reloading the "being prepared"
    page as a browser does until its PDF is there (at least ``BURST_EVERY`` s)."""

    fixed_count = 1

    def on_start(self) -> None:
        super().on_start()
        self.answer_after = 1.0
        self.readers = {
            "anonymous": self._session(),
            "member": self._session(),
        }
        log_in(self.readers["member"], VENUE["member"])
        self.phases = itertools.cycle(PHASES)

    def _session(self) -> HttpSession:
        return HttpSession(
            base_url=self.host, request_event=self.environment.events.request, user=self
        )

    @task
    def play_a_table(self) -> None:
        if self.table is None:
            _phase["name"] = "done"  # no table left to report: nothing to compare
            time.sleep(BURST_EVERY)
            return
        self.settle(self.table)
        self.table = next_table()
        started = time.monotonic()
        phase = next(self.phases)
        _phase["name"] = phase
        if phase != "quiet":
            # Threads are greenlets here (locust patches the standard library for gevent).
            tabs = []
            for n in range(BURST_REQUESTS):
                document = n % (2 * len(DOCUMENTS))
                url = DOCUMENTS[document % len(DOCUMENTS)]
                language = "sv" if document < len(DOCUMENTS) else "en"
                reader = self.readers[phase]
                tabs.append(threading.Thread(target=self._tab, args=(reader, url, language)))
            for tab in tabs:
                tab.start()
            for tab in tabs:
                tab.join()
        time.sleep(max(0.0, started + BURST_EVERY - time.monotonic()))

    def _tab(self, reader: HttpSession, url: str, language: str) -> None:
        """One tab: the document, reloaded as "being prepared" says (its meta refresh)."""
        headers = {"Accept-Language": language}
        name = "burst PDF"
        given_up = time.monotonic() + BURST_PATIENCE
        while True:
            with reader.get(url, headers=headers, name=name, catch_response=True) as r:
                if r.status_code == 429:  # the reader's limit: a page saying so
                    r.success()
                    return
                if r.status_code != 200:
                    r.failure(str(r.status_code))
                    return
                if r.headers.get("Content-Type", "").startswith("application/pdf"):
                    r.success()
                    return
                refresh = REFRESH.search(r.text)
                if refresh is None or time.monotonic() > given_up:
                    r.failure("still being prepared" if refresh else "no refresh")
                    return
                r.success()
            name = "burst PDF, reloaded"
            time.sleep(int(refresh.group(1)))
            url = html.unescape(refresh.group(2))
