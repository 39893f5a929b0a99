"""The people of the soak test's championship day, each a thread speaking HTTP only to the
site (``benchmarks/soak.py``).

Terms (and those of ``benchmarks/soak_browser.py``: browser, answer, tally):
- A person *retries as a person would*: after a missing answer, a 5xx or a refused form
  token they wait a few seconds (``pause``) and try again, reading the page afresh,
  until ``PATIENCE`` runs out.

The people (the *venue* holds what they share: the round in play, the tables left):
- a *table pair* takes the next table (one result every ``result_every`` s across the
  pairs): one player reports the match by private link, the other confirms it half that
  later; a report sent again after a lost answer is the same report, which the site
  takes once; a confirmation refused after a lost answer, with nothing left to confirm
  on the page, was saved by the lost one;
- a *spectator* polls the round's pairings every 10 s as the page does (htmx, with the
  ETag it holds);
- a *reader* asks now and then for the round's pairings or the standings as a PDF and
  follows "being prepared" (its meta refresh; "Try again" after a failed render) until
  the PDF comes;
- the *organiser*, when every table of the round is final, closes it, pairs the next
  and publishes it (their desk: the rounds' states read from the database);
- the *monitor* asks ``/health/`` every second.
"""

from __future__ import annotations

import html
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import psycopg

from benchmarks.soak_browser import Answer, Browser, Tally, failed
from benchmarks.venue_seed import CSRF, VERSION, report_data

PATIENCE = 300.0  # how long a person keeps trying one thing
POLL_SECONDS = 10.0
HEALTH_SECONDS = 1.0
TRIES = 60  # the organiser's tries of one step of a new round
REFRESH = re.compile(r'http-equiv="refresh" content="(\d+);url=([^"]+)"')
RETRY = re.compile(r'href="([^"]*[?&]retry=1[^"]*)"')


@dataclass
class Table:
    match: int
    keys: tuple[str, str]  # the private links of seat 0 (who reports) and seat 1


@dataclass
class Settled:
    """What a table pair did with their match: the result they reported and whether the
    site took the report and the confirmation (each after how many tries)."""

    match: int
    first_dealer: int
    games: list[tuple[int, int]]  # (winner's seat, loser's score) a game
    reported: bool = False
    confirmed: bool = False
    report_tries: int = 0
    confirm_tries: int = 0
    note: str = ""


@dataclass
class PdfRead:
    document: str
    seconds: float
    served: bool
    looks: int
    failures_seen: int


@dataclass
class Venue:
    """What the people share: the championship, the round in play and its tables."""

    base: str
    slug: str
    round: int
    tally: Tally
    stopping: threading.Event
    tables: list[Table] = field(default_factory=list)
    settled: list[Settled] = field(default_factory=list)
    pdfs: list[PdfRead] = field(default_factory=list)
    health: list[tuple[float, int]] = field(default_factory=list)
    playing: int = 0  # tables being settled now
    lock: threading.Lock = field(default_factory=threading.Lock)
    browsers: dict[str, Browser] = field(default_factory=dict)

    def browser(self, key: str) -> Browser:
        with self.lock:
            if key not in self.browsers:
                self.browsers[key] = Browser(self.base, self.tally)
            return self.browsers[key]

    def take_table(self) -> Table | None:
        with self.lock:
            if not self.tables:
                return None
            self.playing += 1
            return self.tables.pop(0)

    def table_done(self, settled: Settled) -> None:
        with self.lock:
            self.playing -= 1
            self.settled.append(settled)

    def round_done(self) -> bool:
        with self.lock:
            return not self.tables and not self.playing

    def new_round(self, number: int, tables: list[Table]) -> None:
        with self.lock:
            self.round, self.tables = number, tables


