"""The soak test's figures as docs/benchmarks.md shows them, and whether its checks passed
(``benchmarks/soak.py``).

Terms:
- A fault's *window* runs from when it began until ``GRACE`` seconds after it was
  undone (the server started again, the new worker running): an answer in it is
  counted as that fault's.
- A check *passes* or *fails*; the run passes when every check does.
"""

from __future__ import annotations

import datetime
import os
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from benchmarks.soak_people import PdfRead, Venue
from benchmarks.soak_servers import NAMES, Fault, clock

GRACE = 15.0
HEALTH = "/health/"
TRACEBACK = re.compile(r"^Traceback \(most recent call last\):$")
CHAINED = ("During handling of the above exception", "The above exception was the direct cause")
EXCEPTION = re.compile(r"^([\w.]+(?:Error|Exception|Refused|Timeout)\w*)(?::|$)")


@dataclass
class Day:
    args: dict[str, Any]
    venue: Venue
    faults: list[Fault]
    stopped: float  # when the load stopped, seconds after it began
    converged: float | None  # when nothing waited any more (None: not within the bound)
    checks: dict[str, Any]
    load_before: str
    load_after: str
    site_log: str
    rounds: int  # rounds the organiser published during the day
    began_wall: float  # when the day began, in seconds since the epoch


def during(faults: list[Fault], at: float) -> Fault | None:
    """The fault whose window holds ``at`` (the latest to begin)."""
    held = [fault for fault in faults if fault.started <= at <= fault.ended + GRACE]
    return held[-1] if held else None


