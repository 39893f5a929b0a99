"""What a reader waits for, from the client's side: revalidated pages against a bare view
(issue 37).

    python -m benchmarks.revalidation [--players 128] [--clients 8] [--seconds 5] [--rounds 3]

1. A PostgreSQL cluster of the run's own (``benchmarks.soak_servers.Postgres``: ``initdb``
   on a free port), migrated, with the load test's championship
   (``benchmarks.venue_seed``: ``--players`` entries, 8 closed rounds, round 9 in play
   and unreported).
2. ``make serve`` itself (``soak_servers.Site``: the release step, gunicorn as the
   Makefile starts it and the task worker), production settings (``DEBUG`` off), the
   default file cache in the run's folder.
3. ``--clients`` threads, each a reader with its own keep-alive connection
   (``http.client``; a new one when the server closes it, as gunicorn's sync workers do
   after each answer) and its own cookies, ask one address as fast as they are answered
   for ``--seconds``. A request's time runs from its sending (the connection opened
   first when there is none) to the last byte of the answer: the wait in the server's
   queue is in it. The addresses, each measured on its own:

   - ``/ping/``: answered before the middleware (``ops.health.PingMiddleware``);
   - the bare view, ``/health/bare/``: a view that does nothing, behind every
     middleware; **the baseline**: the ratios are to it;
   - the standings, the round in play and one of its matches, each asked with the
     ``If-None-Match`` of the reader's last copy (the version has not moved: a 304);
   - the standings and the round in play without one (a new reader: a 200, from the
     cached tables when they are there, as at a venue);
   - the home page.

   Before measuring, each reader asks the page twice (its first answer may set the CSRF
   cookie, which the page's validators include) and keeps the second answer's ``ETag``.
4. ``--rounds`` rounds. In each, the bare view is measured between every two addresses
   (the machine is shared: its load moves from minute to minute), and an address's ratio
   is its requests/s over the mean of the bare view's just before and just after it; the
   addresses come in another order each round (rotated). Printed: for each address the
   median over the rounds of requests/s, p50, p95 and that ratio; the load average
   (``os.getloadavg()``) before and after each round.

Left out: TLS and a proxy in front (the loopback only), a browser's own work (parsing,
static files: WhiteNoise serves those), think time, changes during the measurement (no
version moves: a 304 is always the answer where one is asked for, and the tables stay
cached), the task worker's work (it is idle), Redis (the file cache, ``make serve``'s
default; several servers would share a Redis), and the clients' own CPU, which is on the
same cores as the server.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.load import _environment
from benchmarks.soak_servers import Postgres, Site, free_port, manage

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "bare view"


@dataclass(frozen=True)
class Address:
    name: str
    path: str
    revalidated: bool = False  # asked with the reader's ETag: a 304 expected


@dataclass
class Reader:
    """One client: a connection kept open while the server allows, and the cookies it set."""

    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    connection: http.client.HTTPConnection | None = None

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
        """The status and the ETag of ``path``, its body read to the end."""
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        try:
            self.connection.request("GET", path, headers=sent)
            response = self.connection.getresponse()
            response.read()
        except (http.client.HTTPException, OSError):
            self.close()
            raise
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            value = rest.split(";", 1)[0]
            if value and "max-age=0" not in cookie.lower():
                self.cookies[name.strip()] = value
            else:
                self.cookies.pop(name.strip(), None)
        if response.will_close:
            self.close()
        return response.status, response.headers.get("ETag", "")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


@dataclass
class Measured:
    requests: int
    seconds: float
    times: list[float]
    unexpected: int  # answers other than the expected status

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds

    def percentile(self, share: float) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def measure(port: int, address: Address, clients: int, seconds: float) -> Measured:
    """``clients`` readers asking ``address`` for ``seconds``, all at once."""
    readers = [Reader(port) for _ in range(clients)]
    etags = []
    for reader in readers:
        reader.get(address.path)
        etags.append(reader.get(address.path)[1])
    start = threading.Barrier(clients + 1)
    times: list[list[float]] = [[] for _ in readers]
    unexpected = [0] * clients
    expected = 304 if address.revalidated else 200

    def run(n: int) -> None:
        headers = {"If-None-Match": etags[n]} if address.revalidated else {}
        start.wait()
        deadline = time.perf_counter() + seconds
        while (sent := time.perf_counter()) < deadline:
            status, _etag = readers[n].get(address.path, headers)
            times[n].append(time.perf_counter() - sent)
            unexpected[n] += status != expected

    threads = [threading.Thread(target=run, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    for reader in readers:
        reader.close()
    every = [t for own in times for t in own]
    return Measured(len(every), elapsed, every, sum(unexpected))


def addresses(venue: dict[str, object]) -> list[Address]:
    slug, number = venue["championship"], venue["round"]
    tables = venue["tables"]
    assert isinstance(tables, list)
    match = tables[len(tables) // 2]["match"]
    return [
        Address("ping", "/ping/"),
        Address(BASELINE, "/health/bare/"),
        Address("standings, 304", f"/t/{slug}/standings/", revalidated=True),
        Address("round, 304", f"/t/{slug}/round/{number}/", revalidated=True),
        Address("match, 304", f"/t/{slug}/match/{match}/", revalidated=True),
        Address("standings, full render", f"/t/{slug}/standings/"),
        Address("round, full render", f"/t/{slug}/round/{number}/"),
        Address("home page", "/"),
    ]


def load() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


def report(
    results: dict[str, list[Measured]],
    ratios: dict[str, list[float]],
    loads: list[str],
    args: argparse.Namespace,
) -> str:
    lines = [
        f"{args.clients} clients, {args.seconds:g} s a measurement, {args.rounds} rounds, "
        f"{args.players} players; {os.cpu_count()} cores; load average before and after "
        f"each round: {'; '.join(loads)}",
        "",
        "| Address | Requests/s | p50 ms | p95 ms | / bare view | Unexpected answers |",
        "|---|---|---|---|---|---|",
    ]
    for name, runs in results.items():
        lines.append(
            f"| {name} | {statistics.median(r.per_second for r in runs):.0f} | "
            f"{statistics.median(r.percentile(0.5) for r in runs):.1f} | "
            f"{statistics.median(r.percentile(0.95) for r in runs):.1f} | "
            f"{statistics.median(ratios[name]):.2f} | {sum(r.unexpected for r in runs)} |"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace, folder: Path) -> str:
    postgres = Postgres()
    site: Site | None = None
    try:
        postgres.create()
        env = _environment(folder, postgres.url)
        manage(env, "manage.py", "migrate", "--noinput", "-v", "0")
        venue_file = folder / "venue.json"
        seed = ["-m", "benchmarks.venue_seed", "--players", str(args.players)]
        manage(env, *seed, "--out", str(venue_file))
        venue = json.loads(venue_file.read_text())
        port = free_port()
        site = Site(env, port, folder / "serve.log")
        site.start()
        pages = addresses(venue)
        bare = next(page for page in pages if page.name == BASELINE)
        results: dict[str, list[Measured]] = {page.name: [] for page in pages}
        ratios: dict[str, list[float]] = {page.name: [] for page in pages}
        loads = []
        for number in range(args.rounds):
            before = load()
            others = [page for page in pages if page is not bare]
            shift = number * 3 % len(others)
            baseline = measure(port, bare, args.clients, args.seconds)
            results[bare.name].append(baseline)
            for page in others[shift:] + others[:shift]:
                measured = measure(port, page, args.clients, args.seconds)
                after = measure(port, bare, args.clients, args.seconds)
                results[page.name].append(measured)
                results[bare.name].append(after)
                ratio = measured.per_second / ((baseline.per_second + after.per_second) / 2)
                ratios[page.name].append(ratio)
                baseline = after
                print(
                    f"round {number + 1}: {page.name}: {measured.per_second:.0f}/s "
                    f"({ratio:.2f} of the bare view around it), "
                    f"p95 {measured.percentile(0.95):.1f} ms, unexpected {measured.unexpected}",
                    flush=True,
                )
            ratios[bare.name].append(1.0)
            loads.append(f"{before} → {load()}")
        return report(results, ratios, loads, args)
    finally:
        if site is not None:
            site.stop()
        postgres.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0, help="of each measurement")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="club-revalidation-"))
    try:
        text = run(args, folder)
    finally:
        with contextlib.suppress(OSError):  # for a look after the run
            shutil.copy(folder / "serve.log", Path(tempfile.gettempdir()) / "revalidation.log")
        shutil.rmtree(folder, ignore_errors=True)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