class Person(threading.Thread):
    def __init__(self, venue: Venue, name: str, seed: int) -> None:
        super().__init__(name=name, daemon=True)
        self.venue = venue
        self.random = random.Random(seed)

    def pause(self, seconds: float | None = None) -> None:
        """A few seconds (or ``seconds``), as a person waits before trying again."""
        time.sleep(self.random.uniform(3, 8) if seconds is None else seconds)

    def idle(self, seconds: float) -> bool:
        """Wait ``seconds`` unless the run stops; True if it did."""
        return self.venue.stopping.wait(seconds)


class Slots:
    """One table reports every ``every`` seconds across all the pairs."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.next = 0.0
        self.lock = threading.Lock()

    def take(self) -> float:
        """The time of the next turn."""
        with self.lock:
            slot = max(time.monotonic(), self.next)
            self.next = slot + self.every
            return slot


class TablePair(Person):
    def __init__(self, venue: Venue, name: str, seed: int, slots: Slots) -> None:
        super().__init__(venue, name, seed)
        self.slots = slots

    def run(self) -> None:
        while not self.venue.stopping.is_set():
            if self.idle(max(0.0, self.slots.take() - time.monotonic())):
                return
            table = self.venue.take_table()
            if table is None:
                continue  # the organiser pairs the next round
            self.venue.table_done(self.settle(table))

    def settle(self, table: Table) -> Settled:
        """Report on one private link, confirm on the other; finished even if the run stops."""
        form = report_data(self.random.randint(50, 119))
        games = [
            (int(form[f"game_{n}_winner"]), int(form[f"game_{n}_loser_score"])) for n in (1, 2, 3)
        ]
        settled = Settled(table.match, int(form["first_dealer"]), games)
        match = f"/t/{self.venue.slug}/match/{table.match}/"
        settled.reported = self.report(table.keys[0], match + "report/", form, settled)
        if settled.reported:
            self.pause(self.slots.every / 2)  # the opponent checks the report
            settled.confirmed = self.confirm(table.keys[1], match + "confirm/", settled)
        return settled

    def page(self, key: str, deadline: float) -> Answer | None:
        """The player's private page, read again until it comes."""
        browser = self.venue.browser(key)
        while time.monotonic() < deadline:
            page = browser.get(f"/p/{key}/", "private page")
            if page.status == 200:
                return page
            self.pause()
        return None

    def report(self, key: str, url: str, form: dict[str, str], settled: Settled) -> bool:
        deadline = time.monotonic() + PATIENCE
        while (page := self.page(key, deadline)) is not None:
            token = CSRF.search(page.text)
            data = {"csrfmiddlewaretoken": token.group(1) if token else "", **form}
            settled.report_tries += 1
            answer = self.venue.browser(key).post(url, "report", data)
            if answer.status == 302:
                return True
            if not failed(answer):
                settled.note = f"report refused ({answer.status})"
                return False
            self.pause()
        settled.note = "report given up"
        return False

    def confirm(self, key: str, url: str, settled: Settled) -> bool:
        deadline = time.monotonic() + PATIENCE
        lost = False  # a confirmation was sent and its answer lost
        while (page := self.page(key, deadline)) is not None:
            version = VERSION.search(page.text)
            if version is None:
                if lost:
                    return True  # nothing left to confirm: the lost one was saved
                settled.note = "no report to confirm on the page"
                self.pause()
                continue
            token = CSRF.search(page.text)
            data = {"csrfmiddlewaretoken": token.group(1) if token else ""}
            settled.confirm_tries += 1
            answer = self.venue.browser(key).post(url, "confirm", {**data, "version": version[1]})
            if answer.status == 302:
                settled.note = ""
                return True
            if failed(answer):
                lost = True
            elif not lost:
                settled.note = f"confirmation refused ({answer.status})"
                return False
            self.pause()
        settled.note = settled.note or "confirmation given up"
        return False


