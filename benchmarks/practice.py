"""Practice games against the computer: the server time of each of the player's decisions.

    .venv/bin/python -m benchmarks.practice [--games 20] [--seed 1] [--level expert]
                                            [--cold-search] [--gc-freeze] [--parts] [--profile]

Plays ``--games`` whole games (best of 1) against the computer at ``--level``
through Django's test client, the way the page does with htmx: each decision is
a POST to /play/<pk>/move/ (form-encoded, as htmx sends it) answered with the game
partial. The player's side is a standard computer choosing among the legal
decisions (chosen outside the timed request). Each POST is timed from the
client's call to its answer (the view, its queries and the template: the server
time, without a network) and its queries are counted. One warm-up game is played
first and not counted, as a worker that has served a game before. A member plays,
so starting games is not throttled.

``--cold-search`` empties the expert's table of searched play positions before
every decision, as if each request went to a worker that had never seen the
game. ``--gc-freeze`` moves every object made so far (Django, the templates,
the engine's tables, after the warm-up game) out of the garbage collector's
sight, as a server may do once it has started (``gc.freeze()``): the collector's
full passes then skip them. ``--parts`` adds the processor time of each part of a decision (the
replay of the saved game, the computer's decisions, the save, the table and its
narration, the template); ``--profile`` prints where the timed requests spent
their time.

It runs against a fresh SQLite database in a temporary folder unless
``DATABASE_URL`` is set (then that database is used: give it an empty one).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode

from benchmarks.site import setup_django

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "game"}
FORM = "application/x-www-form-urlencoded"
"""How htmx (and the form without JavaScript) posts a decision; the test client's default
is a multipart body, which costs Django more to read."""
PARTS = {
    "replay": [
        ("play.services", "load_match"),
        ("play.selectors", "load_match"),
        ("play.views", "load_match"),
    ],
    "computer": [("play.services", "computer_moves")],
    "save": [("play.services", "_save")],
    "table": [("play.views", "practice_table")],
    "render": [("play.views", "render")],
}
"""The parts of a decision timed by ``--parts``: the functions (module, name) each covers."""


@contextmanager
def timed_parts(spent: dict[str, float]) -> Iterator[None]:
    """Add each part's processor time to ``spent`` while the block runs."""
    import importlib

    replaced = []
    for part, places in PARTS.items():
        for module_name, name in places:
            module = importlib.import_module(module_name)
            if hasattr(module, name):
                original = getattr(module, name)
                setattr(module, name, _timing(original, part, spent))
                replaced.append((module, name, original))
    try:
        yield
    finally:
        for module, name, original in replaced:
            setattr(module, name, original)


def _timing(function: Callable[..., Any], part: str, spent: dict[str, float]) -> Any:
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[part] += time.process_time() - started

    return timed


def _post_data(practice: Any) -> dict[str, Any]:
    """The player's next decision as the page's form posts it (a standard computer decides)."""
    from play.services import load_match, stand_in_decision
    from scoring.players.strategy import ComputerPlayer

    match = load_match(practice)
    decision = stand_in_decision(match, ComputerPlayer("standard", practice.seed + 1))
    data: dict[str, Any] = {"version": practice.version, "action": decision.action}
    if decision.action == "discard":
        data["cards"] = [str(card) for card in decision.cards]
    elif decision.action == "play":
        data["card"] = str(decision.cards[0])
    elif decision.action == "count":
        data["points"] = decision.points
    return data


def play_game(
    client: Any,
    owner: Any,
    *,
    level: str,
    seed: int,
    cold: bool,
    profile: cProfile.Profile | None = None,
    parts: list[dict[str, float]] | None = None,
) -> list[tuple[float, int]]:
    """One whole game through the move view: each decision's (seconds, queries).

    With ``parts``, each decision's processor time by part is appended to it.
    """
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from play.models import PracticeGame
    from play.services import practice_start
    from scoring.players import pegplay

    practice = practice_start(owner=owner, level=level, seed=seed)
    url = reverse("play:move", args=[practice.pk])
    timings = []
    while not practice.finished:
        data = _post_data(practice)
        if cold:
            pegplay._SEARCH.memo.clear()
        connection.queries_log.clear()  # it keeps 9,000 queries, then counts none
        spent: dict[str, float] = defaultdict(float)
        watch = timed_parts(spent) if parts is not None else _nothing()
        with watch, CaptureQueriesContext(connection) as queries:
            if profile:
                profile.enable()
            started, cpu = time.perf_counter(), time.process_time()
            response = client.post(url, urlencode(data, doseq=True), FORM, **HTMX)
            elapsed = time.perf_counter() - started
            spent["all"] = time.process_time() - cpu
            if profile:
                profile.disable()
        if parts is not None:
            parts.append(spent)
        if response.status_code != 200 or b'role="alert"' in response.content:
            raise RuntimeError(f"decision {data} refused: {response.content[:300]!r}")
        timings.append((elapsed, len(queries)))
        practice = PracticeGame.objects.get(pk=practice.pk)
    return timings


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def summary(times_ms: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(times_ms, n=100, method="inclusive")
    return {
        "median": statistics.median(times_ms),
        "p90": cuts[89],
        "p95": cuts[94],
        "p99": cuts[98],
        "max": max(times_ms),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--level", default="expert", choices=("easy", "standard", "expert"))
    parser.add_argument("--cold-search", action="store_true")
    parser.add_argument("--gc-freeze", action="store_true")
    parser.add_argument("--parts", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    setup_django()
    from django.contrib.auth import get_user_model
    from django.test import Client

    owner = get_user_model().objects.create(username="bench-practice")
    client = Client()
    client.force_login(owner)
    play_game(client, owner, level=args.level, seed=10**9, cold=args.cold_search)
    if args.gc_freeze:
        gc.collect()
        gc.freeze()
    profile = cProfile.Profile() if args.profile else None
    parts: list[dict[str, float]] | None = [] if args.parts else None
    timings: list[tuple[float, int]] = []
    started = time.perf_counter()
    for number in range(args.games):
        seed = args.seed + number
        timings += play_game(
            client,
            owner,
            level=args.level,
            seed=seed,
            cold=args.cold_search,
            profile=profile,
            parts=parts,
        )
    wall = time.perf_counter() - started
    times_ms = [1000 * seconds for seconds, _ in timings]
    queries = [count for _, count in timings]
    figures = summary(times_ms)
    print(
        f"{args.games} games at {args.level} level (seeds {args.seed}-{args.seed + args.games - 1}"
        f"{', search emptied before each decision' if args.cold_search else ''}"
        f"{', gc.freeze() after the warm-up' if args.gc_freeze else ''}): "
        f"{len(times_ms)} decisions in {wall:.1f} s"
    )
    print(
        "server time per decision (ms): "
        + ", ".join(f"{name} {value:.1f}" for name, value in figures.items())
    )
    print(
        f"queries per decision: median {statistics.median(queries):g}, "
        f"min {min(queries)}, max {max(queries)}"
    )
    if parts:
        print("processor time per decision (ms), by part:")
        for part in ("all", *PARTS):
            spent = summary([1000 * decision.get(part, 0.0) for decision in parts])
            print(f"  {part:9}" + ", ".join(f"{name} {value:.1f}" for name, value in spent.items()))
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
