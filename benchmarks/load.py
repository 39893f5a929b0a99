"""The venue load test behind ``make load``: production processes, a seeded championship, locust.

    python -m benchmarks.load [--scenario venue|burst|stress ...] [--players 256]
        [--servers 1|2] [--seconds 120] [--burst-seconds 300] [--no-docs]

1. A fresh database: the ``DATABASE_URL`` in the environment if it names PostgreSQL (a
   database of its own on that server, created and dropped here), otherwise a SQLite
   file in a temporary folder. Production settings (DEBUG off), static files collected.
2. ``benchmarks.venue_seed``: a ``--players`` championship after 8 rounds (results
   written in bulk) with round 9 to be reported, a side event for the organiser to pair
   again, an organiser's and a member's account.
3. The processes as production runs them: per server ``make serve`` itself (the release
   step, gunicorn with its default workers and the task worker under ``nice -n 10``,
   ``--worker-nice``; docs/operating.md), on
   ports ``--port``, ``--port`` + 1... With one server the cache is a file cache in the
   temporary folder; with ``--servers 2`` a Redis started here on ``--redis-port`` is
   the shared cache (``CACHE_URL=redis://``), and locust spreads its users over both
   (``LOAD_HOSTS``). Everything started here is stopped at the end.
4. locust, headless (scenarios in ``benchmarks/locustfile.py``), for each ``--scenario``:
   - ``venue`` (the default): ``--players`` spectators polling the round every 10 s,
     8 table pairs reporting and confirming by private link (one result every
     ``--result-every`` s, 20, confirmed half that after its report), one organiser, for
     ``--seconds``; with the share of polls
     answered 304 between two final results;
   - ``burst``: 10 new visitors reading the round page every second while a result is
     settled every 15 s or so, for ``--burst-seconds``; each result starts the next
     phase in turn: quiet (no PDF requests), one anonymous visitor's 25 concurrent
     requests for the 10 documents it made new (each tab reloading "being prepared"
     until its PDF is there), quiet, the same from a logged-in member; the round page's
     p95 in each phase, measured in the same run, and the ratios;
   - ``stress``: each single-page scenario, closed loop with 8 users and no think time,
     for ``--stress-seconds``.
5. The figures printed and (unless ``--no-docs``) written to docs/benchmarks.md between
   the markers of the scenario and server count (``<!-- load:venue-1:begin -->``...).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit

from benchmarks.soak_servers import Site

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "benchmarks.md"
VENUE = ["Spectator", "TablePair", "Organiser"]
TABLE_PAIRS = 8  # the locustfile's TablePair.fixed_count
BURST = ["RoundReader", "Burster"]
ROUND_READERS = 10
# Where each run starts in the round's tables (eighths of them: 0 and 64 of 128), so
# no run reports a table another did.
TABLES_FROM = {"venue": 0, "burst": 4}
BURST_PHASES = ["quiet", "anonymous", "member"]  # the locustfile's PHASES
BURST_PDFS = ["burst PDF", "burst PDF, reloaded"]
STRESS = ["StandingsReader", "StandingsNewcomer", "Ping", "PdfReader"]
STRESS_USERS = 8


def _fresh_database(folder: Path) -> tuple[str, Callable[[], None]]:
    """A new, empty database for the run, and how to drop it afterwards.

    On the PostgreSQL server of ``DATABASE_URL`` a database of its own (created and
    dropped here); otherwise a SQLite file in ``folder``.
    """
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        return f"sqlite:///{folder / 'venue.sqlite3'}", lambda: None
    import psycopg

    parts = urlsplit(url)
    name = f"club_load_{os.getpid()}"
    server = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        with psycopg.connect(server, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return urlunsplit(parts._replace(path=f"/{name}")), drop


def _environment(folder: Path, database: str, redis_port: int | None = None) -> dict[str, str]:
    cache = f"redis://127.0.0.1:{redis_port}/0" if redis_port else f"file://{folder / 'cache'}"
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database,
        "DEBUG": "0",
        "SECRET_KEY": "load-test-only-" + os.urandom(16).hex(),
        "SECURE_SSL": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CACHE_URL": cache,
        "LOG_LEVEL": "WARNING",
        "VENUE_FILE": str(folder / "venue.json"),
    }


def _run(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True)


def _wait_for(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _locust(
    env: dict[str, str],
    hosts: list[str],
    prefix: Path,
    users: int,
    seconds: int,
    classes: list[str],
    **more: str,
) -> None:
    locust = str(Path(sys.executable).with_name("locust"))
    command = [locust, "-f", "benchmarks/locustfile.py", "--headless", "--only-summary"]
    # Arrivals over about 20 s; the figures are of the steady state after them.
    command += ["--host", hosts[0], "-u", str(users), "-r", str(max(users // 20, 1))]
    command += ["--reset-stats", "-t", f"{seconds}s", "--csv", str(prefix)]
    command += ["--loglevel", "WARNING", *classes]
    more = {"LOAD_HOSTS": ",".join(hosts), "POLLS_FILE": f"{prefix}_polls.json", **more}
    subprocess.run(command, cwd=ROOT, env={**env, **more}, check=False)


def _rows(prefix: Path) -> list[dict[str, str]]:
    with open(f"{prefix}_stats.csv", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def _named(prefix: Path, name: str) -> dict[str, str]:
    rows = [row for row in _rows(prefix) if row["Name"] == name]
    return rows[0] if rows else {}


def _line(row: dict[str, str]) -> str:
    name = "All requests" if row["Name"] == "Aggregated" else row["Name"]
    return (
        f"| {name} | {row['Request Count']} | {float(row['Requests/s']):.1f} | "
        f"{row['50%']} | {row['95%']} | {row['99%']} | {row['Failure Count']} |"
    )


def _table(rows: list[dict[str, str]]) -> list[str]:
    head = ["| Requests | Count | Requests/s | p50 ms | p95 ms | p99 ms | Errors |"]
    return [*head, "|---|---|---|---|---|---|---|", *(_line(row) for row in rows)]


def _load() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


class Setup(NamedTuple):
    folder: Path
    env: dict[str, str]
    hosts: list[str]
    database: str
    servers: int
    players: int
    worker_nice: int

    def heading(self, what: str, load_before: str) -> str:
        today = datetime.datetime.now(datetime.UTC).date()
        servers = "one server" if self.servers == 1 else f"{self.servers} servers"
        cache = "a file cache" if self.servers == 1 else "Redis as their shared cache"
        nice = f" under `nice -n {self.worker_nice}`" if self.worker_nice else ""
        return (
            f"Measured {today:%Y-%m-%d} by `python -m benchmarks.load {what}` on "
            f"{os.cpu_count()} cores (load average before {load_before}, after {_load()}), "
            f"{servers} (each `make serve`: gunicorn and the task worker{nice}) with "
            f"{cache}, {self.database}, locust on the same machine."
        )


def _section(heading: str, description: str, rows: list[str], targets: list[str]) -> str:
    """A scenario's section of docs/benchmarks.md: how it was measured, what it did, the
    requests' table and the targets beside what was measured."""
    head = ["| Target | Measured |", "|---|---|"]
    return "\n".join([heading, "", description, "", *rows, "", *head, *targets])


