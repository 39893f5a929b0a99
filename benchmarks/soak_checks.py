"""The soak test's checks at the end of its run, inside Django on the run's database.

    python -m benchmarks.soak_checks SETTLED.json      (the settings from the environment)

``SETTLED.json`` lists what the table pairs did (``benchmarks/soak_people.Settled``):
each match, the first dealer and the games reported, and whether the site took the
report and the confirmation. Prints one JSON object:

- ``results``: every match reported and confirmed is final with exactly the games
  reported, and its result log has exactly one report and one confirmation (a report
  or a confirmation sent again after a lost answer must not be saved twice); ``problems``
  names each match that is not so, and each the players gave up on;
- ``ratings``: the rating list as stored against the list recomputed from scratch
  (``ratings_recompute``, in a transaction rolled back: the database is left as it was);
- ``tasks``: tasks waiting or running, results waiting to be rated, tasks failed for good
  (failed and not run again), and tasks run again: by reason, and each with when it was
  queued again and when the new run ended.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

Rows = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]


def rating_rows() -> Rows:
    """Every row of the rating list, without the ids the database chose."""
    from ratings.models import ListRating, PeriodRating, RatingPeriod

    periods = RatingPeriod.objects.order_by("position").values_list(
        "position", "round_id", "date", "matches"
    )
    history = PeriodRating.objects.order_by("period__position", "player_id").values_list(
        "period__position", "player_id", "rating", "deviation", "volatility", "matches", "wins"
    )
    listed = ListRating.objects.order_by("player_id").values_list(
        "player_id", "period__position", "rating", "deviation", "volatility", "matches", "wins"
    )
    return list(periods), list(history), list(listed)


def check_ratings() -> dict[str, Any]:
    """The stored list against a recomputation; the database is left as it was."""
    from django.db import transaction

    from ratings.services import ratings_recompute

    with transaction.atomic():
        stored = rating_rows()
        ratings_recompute()
        recomputed = rating_rows()
        transaction.set_rollback(True)
    differing = sum(
        len(set(mine).symmetric_difference(theirs))
        for mine, theirs in zip(stored, recomputed, strict=True)
    )
    return {
        "equal": stored == recomputed,
        "rows": sum(len(part) for part in stored),
        "differing_rows": differing,
    }


def check_results(settled: list[dict[str, Any]]) -> dict[str, Any]:
    """Each match the players settled is final with their games, logged once each way."""
    from tournaments.models import Game, Match, ResultChange

    done = [one for one in settled if one["reported"] and one["confirmed"]]
    matches = Match.objects.in_bulk([one["match"] for one in done])
    games: dict[int, list[tuple[int, int]]] = {}
    for match_id, winner, loser_score in (
        Game.objects.filter(match__in=matches)
        .order_by("match_id", "number")
        .values_list("match_id", "winner", "loser_score")
    ):
        games.setdefault(match_id, []).append((winner, loser_score))
    logged: dict[int, Counter[str]] = {}
    for match_id, action in ResultChange.objects.filter(match__in=matches).values_list(
        "match_id", "action"
    ):
        logged.setdefault(match_id, Counter())[action] += 1
    problems = [
        f"match {one['match']}: the players gave up ({one['note'] or 'not settled'})"
        for one in settled
        if not (one["reported"] and one["confirmed"])
    ]
    exact = 0
    for one in done:
        found = _match_problems(one, matches.get(one["match"]), games, logged)
        exact += not found
        problems += found
    return {"settled": len(done), "exact": exact, "problems": problems}


def _match_problems(
    one: dict[str, Any],
    match: Any,
    games: dict[int, list[tuple[int, int]]],
    logged: dict[int, Counter[str]],
) -> list[str]:
    from tournaments.models import Match, ResultChange

    name = f"match {one['match']}"
    if match is None:
        return [f"{name}: not in the database"]
    problems = []
    if match.status != Match.Status.FINAL:
        problems.append(f"{name}: {match.status}, not final")
    reported = [tuple(game) for game in one["games"]]
    if games.get(match.pk, []) != reported or match.first_dealer != one["first_dealer"]:
        problems.append(f"{name}: games {games.get(match.pk, [])}, reported {reported}")
    log = logged.get(match.pk, Counter())
    wanted = Counter({ResultChange.Action.REPORTED: 1, ResultChange.Action.CONFIRMED: 1})
    if log != wanted:
        problems.append(f"{name}: result log {dict(sorted(log.items()))}, wanted one of each")
    return problems


def check_tasks() -> dict[str, Any]:
    from django_tasks_db.compat import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from ops.models import TaskRerun
    from ratings.models import PendingRerate

    run_again = TaskRerun.objects.values("original_id")
    failed = DBTaskResult.objects.filter(status=TaskResultStatus.FAILED).exclude(pk__in=run_again)
    return {
        "waiting": DBTaskResult.objects.filter(status=TaskResultStatus.READY).count(),
        "running": DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).count(),
        "pending_rerates": PendingRerate.objects.count(),
        "failed_for_good": dict(Counter(failed.values_list("task_path", flat=True))),
        "run_again": dict(Counter(TaskRerun.objects.values_list("reason", flat=True))),
        "succeeded": DBTaskResult.objects.filter(status=TaskResultStatus.SUCCESSFUL).count(),
        "reruns": reruns(),
    }


def reruns() -> list[dict[str, Any]]:
    """Each task run again: why, when it was queued again and when the new run ended
    (seconds since the epoch), and how."""
    from django_tasks_db.models import DBTaskResult

    from ops.models import TaskRerun

    records = list(TaskRerun.objects.order_by("at"))
    again = DBTaskResult.objects.in_bulk([r.rerun_id for r in records if r.rerun_id])
    made = []
    for record in records:
        run = again.get(record.rerun_id) if record.rerun_id else None
        finished = run.finished_at.timestamp() if run and run.finished_at else None
        made.append(
            {
                "task": record.task_path,
                "reason": record.reason,
                "at": record.at.timestamp(),
                "finished": finished,
                "status": str(run.status) if run else None,
            }
        )
    return made


def check(settled: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "results": check_results(settled),
        "ratings": check_ratings(),
        "tasks": check_tasks(),
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    settled = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    print(json.dumps(check(settled)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
