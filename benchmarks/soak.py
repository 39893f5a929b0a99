"""The soak test behind ``make soak``: a championship day against ``make serve`` while
faults are done to it at random (issue 32).

    python -m benchmarks.soak [--minutes 30] [--seed 1] [--players 64] [--no-docs] [--keep]

1. Servers of its own, each in a temporary folder and stopped at the end
   (``benchmarks/soak_servers.py``): a PostgreSQL 15 cluster and a Redis (no
   persistence) on free loopback ports; the database migrated, the static files collected
   (harmless if ``make serve`` does it too) and seeded by ``benchmarks.venue_seed``
   (``--players``, 3 closed rounds, the next published, enough Swiss rounds after it for
   the day); then ``make serve`` itself (gunicorn and the supervised task worker) with
   production settings, ``CACHE_URL=redis://…`` and ``CLIENT_IP_HEADER`` (each simulated
   phone has an address of its own).
2. For ``--minutes``, the people of ``benchmarks/soak_people.py`` over HTTP: table pairs
   reporting and confirming by private link (one result every ``--result-every`` s),
   spectators polling the round page with their ETags, readers asking for PDFs and
   following "being prepared", the organiser closing each round when its tables are
   final and publishing the next, and ``/health/`` asked every second. A request that
   meets a fault may fail: the person tries again a few seconds later, and every status
   is counted.
3. Meanwhile, every ``--fault-every`` seconds (a random span, ``--seed``), a fault in
   turn: the task worker killed (``kill -9``), PostgreSQL stopped for 3-10 s, Redis
   stopped (``shutdown nosave``) for 2-6 s; each is logged with its time.
4. Then the load stops (a pair finishes its table, a reader their PDF) and the run waits,
   up to ``--settle-minutes``, until no task waits or runs and no result waits to be
   rated; and checks (``benchmarks/soak_checks.py``): every result saved exactly once,
   the rating list equal to a recomputation, every PDF asked for served, no 500 and no
   503 outside a PostgreSQL outage. It prints the figures, writes them (unless
   ``--no-docs``) to docs/benchmarks.md between ``<!-- soak:begin -->`` and
   ``<!-- soak:end -->``, and exits 1 if a check failed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.load import write_docs
from benchmarks.servers import own_servers
from benchmarks.soak_browser import Tally
from benchmarks.soak_people import (
    PATIENCE,
    Monitor,
    TablePair,
    Venue,
    everyone,
    first_tables,
    run_until,
)
from benchmarks.soak_report import Day, report
from benchmarks.soak_servers import (
    ROOT,
    Faults,
    Postgres,
    Redis,
    Site,
    clock,
    manage,
    queue_busy,
)

SEEDED_ROUNDS = 3


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--pairs", type=int, default=4, help="table pairs reporting")
    parser.add_argument("--result-every", type=float, default=20.0)
    parser.add_argument("--spectators", type=int, default=24)
    parser.add_argument("--readers", type=int, default=3)
    parser.add_argument("--read-every", type=float, nargs=2, default=[20.0, 60.0])
    parser.add_argument("--fault-every", type=float, nargs=2, default=[60.0, 120.0])
    parser.add_argument("--settle-minutes", type=float, default=5, help="bound on convergence")
    parser.add_argument("--no-docs", action="store_true", help="print the figures only")
    parser.add_argument("--keep", action="store_true", help="keep the folder (logs, database)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    with own_servers("club-soak-", keep=args.keep) as servers:
        folder = servers.folder
        env = servers.migrated()
        manage(env, "manage.py", "collectstatic", "--noinput", "-v", "0")
        tables = args.players // 2
        more = math.ceil(args.minutes * 60 / args.result_every / tables) + 1
        seed = ["-m", "benchmarks.venue_seed", "--players", str(args.players)]
        seed += ["--rounds", str(SEEDED_ROUNDS), "--more-rounds", str(more)]
        manage(env, *seed, "--out", env["VENUE_FILE"])
        site = servers.serve(env)
        day = play(args, folder, env, site, servers.postgres, servers.redis)
    text, passed = report(day)
    print(text)
    if not args.no_docs:
        write_docs(text, "<!-- soak:begin -->", "<!-- soak:end -->")
    return 0 if passed else 1


def play(
    args: argparse.Namespace,
    folder: Path,
    env: dict[str, str],
    site: Site,
    postgres: Postgres,
    redis: Redis,
) -> Day:
    seeded = json.loads(Path(env["VENUE_FILE"]).read_text(encoding="utf-8"))
    load_before = load_average()
    began, began_wall = time.monotonic(), time.time()
    venue = Venue(
        site.base, seeded["championship"], seeded["round"], Tally(began), threading.Event()
    )
    venue.tables = first_tables(seeded["tables"])
    people = everyone(
        venue,
        seed=args.seed,
        pairs=args.pairs,
        result_every=args.result_every,
        spectators=args.spectators,
        readers=args.readers,
        read_every=(args.read_every[0], args.read_every[1]),
        database=postgres.url,
        organiser=seeded["organiser"],
    )
    watching = threading.Event()
    monitor = Monitor(venue, began, watching)
    faults = Faults(
        seed=args.seed,
        every=(args.fault_every[0], args.fault_every[1]),
        began=began,
        site=site,
        postgres=postgres,
        redis=redis,
    )
    print(
        f"[{clock(0)}] the day begins: {len(venue.tables)} tables in round {venue.round}",
        flush=True,
    )
    for thread in [monitor, *people, faults]:
        thread.start()
    end = began + args.minutes * 60
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(60.0, left))
        progress(venue, began)
    venue.stopping.set()
    faults.stop()
    stopped = time.monotonic() - began
    print(f"[{clock(stopped)}] the load stops; the pairs finish their tables", flush=True)
    for person in people:
        person.join(timeout=2 * PATIENCE + 60 if isinstance(person, TablePair) else PATIENCE + 60)
    database = postgres.url
    converged = run_until(lambda: queue_busy(database) == (0, 0), args.settle_minutes * 60)
    settled_at = time.monotonic() - began
    print(f"[{clock(settled_at)}] {'converged' if converged else 'NOT converged'}", flush=True)
    checks = run_checks(env, folder, venue)
    time.sleep(3)  # /health/ after the run
    watching.set()
    monitor.join()
    return Day(
        args=vars(args),
        venue=venue,
        faults=faults.log,
        stopped=stopped,
        converged=settled_at if converged else None,
        checks=checks,
        load_before=load_before,
        load_after=load_average(),
        site_log=(folder / "site.log").read_text(encoding="utf-8", errors="replace"),
        rounds=sum(getattr(person, "rounds_played", 0) for person in people),
        began_wall=began_wall,
    )


def run_checks(env: dict[str, str], folder: Path, venue: Venue) -> dict[str, Any]:
    settled = folder / "settled.json"
    settled.write_text(json.dumps([vars(one) for one in venue.settled]), encoding="utf-8")
    command = [sys.executable, "-m", "benchmarks.soak_checks", str(settled)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return {"error": done.stderr.strip().splitlines()[-1:]}
    checks: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return checks


def progress(venue: Venue, began: float) -> None:
    with venue.tally.lock:
        answers = sum(sum(counts.values()) for counts in venue.tally.counts.values())
        errors = sum(counts[500] for counts in venue.tally.counts.values())
        unavailable = sum(counts[503] for counts in venue.tally.counts.values())
    print(
        f"[{clock(time.monotonic() - began)}] round {venue.round}, {len(venue.settled)} results "
        f"settled, {len(venue.pdfs)} PDFs read, {answers} answers ({errors} × 500, "
        f"{unavailable} × 503)",
        flush=True,
    )


def load_average() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


if __name__ == "__main__":
    sys.exit(main())
