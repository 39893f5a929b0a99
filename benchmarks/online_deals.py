"""A move and a poll of a game between members at deal 1 and at deal 20 of a long match,
with the match kept loaded between requests (``play.online.read_online``) and without.

    .venv/bin/python -m benchmarks.online --deals [--games 5] [--no-docs]

In one process, on a fresh SQLite database (``benchmarks.site``): for each of ``--games``
best-of-seven matches between two members, at deal 1 and again at deal 20, seat 0's
discard is posted as htmx posts it (the view, the engine, the save and the table drawn
for the answer) and seat 1's poll that brings it is answered (the table drawn again),
then the same the other way round; each request is timed from the test client's call
to its answer. The match is played from one deal to the other by the services, as the
computer would. Run twice: with ``ONLINE_KEPT_GAMES=0`` (every request replays the match
from its decisions, as before issue 24) and with the default (each worker keeps the
match it served last). The figures go to docs/benchmarks.md between the
``online-deals`` markers.
"""

from __future__ import annotations

import datetime
import os
import statistics
import time
from typing import Any

from benchmarks.load import write_docs

BEGIN, END = "<!-- online-deals:begin -->", "<!-- online-deals:end -->"
HTMX = {"HX-Request": "true", "HX-Target": "game"}


def _advance(game: Any, to_deal: int) -> Any:
    """Both members play as the computer would until deal ``to_deal`` is being discarded."""
    from play.models import OnlineGame
    from play.online import online_decide, read_online
    from play.services import stand_in_decision
    from scoring.players.strategy import ComputerPlayer

    game = OnlineGame.objects.get(pk=game.pk)
    stand_ins = {0: ComputerPlayer("standard", 1), 1: ComputerPlayer("standard", 2)}
    users = {0: game.seat_0, 1: game.seat_1}
    while True:
        match = read_online(game)
        begun = sum(played.deal_number for played in match.games)
        if (
            begun >= to_deal
            and match.game.phase.value == "discard"
            and match.game.awaiting
            == {
                0,
                1,
            }
        ):
            return game
        seat = match.game.to_move if match.game.to_move is not None else 0
        decision = stand_in_decision(match, stand_ins[seat], seat)
        game = online_decide(
            pk=game.pk, member=users[seat], moves=game.moves_of(seat), decision=decision
        )


def _discards_and_polls(game: Any, clients: dict[int, Any], times: dict[str, list[float]]) -> None:
    """Each seat's discard, and the other's poll after it, timed."""
    from django.urls import reverse

    from play.models import OnlineGame
    from play.online import read_online
    from play.services import stand_in_decision
    from scoring.players.strategy import ComputerPlayer

    for seat in (0, 1):
        game = OnlineGame.objects.get(pk=game.pk)
        cards = stand_in_decision(read_online(game), ComputerPlayer("standard", 3), seat).cards
        form = {"version": game.moves_of(seat), "action": "discard"}
        form["cards"] = [str(card) for card in cards]
        started = time.perf_counter()
        answer = clients[seat].post(reverse("play:online_move", args=[game.pk]), form, headers=HTMX)
        times["move"].append((time.perf_counter() - started) * 1000)
        assert answer.status_code == 200
        assert b"play-error" not in answer.content
        started = time.perf_counter()
        poll = clients[1 - seat].get(reverse("play:online_table", args=[game.pk]), headers=HTMX)
        times["poll"].append((time.perf_counter() - started) * 1000)
        assert poll.status_code == 200


def _measure(games: int) -> dict[int, dict[tuple[str, int], list[float]]]:
    """The times by kept matches (0 and 64), kind and deal; the two runs alternate game by
    game, so that the machine's load weighs on both alike."""
    from django.contrib.auth.models import User
    from django.test import Client, override_settings

    from play.online import forget_online, online_start

    figures: dict[int, dict[tuple[str, int], list[float]]] = {0: {}, 64: {}}
    for number in range(games):
        for kept, kept_figures in figures.items():
            with override_settings(ONLINE_KEPT_GAMES=kept):
                users = [
                    User.objects.create(username=f"bench-{kept}-{number}-{seat}") for seat in (0, 1)
                ]
                clients = {seat: Client() for seat in (0, 1)}
                for seat, client in clients.items():
                    client.force_login(users[seat])
                forget_online()
                game = online_start(players=(users[0], users[1]), best_of=7, seed=100 + number)
                for deal in (1, 20):
                    game = _advance(game, deal)
                    times: dict[str, list[float]] = {"move": [], "poll": []}
                    _discards_and_polls(game, clients, times)
                    for kind, values in times.items():
                        kept_figures.setdefault((kind, deal), []).extend(values)
    return figures


def report(games: int = 5) -> str:
    from benchmarks.site import setup_django

    setup_django()
    figures = _measure(games)
    replayed, kept = figures[0], figures[64]
    rows = []
    for kind in ("move", "poll"):
        for deal in (1, 20):
            before = statistics.median(replayed[kind, deal])
            after = statistics.median(kept[kind, deal])
            rows.append(f"| {kind} | {deal} | {before:.1f} | {after:.1f} | {before / after:.1f} |")
    today = datetime.datetime.now(datetime.UTC).date()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return "\n".join(
        [
            f"Measured {today:%Y-%m-%d} by `python -m benchmarks.online --deals --games "
            f"{games}` (one process, SQLite, Django's test client; load average after the "
            f"run {load}): medians of {2 * games} requests of each kind at each deal, "
            "in ms.",
            "",
            "| Request | Deal | Replayed every request | Kept loaded | Ratio |",
            "|---|---|---|---|---|",
            *rows,
        ]
    )


def main(games: int, *, docs: bool) -> int:
    text = report(games)
    print(text)
    if docs:
        write_docs(text, BEGIN, END)
    return 0