def counted(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def heading(day: Day, passed: bool) -> str:
    args = day.args
    today = datetime.datetime.now(datetime.UTC).date()
    command = (
        f"python -m benchmarks.soak --minutes {args['minutes']:g} --seed {args['seed']} "
        f"--players {args['players']}"
    )
    rounds = counted(day.rounds, "new round")
    low, high = args["fault_every"]
    return (
        f"Measured {today:%Y-%m-%d} by `{command}` on {os.cpu_count()} cores (load average "
        f"before {day.load_before}, after {day.load_after}): `make serve` (gunicorn with 3 "
        "sync workers and the supervised task worker) on a PostgreSQL 15 and a Redis of the "
        f"run's own; {args['players']} players, {args['pairs']} table pairs reporting and "
        f"confirming by private link (a result every {args['result_every']:g} s; the "
        f"organiser published {rounds}), {args['spectators']} spectators polling the round "
        f"every 10 s, {args['readers']} PDF readers; a fault every {low:g}-{high:g} s. "
        + ("Every check passed." if passed else "**Some checks failed.**")
    )


def report(day: Day) -> tuple[str, bool]:
    """The figures (Markdown) and whether every check passed."""
    checks = check_rows(day)
    passed = all(row[3] != FAILED for row in checks)
    lines = [
        heading(day, passed),
        "",
        "**Faults** (/health/ asked every second):",
        "",
        "| At | Fault | What was done | /health/ |",
        "|---|---|---|---|",
        *(
            f"| {clock(fault.started)} | {NAMES[fault.kind]} | {fault.detail} | "
            f"{health_during(day.venue.health, fault)} |"
            for fault in day.faults
        ),
        "",
        "**Answers** (every request counted; *none*: the connection refused, cut or timed out):",
        "",
        *answers_table(day.venue),
        "",
        "**Failed answers by fault** (in a fault's window: from when it began until "
        f"{GRACE:g} s after it was undone):",
        "",
        *troubles_table(day),
        "",
        "| Check | Target | Measured | |",
        "|---|---|---|---|",
        *(
            f"| {what} | {target} | {measured} | {verdict} |"
            for what, target, measured, verdict in checks
        ),
    ]
    causes = causes_of_errors(day.site_log)
    if causes:
        lines += ["", "Errors in the site's log (tracebacks, by exception): " + causes + "."]
    return "\n".join(lines), passed


def health_during(health: list[tuple[float, int]], fault: Fault) -> str:
    seen = [(at, status) for at, status in health if fault.started <= at <= fault.ended + GRACE]
    bad = [at for at, status in seen if status != 200]
    if not bad:
        return "200 throughout" if seen else "not asked"
    statuses = Counter(status for _at, status in seen if status != 200)
    after = next((at for at, status in health if at > fault.ended and status == 200), None)
    back = (
        f"200 again {after - fault.ended:.1f} s after" if after is not None else "never 200 again"
    )
    shown = ", ".join(f"{status or 'none'} × {n}" for status, n in sorted(statuses.items()))
    return f"{shown} from +{bad[0] - fault.started:.1f} s; {back}"


COLUMNS = [200, 302, 304, 429, 500, 503, 0]


def answers_table(venue: Venue) -> list[str]:
    head = "| Requests | Count | " + " | ".join(str(c or "none") for c in COLUMNS) + " | other |"
    lines = [head, "|---" * (len(COLUMNS) + 3) + "|"]
    total: Counter[int] = Counter()
    for name, counts in sorted(venue.tally.counts.items()):
        total += counts
        lines.append(_answers_line(name, counts))
    lines.append(_answers_line("All requests", total))
    return lines


def _answers_line(name: str, counts: Counter[int]) -> str:
    other = sum(n for status, n in counts.items() if status not in COLUMNS)
    cells = [str(counts[column]) for column in COLUMNS]
    return f"| {name} | {sum(counts.values())} | {' | '.join(cells)} | {other} |"


def troubles_table(day: Day) -> list[str]:
    by_when: dict[str, Counter[int]] = {
        f"{NAMES[fault.kind]} at {clock(fault.started)}": Counter() for fault in day.faults
    }
    by_when["outside any fault"] = Counter()
    for at, name, status in day.venue.tally.troubles:
        if name == HEALTH:
            continue
        fault = during(day.faults, at)
        when = f"{NAMES[fault.kind]} at {clock(fault.started)}" if fault else "outside any fault"
        by_when[when][status] += 1
    lines = ["| When | 500 | 503 | none | other 5xx |", "|---|---|---|---|---|"]
    for when, counts in by_when.items():
        other = sum(n for status, n in counts.items() if status not in (0, 500, 503))
        lines.append(f"| {when} | {counts[500]} | {counts[503]} | {counts[0]} | {other} |")
    return lines


def causes_of_errors(log: str) -> str:
    """The exceptions that ended the tracebacks in the site's log (not their causes),
    counted by where they were raised: a request, a task or elsewhere."""
    lines = [line for line in log.splitlines() if line.strip()]
    found: Counter[tuple[str, str]] = Counter()
    where = "elsewhere"
    for n, line in enumerate(lines):
        if not TRACEBACK.match(line):
            continue
        if n and not lines[n - 1].startswith(CHAINED):  # a chain begins: what logged it
            before = lines[n - 1]
            where = "requests" if before.startswith("Internal Server Error") else "elsewhere"
            where = "tasks" if "Task id=" in before or before.startswith("Rendering") else where
        ended = next((m for m in range(n + 1, len(lines)) if not lines[m][0].isspace()), None)
        if ended is None or (ended + 1 < len(lines) and lines[ended + 1].startswith(CHAINED)):
            continue  # the cause of the next one
        if match := EXCEPTION.match(lines[ended]):
            found[(match[1], where)] += 1
    return ", ".join(f"`{name}` × {n} in {where}" for (name, where), n in found.most_common())


FAILED = "**failed**"
COUNTED = "(counted)"


def _verdict(ok: bool) -> str:
    return "passed" if ok else FAILED


def check_rows(day: Day) -> list[tuple[str, str, str, str]]:
    if "error" in day.checks:
        return [("The checks", "ran", f"failed: {day.checks['error']}", _verdict(False))]
    return [
        results_row(day),
        ratings_row(day),
        convergence_row(day),
        pdfs_row(day.venue.pdfs),
        *errors_rows(day),
        health_row(day),
        tasks_row(day),
        killed_tasks_row(day),
        outage_log_row(day),
    ]


def results_row(day: Day) -> tuple[str, str, str, str]:
    results = day.checks["results"]
    retried = sum(1 for one in day.venue.settled if one.report_tries > 1 or one.confirm_tries > 1)
    measured = f"{results['exact']} of {results['settled']} ({retried} sent again after a failure)"
    if results["problems"]:
        measured += "; " + "; ".join(results["problems"][:5])
    ok = not results["problems"] and results["settled"] > 0
    target = "each match reported and confirmed final with its games, logged once each way"
    return ("Results saved exactly once", target, measured, _verdict(ok))


def ratings_row(day: Day) -> tuple[str, str, str, str]:
    ratings = day.checks["ratings"]
    if ratings["equal"]:
        measured = f"equal ({ratings['rows']} rows)"
    else:
        measured = f"{ratings['differing_rows']} rows differ of {ratings['rows']}"
    return ("Rating list", "equal to a recomputation", measured, _verdict(ratings["equal"]))


def convergence_row(day: Day) -> tuple[str, str, str, str]:
    bound = day.args["settle_minutes"]
    target = f"no task waiting or running, no result waiting to be rated, within {bound:g} min"
    if day.converged is None:
        return ("Converged", target, f"not within {bound:g} min", _verdict(False))
    last = max((fault.ended for fault in day.faults), default=0.0)
    measured = (
        f"{day.converged - last:.0f} s after the last fault was undone, "
        f"{day.converged - day.stopped:.0f} s after the load stopped"
    )
    return ("Converged", target, measured, _verdict(day.checks["ratings"]["equal"]))


def pdfs_row(pdfs: list[PdfRead]) -> tuple[str, str, str, str]:
    served = [read for read in pdfs if read.served]
    longest = max((read.seconds for read in served), default=0.0)
    failures = sum(read.failures_seen for read in pdfs)
    measured = (
        f"{len(served)} of {len(pdfs)} (longest wait {longest:.0f} s; "
        f'{failures} "could not be prepared" pages, tried again)'
    )
    return ("PDFs", "every one asked for served", measured, _verdict(len(served) == len(pdfs)))


def errors_rows(day: Day) -> list[tuple[str, str, str, str]]:
    troubles = [(at, status) for at, name, status in day.venue.tally.troubles if name != HEALTH]
    errors = [at for at, status in troubles if status == 500]
    unavailable = [at for at, status in troubles if status == 503]
    outside = [
        at for at in unavailable if (f := during(day.faults, at)) is None or f.kind != "postgres"
    ]
    return [
        ("500 answers", "0", str(len(errors)), _verdict(not errors)),
        (
            "503 answers",
            "only during a PostgreSQL outage",
            f"{len(unavailable) - len(outside)} during one, {len(outside)} otherwise",
            _verdict(not outside),
        ),
    ]


def health_row(day: Day) -> tuple[str, str, str, str]:
    outages = [fault for fault in day.faults if fault.kind in ("postgres", "redis")]
    told = [
        fault
        for fault in outages
        if any(
            status != 200 and fault.started <= at <= fault.ended + GRACE
            for at, status in day.venue.health
        )
    ]
    last = day.venue.health[-1][1] if day.venue.health else 0
    statuses = Counter(status for _at, status in day.venue.health)
    shown = ", ".join(f"{status or 'none'} × {n}" for status, n in sorted(statuses.items()))
    measured = f"not 200 in {len(told)} of {len(outages)} outages, {last} at the end ({shown})"
    ok = len(told) == len(outages) and last == 200
    return (
        "/health/",
        "503 during a PostgreSQL or Redis outage, 200 after",
        measured,
        _verdict(ok),
    )


def tasks_row(day: Day) -> tuple[str, str, str, str]:
    tasks = day.checks["tasks"]
    failed = tasks["failed_for_good"]
    measured = (
        f"{tasks['succeeded']} succeeded; run again: {tasks['run_again'] or 'none'}; "
        f"failed for good: {failed or 'none'}"
    )
    return ("Tasks", "", measured, COUNTED)


def killed_tasks_row(day: Day) -> tuple[str, str, str, str]:
    """How long after each kill the task its worker left was queued again, and done."""
    kills = [fault for fault in day.faults if fault.kind == "worker"]
    seen = []
    for rerun in day.checks["tasks"]["reruns"]:
        if rerun["reason"] != "worker-lost":
            continue
        at = rerun["at"] - day.began_wall
        kill = max((k for k in kills if k.started <= at), key=lambda k: k.started, default=None)
        if kill is None:
            continue
        done = (
            f"done {rerun['finished'] - day.began_wall - kill.started:.0f} s after"
            if rerun["finished"] and rerun["status"] == "SUCCESSFUL"
            else f"not done ({rerun['status']})"
        )
        task = rerun["task"].rsplit(".", 1)[-1]
        seen.append(
            f"{task} killed at {clock(kill.started)}: queued again "
            f"{at - kill.started:.0f} s after, {done}"
        )
    target = "queued again within the lease and a sweep (30 + 10 s) of the new worker"
    none = "none killed mid-task" if kills else "no worker killed"
    return ("A killed worker's task", target, "; ".join(seen) or none, COUNTED)


def outage_log_row(day: Day) -> tuple[str, str, str, str]:
    """What the worker logged of the database's outages (ops/worker.py's ``Outage``)."""
    outages = sum(1 for fault in day.faults if fault.kind == "postgres")
    lost = day.site_log.count("The database cannot be reached")
    back = day.site_log.count("The database is back after")
    target = "for each PostgreSQL outage: cannot be reached, once; back, once"
    measured = f"{lost} × cannot be reached, {back} × back, for {counted(outages, 'outage')}"
    return ("The worker's log", target, measured, COUNTED)
