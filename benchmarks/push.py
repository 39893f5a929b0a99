"""Moves pushed (issue 37 §2): how long a move takes to reach the other player's and a
spectator's table, and what an idle game costs, for two ways of pushing, on one server
and on two.

    python -m benchmarks.push [--games 100] [--seconds 60] [--idle 30] [--rounds 1]
                              [--modes sse longpoll poll] [--servers 1 2]

1. A PostgreSQL 15 and a Redis of the run's own (``benchmarks.servers``).
2. ``benchmarks.online_seed --championship``: ``--games`` best-of-three tournament matches
   played on the site, seeded once into a template database; each run gets a copy.
3. For each run (mode and servers, alternating; ``--rounds`` times):
   - ``sse`` (candidate A): gunicorn with 3 ASGI (uvicorn) workers, ``DATABASE_POOL=10``;
     each reader holds the game's event stream and fetches the table when it announces a
     newer version, as ``static/js/play.js`` does;
   - ``longpoll`` (candidate B): gunicorn with 3 gthread workers of 120 threads,
     ``DATABASE_POOL=12``; each reader asks ``table?wait=25`` with its ETag, again and again;
   - ``poll`` (before): the same gthread server, each reader asking the table every second.
   With two servers, two such gunicorns on two ports share the database and the Redis:
   seat 0's players use the first, seat 1's and the spectators the second, so every move
   crosses from one server to the other through Redis.
4. The readers: both players of every game and one anonymous spectator (asyncio, httpx,
   one process). A player whose table offers a decision thinks 4-12 s (uniformly), then
   posts it as htmx does. The readers arrive over 10 s; for ``--seconds`` after that the
   games are played; then nobody moves for
   ``--idle`` seconds while every reader stays, and the requests made then are counted.
5. A move's *latency*: from the moment its POST is sent to the moment the other player's
   (and the spectator's) fetch of a table at least that new has its last byte. p50, p95
   and max over every move and reader, the load average beside each run.

What it leaves out: a browser's own work (parsing, htmx's swap, the page's animation of the
news) and a network between the browser and the server; the readers run on the same two
cores as the servers, PostgreSQL and Redis.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg

from benchmarks.load import ROOT, _run, _wait_for, write_docs
from benchmarks.online_table import decision
from benchmarks.servers import own_servers
from benchmarks.soak_servers import Postgres, free_port

BEGIN, END = "<!-- push:begin -->", "<!-- push:end -->"
ETAG = re.compile(r'If-None-Match": "\\u0022([0-9a-f]+)\\u0022"')
VERSION = re.compile(r'data-version="(\d+)"')
CSRF = "pushbenchmarkcsrfsecret000000000"  # 32 characters: Django's unmasked form
HTMX = {"HX-Request": "true", "HX-Target": "game"}
THINK_SECONDS = (4.0, 12.0)
ARRIVALS_SECONDS = 10.0
"""The readers open their pages over this many seconds (then the ``--seconds`` of play)."""
MODES = ("sse", "longpoll", "poll")


@dataclass
class Tally:
    """What the readers did: moves sent, tables seen, requests made."""

    moves: list[tuple[int, str, float, int]] = field(default_factory=list)
    """(game, mover, when sent, the version its answer was at)"""
    seen: dict[tuple[int, str], list[tuple[int, float]]] = field(default_factory=dict)
    requests: int = 0
    errors: int = 0
    playing: bool = True


class Reader:
    """One player's page (``seat``) or a spectator's (None) of ``game``."""

    def __init__(
        self, client: httpx.AsyncClient, game: int, seat: int | None, tally: Tally, mode: str
    ) -> None:
        self.client, self.game, self.seat, self.tally, self.mode = client, game, seat, tally, mode
        self.name = f"seat {seat}" if seat is not None else "spectator"
        self.url = f"/play/online/{game}/"
        self.etag = ""
        self.version = -1
        self.post: dict[str, Any] | None = None
        self.offered = asyncio.Event()

    def take(self, table: str) -> None:
        found = VERSION.search(table)
        if found is None or int(found.group(1)) <= self.version:
            return
        self.version = int(found.group(1))
        self.tally.seen.setdefault((self.game, self.name), []).append(
            (self.version, time.monotonic())
        )
        etag = ETAG.search(table)
        self.etag = f'"{etag.group(1)}"' if etag else ""
        self.post = decision(table) if self.seat is not None else None
        if self.post is not None:
            self.offered.set()

    async def get(self, path: str, **kwargs: Any) -> httpx.Response:
        self.tally.requests += 1
        response = await self.client.get(path, **kwargs)
        if response.status_code not in (200, 204, 304):
            self.tally.errors += 1
        return response

    async def fetch(self, *, wait: float = 0) -> None:
        query = {"wait": str(wait)} if wait else None
        headers = {**HTMX, "If-None-Match": self.etag}
        response = await self.get(f"{self.url}table/", headers=headers, params=query)
        if response.status_code == 200:
            self.take(response.text)

    async def follow(self, arrival: float = 0.0) -> None:
        await asyncio.sleep(arrival)
        self.take((await self.get(self.url)).text)
        if self.mode == "sse":
            await self._stream()
            self.mode = "poll"  # the stream ended (204, or the server went): as play.js does
        while True:
            await self.fetch(wait=25 if self.mode == "longpoll" else 0)
            if self.mode == "poll":
                await asyncio.sleep(1)

    async def _stream(self) -> None:
        self.tally.requests += 1
        async with self.client.stream("GET", f"{self.url}events/") as response:
            async for line in response.aiter_lines():
                if line.startswith("data: ") and int(line[6:]) > self.version:
                    await self.fetch()

    async def play(self) -> None:
        while True:
            await self.offered.wait()
            self.offered.clear()
            await asyncio.sleep(random.uniform(*THINK_SECONDS))
            if not self.tally.playing or self.post is None:
                continue
            post, self.post = self.post, None
            sent = time.monotonic()
            self.tally.requests += 1
            response = await self.client.post(
                f"{self.url}move/",
                data=post,
                headers={
                    **HTMX,
                    "X-CSRFToken": CSRF,
                    "Referer": f"{self.client.base_url}{self.url}",
                },
            )
            found = VERSION.search(response.text)
            if response.status_code != 200 or found is None:
                self.tally.errors += 1
                continue
            self.tally.moves.append((self.game, self.name, sent, int(found.group(1))))
            self.take(response.text)


def latencies(tally: Tally) -> list[float]:
    """Each move's time, in ms, to each other reader of its game (who saw it in the run)."""
    found = []
    for game, mover, sent, version in tally.moves:
        for reader in ("seat 0", "seat 1", "spectator"):
            if reader == mover:
                continue
            seen = tally.seen.get((game, reader), [])
            at = next((when for got, when in seen if got >= version and when >= sent), None)
            if at is not None:
                found.append((at - sent) * 1000)
    return found