class Spectator(Person):
    def run(self) -> None:
        browser = Browser(self.venue.base, self.venue.tally)
        etags: dict[str, str] = {}
        if self.idle(self.random.uniform(0, POLL_SECONDS)):
            return
        while True:
            url = f"/t/{self.venue.slug}/round/{self.venue.round}/"
            headers = {"HX-Request": "true", "HX-Target": "pairings"}
            if url in etags:
                headers["If-None-Match"] = etags[url]
            answer = browser.get(url, "round page, polled", headers)
            if answer.status in (200, 304) and answer.headers.get("ETag"):
                etags[url] = answer.headers["ETag"]
            if self.idle(POLL_SECONDS):
                return


class Reader(Person):
    """Asks for a PDF every ``every`` seconds (a random span) and waits until it comes."""

    def __init__(self, venue: Venue, name: str, seed: int, every: tuple[float, float]) -> None:
        super().__init__(venue, name, seed)
        self.every = every

    def run(self) -> None:
        browser = Browser(self.venue.base, self.venue.tally)
        while not self.idle(self.random.uniform(*self.every)):
            slug, number = self.venue.slug, self.venue.round
            document = self.random.choice(
                [f"/t/{slug}/round/{number}/pairings.pdf", f"/t/{slug}/standings.pdf"]
            )
            read = self.read(browser, document, self.random.choice(["sv", "en"]))
            with self.venue.lock:
                self.venue.pdfs.append(read)

    def read(self, browser: Browser, document: str, language: str) -> PdfRead:
        """The document, reloaded as "being prepared" says, until it comes (or PATIENCE)."""
        started = time.monotonic()
        url, name, looks, failures = document, "PDF", 0, 0
        while time.monotonic() - started < PATIENCE:
            answer = browser.get(url, name, {"Accept-Language": language})
            looks += 1
            name = "PDF, reloaded"
            wait: float | None = None
            if answer.status == 200 and answer.body.startswith(b"%PDF"):
                return PdfRead(document, time.monotonic() - started, True, looks, failures)
            if answer.status == 200 and (refresh := REFRESH.search(answer.text)):
                wait, url = int(refresh[1]), html.unescape(refresh[2])
            elif answer.status == 200 and (retry := RETRY.search(answer.text)):
                failures += 1  # "could not be prepared": a person presses "Try again"
                url = html.unescape(retry[1])
            elif answer.status == 429:
                wait = 30.0
            self.pause(wait)
        return PdfRead(document, time.monotonic() - started, False, looks, failures)


class Monitor(Person):
    """``/health/`` every second, its status codes kept with their times."""

    def __init__(self, venue: Venue, began: float, done: threading.Event) -> None:
        super().__init__(venue, "monitor", 0)
        self.began = began
        self.done = done

    def run(self) -> None:
        browser = Browser(self.venue.base, self.venue.tally)
        while not self.done.wait(HEALTH_SECONDS):
            status = browser.get("/health/", "/health/").status
            self.venue.health.append((time.monotonic() - self.began, status))


