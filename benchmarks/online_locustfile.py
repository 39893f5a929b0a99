"""Locust scenario of the online benchmark: members playing each other, as their pages do.

Run by ``python -m benchmarks.online``, which seeds the games and writes them to the file
named by ``ONLINE_FILE``. Each locust user is one player of one game, on the session the
seed made for them. Like the game's page, they ask for the table once a second with the
ETag they hold (``online poll``: an empty 304 while nothing changed). When the table they
get offers them a decision they think for ``THINK_SECONDS`` (as a player at a card table
does, a few seconds), still polling, and then post it as a browser's click would
(``online decision``): the first two cards to lay away, the first card that may be laid,
or the next game. A finished match's player stops asking.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import threading
import time
from typing import Any

from locust import HttpUser, constant, task

from benchmarks.online_table import decision

ETAG = re.compile(r'If-None-Match": "\\u0022([0-9a-f]+)\\u0022"')
CSRF_SECRET = "onlinebenchmarkcsrfsecret0000000"  # 32 characters: Django's unmasked form
HTMX = {"HX-Request": "true", "HX-Target": "game"}
THINK_SECONDS = (2.0, 6.0)
"""How long a player looks at the table before their decision (uniformly between)."""


def _players() -> list[dict[str, Any]]:
    with open(os.environ["ONLINE_FILE"], encoding="utf-8") as file:
        players: list[dict[str, Any]] = json.load(file)["players"]
    return players


PLAYERS = _players()
_next = itertools.count()
_lock = threading.Lock()


class OnlinePlayer(HttpUser):
    wait_time = constant(1)

    def on_start(self) -> None:
        with _lock:
            me = PLAYERS[next(_next) % len(PLAYERS)]
        self.client.cookies.set("sessionid", me["session"])
        self.client.cookies.set("csrftoken", CSRF_SECRET)
        self.client.cookies.set("django_language", "sv")
        self.game = f"/play/online/{me['game']}/"
        self.etag = ""
        self.finished = False
        self.due: tuple[float, dict[str, Any]] | None = None
        self._read(self.client.get(self.game, name="online game page").text)

    def _read(self, table: str) -> None:
        """Take in a table: its ETag, and the decision it offers (posted after a think)."""
        found = ETAG.search(table)
        if found is None:  # no poll on the page: the match is over
            self.finished = True
            return
        self.etag = f'"{found.group(1)}"'
        post = decision(table)
        self.due = (
            None if post is None else (time.monotonic() + random.uniform(*THINK_SECONDS), post)
        )

    @task
    def poll(self) -> None:
        if self.finished:
            return
        if self.due is not None and time.monotonic() >= self.due[0]:
            response = self.client.post(
                f"{self.game}move/",
                data=self.due[1],
                headers={**HTMX, "X-CSRFToken": CSRF_SECRET, "Referer": f"{self.host}{self.game}"},
                name="online decision",
            )
            self._read(response.text)
            return
        headers = {**HTMX, "If-None-Match": self.etag}
        with self.client.get(
            f"{self.game}table/", headers=headers, name="online poll", catch_response=True
        ) as response:
            if response.status_code == 304:
                response.success()
                return
        if response.status_code == 200:
            self._read(response.text)