def venue(setup: Setup, seconds: int, result_every: float) -> str:
    before = _load()
    prefix = setup.folder / "venue"
    users = setup.players + TABLE_PAIRS + 1
    tables = setup.players // 2 * TABLES_FROM["venue"] // 8
    env = {"RESULT_EVERY": str(result_every), "TABLES_FROM": str(tables)}
    _locust(setup.env, setup.hosts, prefix, users, seconds, VENUE, **env)
    rows = _rows(prefix)
    total = rows[-1]
    polls = json.loads(Path(f"{prefix}_polls.json").read_text(encoding="utf-8"))
    share = polls["between_not_modified"] / max(polls["between"], 1)
    every = polls["not_modified"] / max(polls["polls"], 1)
    unchanged = polls["unchanged_not_modified"] / max(polls["unchanged"], 1)
    what = f"--scenario venue --players {setup.players} --servers {setup.servers}"
    return _section(
        setup.heading(what + f" --seconds {seconds}", before),
        f"**Venue** ({users} users for {seconds} s: {setup.players} players polling the "
        f"round every 10 s, {TABLE_PAIRS} table pairs reporting and confirming by private "
        f"link, one result every {result_every:g} s confirmed {result_every / 2:g} s after its "
        "report, one organiser):",
        _table(rows),
        [
            f"| Venue p95 ≤ 200 ms, 0 errors | {total['95%']} ms, "
            f"{total['Failure Count']} errors |",
            f"| Most spectator polls between two final results are 304s | {share:.0%} "
            f"({polls['between_not_modified']} of {polls['between']}); of all polls "
            f"{every:.0%} ({polls['not_modified']} of {polls['polls']}) |",
            f"| Spectator polls with no report nor final result since the previous poll: 304s | "
            f"{unchanged:.0%} ({polls['unchanged_not_modified']} of {polls['unchanged']}) |",
        ],
    )