class Organiser(Person):
    """Closes the round when its tables are final, pairs and publishes the next one."""

    def __init__(self, venue: Venue, database: str, account: dict[str, str]) -> None:
        super().__init__(venue, "organiser", 1)
        self.database = database
        self.account = account
        self.browser = Browser(venue.base, venue.tally)
        self.rounds_played = 0

    def run(self) -> None:
        self.log_in()
        while not self.venue.stopping.is_set():
            if not self.venue.round_done():
                self.idle(1)
                continue
            if not self.next_round():
                print(f"The organiser could not publish round {self.venue.round + 1}", flush=True)
                return

    def log_in(self) -> None:
        while not self.venue.stopping.is_set():
            page = self.browser.get("/accounts/login/", "login page")
            token = CSRF.search(page.text)
            if page.status == 200 and token:
                data = {"csrfmiddlewaretoken": token[1], **self.account}
                if self.browser.post("/accounts/login/", "log in", data).status == 302:
                    return
            self.pause()

    def post(self, path: str, name: str, data: dict[str, str]) -> None:
        """A button on the round's page (read for its form token); the answer is not
        trusted: the loop reads the rounds again."""
        page = self.browser.get(f"/t/{self.venue.slug}/round/{self.venue.round}/", "desk")
        token = CSRF.search(page.text)
        if page.status == 200 and token:
            self.browser.post(path, name, {"csrfmiddlewaretoken": token[1], **data})

    def next_round(self) -> bool:
        """Close, pair, publish; False if the site refused a step ``TRIES`` times (a match
        not final, no Swiss round left)."""
        slug, number = self.venue.slug, self.venue.round
        steps: Counter[str] = Counter()
        while not self.venue.stopping.is_set():
            rounds = self.rounds()
            if rounds is None:
                self.pause()
                continue
            playing, proposed = rounds.get(number), rounds.get(number + 1)
            step = f"{playing and playing[1]}, {proposed and proposed[1]}"
            steps[step] += 1
            if steps[step] > TRIES:
                return False
            if playing and playing[1] == "playing":
                self.post(f"/t/{slug}/round/{number}/close/", "close round", {"confirm": "1"})
            elif proposed is None:
                self.post(f"/t/{slug}/pair/", "pair round", {})
            elif proposed[1] == "proposed":
                path = f"/t/{slug}/round/{number + 1}/publish/"
                self.post(path, "publish round", {"round": str(proposed[0])})
            elif (tables := self.tables(proposed[0])) is not None:
                self.venue.new_round(number + 1, tables)
                self.rounds_played += 1
                return True
            self.pause(1)
        return True

    def _query(self, sql: str, args: list[object]) -> list[tuple[Any, ...]] | None:
        try:
            with psycopg.connect(self.database, connect_timeout=3) as connection:
                return connection.execute(sql, args).fetchall()
        except psycopg.Error:
            return None

    def rounds(self) -> dict[int, tuple[int, str]] | None:
        """Each round's id and status, by number."""
        rows = self._query(
            "SELECT r.number, r.id, r.status FROM tournaments_round r "
            "JOIN tournaments_tournament t ON t.id = r.tournament_id WHERE t.slug = %s",
            [self.venue.slug],
        )
        return None if rows is None else {number: (pk, status) for number, pk, status in rows}

    def tables(self, round_id: int) -> list[Table] | None:
        rows = self._query(
            "SELECT m.id, e.private_key FROM tournaments_match m "
            "JOIN tournaments_seat s ON s.match_id = m.id "
            "JOIN tournaments_entry e ON e.id = s.entry_id "
            "WHERE m.round_id = %s AND NOT m.is_bye ORDER BY m.table, s.seat",
            [round_id],
        )
        if rows is None:
            return None
        keys: dict[int, list[str]] = {}
        for match, key in rows:
            keys.setdefault(match, []).append(key)
        return [Table(match, (pair[0], pair[1])) for match, pair in keys.items()]


def everyone(
    venue: Venue,
    *,
    seed: int,
    pairs: int,
    result_every: float,
    spectators: int,
    readers: int,
    read_every: tuple[float, float],
    database: str,
    organiser: dict[str, str],
) -> list[Person]:
    """The people of the day, not started yet."""
    slots = Slots(result_every)
    people: list[Person] = [
        TablePair(venue, f"pair-{n}", seed * 1000 + n, slots) for n in range(pairs)
    ]
    people += [Spectator(venue, f"spectator-{n}", seed * 1000 + 100 + n) for n in range(spectators)]
    people += [
        Reader(venue, f"reader-{n}", seed * 1000 + 500 + n, read_every) for n in range(readers)
    ]
    people.append(Organiser(venue, database, organiser))
    return people


def first_tables(raw: list[dict[str, Any]]) -> list[Table]:
    return [Table(table["match"], (table["keys"][0], table["keys"][1])) for table in raw]


def run_until(check: Callable[[], bool], seconds: float, step: float = 1.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(step)
    return check()
