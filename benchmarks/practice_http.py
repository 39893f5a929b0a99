"""Practice games against the computer as a player waits for them: over HTTP, from the
client's side, against ``make serve`` on PostgreSQL.

    .venv/bin/python -m benchmarks.practice_http [--players 1 8 24] [--level expert]
                                                 [--decisions 400] [--think 1.0] [--seed 1]

Starts a PostgreSQL cluster and a Redis of its own (``benchmarks/servers.py``) and
``make serve`` on them (gunicorn with its default workers and the task worker beside
it, as production runs). For each number of ``--players`` in turn, that many guests
(each their own cookies and address, as phones at a club evening) start a best-of-1 game
at ``--level`` and decide, one decision every ``--think`` seconds on average (drawn
uniformly between 0 and twice it), until ``--decisions`` decisions have been timed in
all. A decision is the POST htmx sends (``/play/<pk>/move/``, form-encoded, with
``HX-Request``) and its time is from the request's send to the last byte of the
answer: the computer's reply, the save, the table, and any wait for a free worker.

Beside each figure, timed the same way by one client meanwhile (so a slow machine shows
in all of them): ``/ping/``, answered before the middleware, and the bare view
(``/health/bare/``, the whole middleware stack and nothing else); and the load average.

What it leaves out: the browser (parsing, drawing, play.js's animation of the events),
the network beyond loopback, TLS, and a proxy in front. The player's own decision is
computed in this process (a standard computer, from the game's row), outside the timed
request, on the same two cores as the server.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import threading
import time
from typing import Any

from benchmarks.servers import own_servers
from benchmarks.soak_browser import Answer, Browser, Tally

HTMX = {"HX-Request": "true", "HX-Target": "game"}
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def timed(send: Any, *args: Any, **kwargs: Any) -> tuple[Answer, float]:
    """An answer and the milliseconds from the send to its last byte."""
    started = time.perf_counter()
    answer = send(*args, **kwargs)
    return answer, 1000 * (time.perf_counter() - started)


class Player(threading.Thread):
    """One guest playing games at the table, deciding every ``think`` seconds or so."""

    def __init__(self, base: str, level: str, think: float, seed: int, run: Run) -> None:
        super().__init__(daemon=True)
        self.browser = Browser(base, Tally(time.monotonic()))
        self.level, self.think, self.run_of = level, think, run
        self.random = random.Random(seed)

    def start_game(self) -> int:
        page = self.browser.get("/play/", "index")
        token = TOKEN.search(page.text)
        assert token, "the practice page has no form"
        data = {"csrfmiddlewaretoken": token[1], "level": self.level, "best_of": "1"}
        answer = self.browser.post("/play/new/", "start", data)
        if answer.status != 302:
            raise RuntimeError(f"starting a game answered {answer.status}: {answer.text[:200]}")
        pk = int(re.findall(r"/play/(\d+)/", answer.headers["Location"])[0])
        self.token = TOKEN.search(self.browser.get(f"/play/{pk}/", "game").text)
        return pk

    def run(self) -> None:
        from benchmarks.practice import _post_data
        from play.models import PracticeGame

        pk = self.start_game()
        while not self.run_of.done():
            time.sleep(self.random.uniform(0, 2 * self.think))
            practice = PracticeGame.objects.get(pk=pk)
            if practice.finished:
                pk = self.start_game()
                continue
            data = {**_post_data(practice)}
            if self.token:
                data["csrfmiddlewaretoken"] = self.token[1]
            answer, ms = timed(self.browser.post, f"/play/{pk}/move/", "move", data, HTMX)
            if answer.status != 200 or 'role="alert"' in answer.text:
                self.run_of.refused(answer)
                continue
            self.run_of.add(ms)


class Run:
    """The decisions timed so far in one round, up to ``wanted``."""

    def __init__(self, wanted: int) -> None:
        self.wanted = wanted
        self.lock = threading.Lock()
        self.times: list[float] = []
        self.refusals: list[str] = []

    def add(self, ms: float) -> None:
        with self.lock:
            self.times.append(ms)

    def refused(self, answer: Answer) -> None:
        with self.lock:
            self.refusals.append(f"{answer.status} {answer.text[:120]!r}")

    def done(self) -> bool:
        with self.lock:
            return len(self.times) >= self.wanted or len(self.refusals) > 20


def pings(base: str, run: Run, times: dict[str, list[float]]) -> None:
    """``/ping/`` and the bare view in turn, one every 0.1 s, while the round runs."""
    browser = Browser(base, Tally(time.monotonic()))
    while not run.done():
        for path in times:
            _, ms = timed(browser.get, path, path)
            times[path].append(ms)
            time.sleep(0.1)


def figures(times: list[float]) -> str:
    if len(times) < 2:
        return "too few"
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return f"median {statistics.median(times):.0f}, p95 {cuts[94]:.0f}, max {max(times):.0f}"


def measure(base: str, args: argparse.Namespace, players: int) -> str:
    run = Run(args.decisions)
    ping_times: dict[str, list[float]] = {"/ping/": [], "/health/bare/": []}
    crowd = [
        Player(base, args.level, args.think, args.seed * 1000 + n, run) for n in range(players)
    ]
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    for player in crowd:
        player.start()
    pinger = threading.Thread(target=pings, args=(base, run, ping_times), daemon=True)
    pinger.start()
    for player in crowd:
        player.join()
    pinger.join()
    seconds = time.monotonic() - started
    if run.refusals:
        print(f"  {len(run.refusals)} refused, e.g. {run.refusals[0]}", file=sys.stderr)
    return (
        f"| {players} | {len(run.times)} in {seconds:.0f} s | {figures(run.times)} "
        f"| {figures(ping_times['/ping/'])} | {figures(ping_times['/health/bare/'])} "
        f"| {load_before:.2f} → {os.getloadavg()[0]:.2f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1, 8, 24])
    parser.add_argument("--level", default="expert", choices=("easy", "standard", "expert"))
    parser.add_argument("--decisions", type=int, default=400, help="timed, for each crowd")
    parser.add_argument("--think", type=float, default=1.0, help="seconds between decisions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with own_servers("club-practice-http-") as servers:
        env = servers.migrated()
        site = servers.serve(env)
        os.environ.update(env)  # this process reads the games' rows to decide as a player
        import django

        django.setup()
        print(
            f"Practice decisions at {args.level} level over HTTP against make serve "
            f"(PostgreSQL), a decision every {args.think:g} s or so a player; ms from send "
            "to last byte"
        )
        print(
            "| players | decisions | a decision (ms) | /ping/ meanwhile (ms) "
            "| the bare view meanwhile (ms) | load |"
        )
        print("|---|---|---|---|---|---|")
        for players in args.players:
            print(measure(site.base, args, players), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