async def readers(
    bases: list[str], players: list[dict[str, Any]], mode: str, seconds: float, idle: float
) -> tuple[Tally, int]:
    """Every reader for ``seconds`` of play, then ``idle`` seconds without a move; the
    tally and the requests made while idle."""
    tally = Tally()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(60.0)
    clients: list[httpx.AsyncClient] = []

    def client(base: str, session: str | None) -> httpx.AsyncClient:
        cookies = {"django_language": "sv", "csrftoken": CSRF}
        if session:
            cookies["sessionid"] = session
        made = httpx.AsyncClient(base_url=base, cookies=cookies, limits=limits, timeout=timeout)
        clients.append(made)
        return made

    tasks = []
    games = sorted({player["game"] for player in players})
    for index, player in enumerate(players):
        seat = index % 2
        reader = Reader(
            client(bases[seat % len(bases)], player["session"]), player["game"], seat, tally, mode
        )
        arrival = ARRIVALS_SECONDS * index / len(players)
        tasks += [asyncio.create_task(reader.follow(arrival)), asyncio.create_task(reader.play())]
    for index, game in enumerate(games):
        spectator = Reader(client(bases[-1], None), game, None, tally, mode)
        tasks.append(asyncio.create_task(spectator.follow(ARRIVALS_SECONDS * index / len(games))))
    await asyncio.sleep(ARRIVALS_SECONDS)
    await asyncio.sleep(seconds)
    tally.playing = False
    await asyncio.sleep(5)  # the last moves' tables
    before = tally.requests
    await asyncio.sleep(idle)
    idle_requests = tally.requests - before
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for made in clients:
        await made.aclose()
    return tally, idle_requests