def burst(setup: Setup, seconds: int) -> str:
    before = _load()
    prefix = setup.folder / "burst"
    env = {"TABLES_FROM": str(setup.players // 2 * TABLES_FROM["burst"] // 8)}
    _locust(setup.env, setup.hosts, prefix, ROUND_READERS + 1, seconds, BURST, **env)
    phases = {phase: _named(prefix, f"round page ({phase})") for phase in BURST_PHASES}
    missing = [phase for phase, row in phases.items() if not row]
    if missing:
        raise SystemExit(f"No round page measured in the phase {', '.join(missing)}: run longer")
    pdfs = [row for row in (_named(prefix, n) for n in BURST_PDFS) if row]
    base = float(phases["quiet"]["95%"])
    ratio = {phase: float(row["95%"]) / base for phase, row in phases.items()}
    targets = [
        f"| Round page p95 during {whose} burst ≤ 2× without | {ratio[phase]:.2f}× "
        f"({phases[phase]['95%']} / {phases['quiet']['95%']} ms) |"
        for phase, whose in (("anonymous", "an anonymous"), ("member", "a member's"))
    ]
    return _section(
        setup.heading(
            f"--scenario burst --servers {setup.servers} --burst-seconds {seconds}", before
        ),
        f"**PDF burst** ({ROUND_READERS} new visitors reading the round page every second; "
        "a result settled by private link every 15 s or so, each starting the next phase in "
        "turn: quiet (no PDF requests), an anonymous visitor's burst, quiet, a member's "
        "burst: 25 concurrent tabs asking for the 10 documents the result made new, each "
        'reloading "being prepared" as it says (after 2 s, then a second longer each '
        "time) until its PDF is there; the round page named "
        f"after the phase it starts in; one run of {seconds} s):",
        _table([*phases.values(), *pdfs]),
        targets,
    )


def stress(setup: Setup, seconds: int) -> str:
    before = _load()
    rows = {}
    for name in STRESS:
        prefix = setup.folder / name
        _locust(setup.env, setup.hosts, prefix, STRESS_USERS, seconds, [name])
        rows[name] = _rows(prefix)[0]  # each asks for one address: its first row
    ratio = float(rows["StandingsReader"]["Requests/s"]) / float(rows["Ping"]["Requests/s"])
    full = float(rows["StandingsNewcomer"]["Requests/s"]) / float(rows["Ping"]["Requests/s"])
    return _section(
        setup.heading(f"--scenario stress --servers {setup.servers}", before),
        f"**Stress** (closed loop, {STRESS_USERS} users, no think time, {seconds} s each):",
        _table([rows[name] for name in STRESS]),
        [
            f"| Standings throughput ≥ 50 % of the trivial view's | {ratio:.0%} revalidating "
            f"(as the polling page asks); {full:.0%} for new visitors (a full render each) |",
            f"| Cached PDF p95 ≤ 50 ms | {rows['PdfReader']['95%']} ms |",
        ],
    )


def write_docs(text: str, begin: str, end: str) -> None:
    """``text`` in docs/benchmarks.md in place of what stands between ``begin`` and ``end``."""
    docs = DOCS.read_text(encoding="utf-8")
    start, stop = docs.index(begin) + len(begin), docs.index(end)
    DOCS.write_text(docs[:start] + "\n" + text + "\n" + docs[stop:], encoding="utf-8")


def write_scenario(text: str, marker: str) -> bool:
    """``text`` between the markers ``<!-- load:{marker}:begin -->`` and ``...:end -->``
    of docs/benchmarks.md; False if it has none."""
    begin, end = f"<!-- load:{marker}:begin -->", f"<!-- load:{marker}:end -->"
    if begin not in DOCS.read_text(encoding="utf-8"):
        return False
    write_docs(text, begin, end)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scenario", nargs="+", choices=["venue", "burst", "stress"], default=["venue"]
    )
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--servers", type=int, choices=[1, 2], default=1)
    parser.add_argument("--seconds", type=int, default=120, help="the venue's run")
    parser.add_argument("--result-every", type=float, default=20.0)
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=10,
        help="start each db_worker under nice -n N (10, as make serve; 0: not)",
    )
    parser.add_argument("--burst-seconds", type=int, default=300, help="the burst's run")
    parser.add_argument("--stress-seconds", type=int, default=20)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--redis-port", type=int, default=6392)
    parser.add_argument("--no-docs", action="store_true", help="print the figures only")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="club-load-"))
    url, drop = _fresh_database(folder)
    try:
        texts = _measure(args, folder, url)
    finally:
        drop()
        shutil.rmtree(folder, ignore_errors=True)
    for scenario, text in texts.items():
        print(text, end="\n\n")
        marker = f"{scenario}-{args.servers}"
        if not args.no_docs and not write_scenario(text, marker):
            print(f"(docs/benchmarks.md has no markers load:{marker}: not written)")
    return 0


