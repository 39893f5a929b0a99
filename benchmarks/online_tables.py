"""A move at a table of four members against a move in a game of two: what the computer's
answers and the four seats cost a member who posts a card.

    .venv/bin/python -m benchmarks.online_tables [--games 10] [--no-docs]

In one process, on a fresh SQLite database (``benchmarks.site``), for each of ``--games``
rounds: a game of two members, and a table of four to 121 where two members sit as
partners and the computer plays the other two seats at the expert level (each member's
card then brings up to two expert cards before the page is drawn). In the first deals'
play, every card a member lays is posted as htmx posts it (the view, the engine, the
computers' answers, the save and the table drawn for the answer) and timed from the test
client's call to its answer; then the other member's poll that brings it. The kinds
alternate round by round, so that the machine's load weighs on both alike. The figures
go to docs/benchmarks.md between the ``online-tables`` markers.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import time
from typing import Any

from benchmarks.load import write_docs

BEGIN, END = "<!-- online-tables:begin -->", "<!-- online-tables:end -->"
HTMX = {"HX-Request": "true", "HX-Target": "game"}
KINDS = ("two members", "table of four, two expert computers")


def _game(kind: str, number: int) -> tuple[Any, dict[int, Any]]:
    """A new game of ``kind``, and each member's seat and account."""
    from django.contrib.auth.models import User

    from play.online import online_start

    users = [User.objects.create(username=f"bench-{kind[:5]}-{number}-{seat}") for seat in (0, 1)]
    if kind == KINDS[0]:
        game = online_start(players=(users[0], users[1]), seed=500 + number)
        return game, {0: users[0], 1: users[1]}
    game = online_start(players=(users[0], None, users[1], None), seed=500 + number, level="expert")
    return game, {0: users[0], 2: users[1]}


def _play(kind: str, number: int, times: dict[str, list[float]], deals: int) -> None:
    """Every member's decision of the first ``deals`` deals: the lay-aways by the
    services, each card laid posted and timed, and the other member's poll after it."""
    from django.test import Client
    from django.urls import reverse

    from play.models import OnlineGame
    from play.online import online_decide, read_online
    from play.services import stand_in_decision
    from scoring.players.strategy import ComputerPlayer

    game, members = _game(kind, number)
    clients = {}
    for seat, user in members.items():
        clients[seat] = Client()
        clients[seat].force_login(user)
    stand_in = ComputerPlayer("standard", 7)
    while not game.finished:
        match = read_online(game)
        if match.game.deal_number > deals:
            return
        due = sorted(match.game.awaiting, key=lambda seat: seat != match.game.to_move)
        seat = due[0]
        decision = stand_in_decision(match, stand_in, seat)
        if match.game.phase.value != "play":
            game = online_decide(
                pk=game.pk, member=members[seat], moves=game.moves_of(seat), decision=decision
            )
            continue
        form = {"version": game.moves_of(seat), "action": "play", "card": str(decision.cards[0])}
        started = time.perf_counter()
        answer = clients[seat].post(reverse("play:online_move", args=[game.pk]), form, headers=HTMX)
        times["move"].append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200
        assert b"play-error" not in answer.content
        other = next(s for s in members if s != seat)
        started = time.perf_counter()
        poll = clients[other].get(reverse("play:online_table", args=[game.pk]), headers=HTMX)
        times["poll"].append((time.perf_counter() - started) * 1000)
        assert poll.status_code == 200
        game = OnlineGame.objects.get(pk=game.pk)


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def report(games: int = 10, deals: int = 3) -> str:
    from benchmarks.site import setup_django

    setup_django()
    figures: dict[str, dict[str, list[float]]] = {kind: {"move": [], "poll": []} for kind in KINDS}
    for number in range(games):
        for kind in KINDS:
            _play(kind, number, figures[kind], deals)
    rows = []
    for request in ("move", "poll"):
        two, four = (figures[kind][request] for kind in KINDS)
        rows.append(
            f"| {request} | {statistics.median(two):.1f} | {statistics.median(four):.1f} "
            f"| {_p95(two):.1f} | {_p95(four):.1f} "
            f"| {statistics.median(four) / statistics.median(two):.2f} "
            f"| {len(two)} / {len(four)} |"
        )
    today = datetime.datetime.now(datetime.UTC).date()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return "\n".join(
        [
            f"Measured {today:%Y-%m-%d} by `python -m benchmarks.online_tables --games {games}` "
            f"(one process, SQLite, Django's test client, the first {deals} deals' play; load "
            f"average after the run {load}): medians in ms.",
            "",
            "| Request | Two members | Table of four (2 expert computers) | p95, two | p95, "
            "four | Ratio of medians | Requests |",
            "|---|---|---|---|---|---|---|",
            *rows,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--no-docs", action="store_true")
    options = parser.parse_args(argv)
    text = report(options.games)
    print(text)
    if not options.no_docs:
        write_docs(text, BEGIN, END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
