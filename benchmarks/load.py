"""The venue load test behind ``make load``: gunicorn, a seeded championship, locust.

    python -m benchmarks.load [--venue-seconds 120] [--stress-seconds 20] [--no-docs]

1. A fresh database: the ``DATABASE_URL`` in the environment if it names PostgreSQL (give
   it an empty database: the test fills it), otherwise a SQLite file in a temporary folder.
   Production settings (DEBUG off), a file cache in the same folder, static files collected.
2. ``benchmarks.venue_seed``: a 256-player championship after 8 rounds with round 9 to be
   reported, a side event for the organiser to pair again.
3. gunicorn with 3 sync workers on 127.0.0.1.
4. locust, headless (scenarios in ``benchmarks/locustfile.py``): the venue (150
   spectators polling every 10 s, 32 table pairs = 64 players reporting and confirming
   through their private links, one organiser) for ``--venue-seconds``; then each stress
   scenario, closed loop with 8 users and no think time, for ``--stress-seconds``.
5. The figures (requests/s, p50, p95, p99, errors) printed and written to
   docs/benchmarks.md between the ``load`` markers, beside the targets.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- load:begin -->", "<!-- load:end -->"
VENUE = ["Spectator", "TablePair", "Organiser"]
VENUE_USERS = 150 + 32 + 1
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


def _environment(folder: Path, database: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database,
        "DEBUG": "0",
        "SECRET_KEY": "load-test-only-" + os.urandom(16).hex(),
        "SECURE_SSL": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "CACHE_URL": f"file://{folder / 'cache'}",
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
    env: dict[str, str], host: str, prefix: Path, users: int, seconds: int, classes: list[str]
) -> None:
    locust = str(Path(sys.executable).with_name("locust"))
    command = [locust, "-f", "benchmarks/locustfile.py", "--headless", "--only-summary"]
    # Arrivals over about 20 s; the figures are of the steady state after them.
    command += ["--host", host, "-u", str(users), "-r", str(max(users // 20, 1)), "--reset-stats"]
    command += ["-t", f"{seconds}s", "--csv", str(prefix), "--loglevel", "WARNING", *classes]
    subprocess.run(command, cwd=ROOT, env=env, check=False)


def _rows(prefix: Path) -> list[dict[str, str]]:
    with open(f"{prefix}_stats.csv", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def _line(row: dict[str, str]) -> str:
    name = "All requests" if row["Name"] == "Aggregated" else row["Name"]
    return (
        f"| {name} | {row['Request Count']} | {float(row['Requests/s']):.1f} | "
        f"{row['50%']} | {row['95%']} | {row['99%']} | {row['Failure Count']} |"
    )


def _table(rows: list[dict[str, str]]) -> list[str]:
    head = ["| Requests | Count | Requests/s | p50 ms | p95 ms | p99 ms | Errors |"]
    return [*head, "|---|---|---|---|---|---|---|", *(_line(row) for row in rows)]


def report(folder: Path, database: str, venue_seconds: int, stress_seconds: int) -> str:
    venue = _rows(folder / "venue")
    # Each stress scenario asks for one address: its first row (the last is the total).
    stress = {name: _rows(folder / name)[0] for name in STRESS}
    total = venue[-1]
    ratio = float(stress["StandingsReader"]["Requests/s"]) / float(stress["Ping"]["Requests/s"])
    full = float(stress["StandingsNewcomer"]["Requests/s"]) / float(stress["Ping"]["Requests/s"])
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    today = datetime.datetime.now(datetime.UTC).date()
    lines = [
        f"Measured {today:%Y-%m-%d} by `make load` on {os.cpu_count()} cores "
        f"(load average after the run {load}), gunicorn 3 sync workers, {database}, "
        "locust on the same machine.",
        "",
        f"**Venue** ({VENUE_USERS} users for {venue_seconds} s: 150 spectators polling every "
        "10 s, 64 players reporting and confirming by private link, one organiser):",
        "",
        *_table(venue),
        "",
        f"**Stress** (closed loop, {STRESS_USERS} users, no think time, {stress_seconds} s each):",
        "",
        *_table([stress[name] for name in STRESS]),
        "",
        "| Target | Measured |",
        "|---|---|",
        f"| Venue p95 ≤ 200 ms, 0 errors | {total['95%']} ms, {total['Failure Count']} errors |",
        f"| Standings throughput ≥ 50 % of the trivial view's | {ratio:.0%} revalidating "
        f"(as the polling page asks); {full:.0%} for new visitors (a full render each) |",
        f"| Cached PDF p95 ≤ 50 ms | {stress['PdfReader']['95%']} ms |",
    ]
    return "\n".join(lines)


def write_docs(text: str, begin: str = BEGIN, end: str = END) -> None:
    """``text`` in docs/benchmarks.md in place of what stands between ``begin`` and ``end``."""
    docs = DOCS.read_text(encoding="utf-8")
    start, stop = docs.index(begin) + len(begin), docs.index(end)
    DOCS.write_text(docs[:start] + "\n" + text + "\n" + docs[stop:], encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venue-seconds", type=int, default=120)
    parser.add_argument("--stress-seconds", type=int, default=20)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--no-docs", action="store_true", help="print the figures only")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="club-load-"))
    url, drop = _fresh_database(folder)
    try:
        text = _measure(args, folder, _environment(folder, url))
    finally:
        drop()
        shutil.rmtree(folder, ignore_errors=True)
    print(text)
    if not args.no_docs:
        write_docs(text)
    return 0


def _measure(args: argparse.Namespace, folder: Path, env: dict[str, str]) -> str:
    host = f"http://127.0.0.1:{args.port}"
    database = "PostgreSQL" if env["DATABASE_URL"].startswith("postgres") else "SQLite"
    _run(env, "manage.py", "migrate", "--noinput", "-v", "0")
    _run(env, "manage.py", "collectstatic", "--noinput", "-v", "0")
    _run(env, "-m", "benchmarks.venue_seed", "--out", env["VENUE_FILE"])
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    server = subprocess.Popen(
        [gunicorn, "config.wsgi:application", "-w", "3", "-b", f"127.0.0.1:{args.port}"],
        cwd=ROOT,
        env=env,
    )
    try:
        _wait_for(f"{host}/ping/")
        _locust(env, host, folder / "venue", VENUE_USERS, args.venue_seconds, VENUE)
        for name in STRESS:
            _locust(env, host, folder / name, STRESS_USERS, args.stress_seconds, [name])
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
    return report(folder, database, args.venue_seconds, args.stress_seconds)


if __name__ == "__main__":
    sys.exit(main())
