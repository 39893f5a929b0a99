"""Locust scenarios: a championship venue, and a closed-loop stress of single pages.

Run by ``make load`` (``benchmarks/load.py``), which seeds the venue and writes its
description to the file named by ``VENUE_FILE``. By hand::

    VENUE_FILE=venue.json locust -f benchmarks/locustfile.py --host http://127.0.0.1:8001 \\
        Spectator TablePair Organiser

**The venue.** *Spectators* open the championship and the round in play, then poll the
round's pairings every 10 s as the page does (htmx, with the ETag of what they hold),
now and then opening the standings or a player's page. A *table pair* is the two
players of one unreported match, each on their own private link: they play for a
while, one reports the games, the other finds the report on their page and confirms
it; then they take the next unreported table. The *organiser* logs in, keeps the
round's "needs attention" panel open (polled every 15 s), prints the pairings and the
standings, and pairs the side event's proposal again.

**The stress** (closed loop, no think time): ``StandingsReader`` asks for the standings
page as a polling browser does (revalidating with its ETag), ``StandingsNewcomer`` as a
new visitor (no ETag: a full render every time), ``Ping`` a trivial view of the same
stack, ``PdfReader`` a cached standings PDF.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import threading
from typing import Any

from locust import HttpUser, between, constant, task
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
_tables = iter(VENUE["tables"])
_tables_lock = threading.Lock()


def next_table() -> dict[str, Any] | None:
    with _tables_lock:
        return next(_tables, None)


class Revalidating:
    """What a browser keeps of each page: its ETag, sent back as If-None-Match."""

    def __init__(self) -> None:
        self.etags: dict[tuple[str, str], str] = {}

    def get(self, client: HttpSession, url: str, *, target: str = "", name: str = "") -> None:
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


class Spectator(HttpUser):
    weight = 150
    wait_time = constant(10)

    def on_start(self) -> None:
        self.cache = Revalidating()
        self.cache.get(self.client, f"/t/{SLUG}/", name="tournament page")
        self.cache.get(self.client, ROUND, name="round page")

    @task(8)
    def poll_the_round(self) -> None:
        self.cache.get(self.client, ROUND, target="pairings", name="round page, polled")

    @task(1)
    def open_the_standings(self) -> None:
        self.cache.get(self.client, STANDINGS, name="standings page")

    @task(1)
    def open_a_player(self) -> None:
        table = random.choice(VENUE["tables"])
        self.cache.get(self.client, f"/t/{SLUG}/match/{table['match']}/", name="match page")


class TablePair(HttpUser):
    """Two players of one table, each with their own browser and private link."""

    weight = 32
    wait_time = between(20, 40)  # a game of cribbage takes longer; the run is short

    def on_start(self) -> None:
        self.opponent = HttpSession(
            base_url=self.host, request_event=self.environment.events.request, user=self
        )
        self.table = next_table()

    def _page(self, client: HttpSession, key: str) -> str:
        return client.get(f"/p/{key}/", name="private page").text

    @task
    def play_a_table(self) -> None:
        if self.table is None:
            self._page(self.client, VENUE["tables"][0]["keys"][0])  # every table is reported
            return
        match, (reporter, confirmer) = self.table["match"], self.table["keys"]
        page = self._page(self.client, reporter)
        self._page(self.opponent, confirmer)
        games = report_data(random.randint(50, 119))
        self._post(self.client, f"/t/{SLUG}/match/{match}/report/", page, games, "report")
        page = self._page(self.opponent, confirmer)
        version = VERSION.search(page)
        if version is None:
            return
        data = {"version": version.group(1)}
        self._post(self.opponent, f"/t/{SLUG}/match/{match}/confirm/", page, data, "confirm")
        self.table = next_table()

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


class Organiser(HttpUser):
    weight = 1
    fixed_count = 1
    wait_time = constant(15)

    def on_start(self) -> None:
        page = self.client.get("/accounts/login/", name="login page").text
        self.client.post(
            "/accounts/login/",
            data={
                "csrfmiddlewaretoken": CSRF.search(page).group(1),  # type: ignore[union-attr]
                **VENUE["organiser"],
            },
            name="log in",
        )
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