def serve(mode: str, env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    if mode == "sse":
        command = [gunicorn, "config.asgi:application", "-k", "uvicorn_worker.UvicornWorker"]
        env = {**env, "DATABASE_POOL": "10"}
    else:
        command = [gunicorn, "config.wsgi:application", "-k", "gthread", "--threads", "120"]
        env = {**env, "DATABASE_POOL": "12", "PUSH_LONG_POLL": "1"}
    workers = os.environ.get("WEB_CONCURRENCY") or str(2 * (os.cpu_count() or 1) + 1)
    command += ["-w", workers, "-b", f"127.0.0.1:{port}", "--timeout", "120"]
    with open(log, "ab") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


REQUEST_LINE = re.compile(
    r"club\.requests: (GET|POST) /play/online/\d+/(table|move)/\S* 200 ([\d.]+) ms"
)


def server_times(log: Path) -> dict[str, list[float]]:
    """The server's own milliseconds on each table drawn (200) and each move, from the
    request log (``ops.logs``): what a request cost once a worker took it."""
    found: dict[str, list[float]] = {"table": [], "move": []}
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        match = REQUEST_LINE.search(line)
        if match:
            found[match.group(2)].append(float(match.group(3)))
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def one_run(
    mode: str, servers: int, postgres: Postgres, env: dict[str, str], args: argparse.Namespace
) -> dict[str, Any]:
    name = f"push_{mode}_{servers}"
    admin = f"postgres://postgres@127.0.0.1:{postgres.port}/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "seeded"')
    env = {**env, "DATABASE_URL": f"postgres://postgres@127.0.0.1:{postgres.port}/{name}"}
    ports = [free_port() for _ in range(servers)]
    processes = [serve(mode, env, port, args.folder / f"{name}.log") for port in ports]
    try:
        for port in ports:
            _wait_for(f"http://127.0.0.1:{port}/ping/")
        players = json.loads((args.folder / "online.json").read_text())["players"]
        load_before = os.getloadavg()
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        tally, idle = asyncio.run(readers(bases, players, mode, args.seconds, args.idle))
        load_after = os.getloadavg()
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=60)
    times = latencies(tally)
    served = server_times(args.folder / f"{name}.log")
    return {
        "table_ms": percentile(served["table"], 0.5),
        "table_p95": percentile(served["table"], 0.95),
        "move_p95": percentile(served["move"], 0.95),
        "mode": mode,
        "servers": servers,
        "moves": len(tally.moves),
        "deliveries": len(times),
        "p50": percentile(times, 0.5),
        "p95": percentile(times, 0.95),
        "max": max(times, default=float("nan")),
        "idle_per_s": idle / args.idle,
        "errors": tally.errors,
        "load": (load_before[0], load_after[0]),
    }


def line(run: dict[str, Any]) -> str:
    return (
        f"| {run['mode']} | {run['servers']} | {run['moves']} | {run['deliveries']} | "
        f"{run['p50']:.0f} | **{run['p95']:.0f}** | {run['max']:.0f} | "
        f"{run['idle_per_s']:.1f} | {run['errors']} | {run['table_ms']:.0f} / "
        f"{run['table_p95']:.0f} | {run['move_p95']:.0f} | "
        f"{run['load'][0]:.1f} → {run['load'][1]:.1f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--idle", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--modes", nargs="+", choices=MODES, default=["sse", "longpoll"])
    parser.add_argument("--servers", nargs="+", type=int, choices=[1, 2], default=[1, 2])
    parser.add_argument("--no-docs", action="store_true", help="print the figures only")
    args = parser.parse_args(argv)
    runs = []
    with own_servers("club-push-") as own:
        args.folder, postgres = own.folder, own.postgres
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": postgres.url,
            "DEBUG": "0",
            "SECRET_KEY": "push-benchmark-only-" + os.urandom(16).hex(),
            "SECURE_SSL": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CACHE_URL": own.redis.url,
            "LOG_LEVEL": "INFO",  # the request log's line: each request's server time
        }
        _run(env, "manage.py", "migrate", "--noinput", "-v", "0")
        _run(env, "manage.py", "collectstatic", "--noinput", "-v", "0")
        out = str(args.folder / "online.json")
        _run(
            env,
            "-m",
            "benchmarks.online_seed",
            "--out",
            out,
            "--games",
            str(args.games),
            "--championship",
        )
        admin = f"postgres://postgres@127.0.0.1:{postgres.port}/postgres"
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute('CREATE DATABASE "seeded" TEMPLATE "club"')
        for _round in range(args.rounds):
            for servers in args.servers:
                for mode in args.modes:
                    run = one_run(mode, servers, postgres, env, args)
                    print(line(run), flush=True)
                    runs.append(run)
    today = datetime.datetime.now(datetime.UTC).date()
    text = "\n".join(
        [
            f"Measured {today:%Y-%m-%d} by `python -m benchmarks.push --games {args.games} "
            f"--seconds {args.seconds} --idle {args.idle} --rounds {args.rounds} --modes "
            f"{' '.join(args.modes)} --servers {' '.join(map(str, args.servers))}` on "
            f"{os.cpu_count()} cores: {args.games} tournament matches played on the site, both "
            f"players and one spectator each ({3 * args.games} readers), a decision after "
            f"{THINK_SECONDS[0]:.0f}-{THINK_SECONDS[1]:.0f} s of thought; latency from the "
            "move's POST sent to the other reader's table fetched (ms).",
            "",
            "| Mode | Servers | Moves | Deliveries | p50 ms | p95 ms | max ms | Requests/s idle "
            "| Errors | Server: table p50 / p95 ms | Server: move p95 ms "
            "| Load (1 min) before → after |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|",
            *(line(run) for run in runs),
        ]
    )
    print(text)
    if not args.no_docs:
        write_docs(text, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
