"""The online benchmark: 50 games between members at once, on gunicorn, driven by locust.

    python -m benchmarks.online [--games 50] [--seconds 120] [--no-docs]
    python -m benchmarks.online --deals [--games 5] [--no-docs]

With ``--deals`` it measures instead, in one process, a move and a poll at deal 1 and at
deal 20 of a long match, with the match kept loaded between requests and without
(``benchmarks/online_deals.py`` says how). Otherwise:

1. A fresh database, as ``benchmarks.load`` makes one (PostgreSQL when ``DATABASE_URL``
   names a server, else a SQLite file), production settings, static files collected.
2. ``benchmarks.online_seed``: ``--games`` best-of-three matches between two members.
3. gunicorn with 3 sync workers on 127.0.0.1.
4. locust, headless (``benchmarks/online_locustfile.py``): both players of every game,
   each polling the table once a second with its ETag and taking each decision the table
   offers them after thinking 2-6 s, for ``--seconds`` after the arrivals.
5. The figures (requests/s, p50, p95, p99, errors) printed and written to
   docs/benchmarks.md between the ``online`` markers, beside the target: the decisions'
   p95 at most 50 ms (locust times each request from the same machine, so its times are
   the server's plus the loopback's, queueing for a worker included).
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.load import (
    ROOT,
    _environment,
    _fresh_database,
    _rows,
    _run,
    _table,
    _wait_for,
    write_docs,
)

BEGIN, END = "<!-- online:begin -->", "<!-- online:end -->"
# Each request's method, path, status and the worker's time on it in microseconds.
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(D)s"


def server_times(access_log: Path, since: float) -> dict[str, list[float]]:
    """The worker's milliseconds on each decision and each poll (304s and 200s apart)
    logged after ``since`` (the arrivals are left out, as locust's reset does)."""
    kinds: dict[str, list[float]] = {"decision": [], "poll 304": [], "poll 200": []}
    lines = access_log.read_text(encoding="utf-8").splitlines()
    for line in lines[int(since * len(lines)) :]:
        method, path, status, micros = line.split()
        if method == "POST" and path.endswith("/move/"):
            kinds["decision"].append(int(micros) / 1000)
        elif path.endswith("/table/"):
            kinds[f"poll {status}"].append(int(micros) / 1000)
    return kinds


def percentiles(values: list[float]) -> str:
    if not values:
        return "| – | – | – | – |"
    ordered = sorted(values)
    at = [ordered[min(len(ordered) - 1, int(share * len(ordered)))] for share in (0.5, 0.95, 0.99)]
    return f"| {len(values)} | {at[0]:.1f} | {at[1]:.1f} | {at[2]:.1f} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", action="store_true", help="a move and a poll by deal")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seconds", type=int, default=120)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--no-docs", action="store_true", help="print the figures only")
    args = parser.parse_args(argv)
    if args.deals:
        from benchmarks.online_deals import main as by_deal

        return by_deal(args.games or 5, docs=not args.no_docs)
    args.games = args.games or 50
    folder = Path(tempfile.mkdtemp(prefix="club-online-"))
    url, drop = _fresh_database(folder)
    try:
        text = _measure(
            args, folder, {**_environment(folder, url), "ONLINE_FILE": str(folder / "online.json")}
        )
    finally:
        drop()
        shutil.rmtree(folder, ignore_errors=True)
    print(text)
    if not args.no_docs:
        write_docs(text, BEGIN, END)
    return 0


def _measure(args: argparse.Namespace, folder: Path, env: dict[str, str]) -> str:
    host = f"http://127.0.0.1:{args.port}"
    database = "PostgreSQL" if env["DATABASE_URL"].startswith("postgres") else "SQLite"
    _run(env, "manage.py", "migrate", "--noinput", "-v", "0")
    _run(env, "manage.py", "collectstatic", "--noinput", "-v", "0")
    _run(
        env, "-m", "benchmarks.online_seed", "--out", env["ONLINE_FILE"], "--games", str(args.games)
    )
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    access_log = folder / "access.log"
    server = subprocess.Popen(
        [gunicorn, "config.wsgi:application", "-w", "3", "-b", f"127.0.0.1:{args.port}"]
        + ["--access-logfile", str(access_log), "--access-logformat", ACCESS_FORMAT],
        cwd=ROOT,
        env=env,
    )
    users = 2 * args.games
    try:
        _wait_for(f"{host}/ping/")
        locust = str(Path(sys.executable).with_name("locust"))
        command = [locust, "-f", "benchmarks/online_locustfile.py", "--headless", "--only-summary"]
        command += ["--host", host, "-u", str(users), "-r", str(max(users // 10, 1))]
        command += ["--reset-stats", "-t", f"{args.seconds + 10}s", "--csv", str(folder / "online")]
        command += ["--loglevel", "WARNING"]
        subprocess.run(command, cwd=ROOT, env=env, check=False)
    finally:
        server.terminate()
        server.wait(timeout=30)
    rows = _rows(folder / "online")
    decisions = next(row for row in rows if row["Name"] == "online decision")
    # The first tenth of the log is the arrivals (users spawn over about 10 s of 130).
    worker = server_times(access_log, since=10 / (args.seconds + 10))
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    today = datetime.datetime.now(datetime.UTC).date()
    return "\n".join(
        [
            f"Measured {today:%Y-%m-%d} by `python -m benchmarks.online --games {args.games} "
            f"--seconds {args.seconds}` on {os.cpu_count()} cores (load average after the run "
            f"{load}), gunicorn 3 sync workers, {database}, locust on the same machine: "
            f"{users} players of {args.games} best-of-three matches, each polling once a "
            "second and taking each decision after thinking 2-6 s.",
            "",
            "As locust saw them (the server's time, the loopback and any wait for a worker):",
            "",
            *_table(rows),
            "",
            "The server's time, from gunicorn's access log (the worker's time on each request):",
            "",
            "| Requests | Count | p50 ms | p95 ms | p99 ms |",
            "|---|---|---|---|---|",
            *(f"| {kind} {percentiles(times)}" for kind, times in worker.items()),
            "",
            "| Target | Measured |",
            "|---|---|",
            f"| Decision p95 ≤ 50 ms server time, {args.games} games polling | "
            f"{percentiles(worker['decision']).split(' | ')[2]} ms server time; "
            f"{decisions['95%']} ms as locust saw it ({decisions['Request Count']} decisions, "
            f"{decisions['Failure Count']} errors) |",
        ]
    )


if __name__ == "__main__":
    raise SystemExit(main())