def _port_free(port: int) -> None:
    with socket.socket() as probe:
        # As a server binds (SO_REUSEADDR): a port left in TIME_WAIT by the run before is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            raise SystemExit(f"Port {port} is in use: choose another with --port.") from None


def _start(command: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    # A session of its own: stopped with its children, and no Ctrl-C reaches it twice.
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _measure(args: argparse.Namespace, folder: Path, url: str) -> dict[str, str]:
    started: list[subprocess.Popen[bytes]] = []
    sites: list[Site] = []
    try:
        redis_port = None
        if args.servers > 1:
            redis_port = args.redis_port
            _port_free(redis_port)
            redis = ["redis-server", "--port", str(redis_port), "--save", "", "--appendonly", "no"]
            started.append(_start(redis, dict(os.environ)))
        env = _environment(folder, url, redis_port)
        database = "PostgreSQL" if url.startswith("postgres") else "SQLite"
        _run(env, "manage.py", "migrate", "--noinput", "-v", "0")
        seeding = time.monotonic()
        seed = ["-m", "benchmarks.venue_seed", "--players", str(args.players)]
        _run(env, *seed, "--out", env["VENUE_FILE"])
        print(f"Seeded in {time.monotonic() - seeding:.1f} s", flush=True)
        hosts = []
        for n in range(args.servers):  # one after the other: each runs the release step
            port = args.port + n
            _port_free(port)  # else another process's server would answer the load
            site = Site(
                {**env, "WORKER_NICE": str(args.worker_nice)}, port, folder / f"serve-{n}.log"
            )
            sites.append(site)
            site.start()
            hosts.append(site.base)
        setup = Setup(folder, env, hosts, database, args.servers, args.players, args.worker_nice)
        texts = {}
        for scenario in args.scenario:
            if scenario == "venue":
                texts[scenario] = venue(setup, args.seconds, args.result_every)
            elif scenario == "burst":
                texts[scenario] = burst(setup, args.burst_seconds)
            else:
                texts[scenario] = stress(setup, args.stress_seconds)
        return texts
    finally:
        for site in reversed(sites):
            site.stop()
        for process in reversed(started):
            _stop(process)


if __name__ == "__main__":
    sys.exit(main())
