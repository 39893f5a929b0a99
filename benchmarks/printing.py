"""Benchmarks of the printed documents (tournaments/printing, rendered by printing/).

    .venv/bin/python -m benchmarks.printing [--players 256] [--rounds 5] [--repeats 3]
        [--documents standings pairings sheets sheets4 visitor-sheets crosstable slips]

A field of ``--players`` (names with å, ä, ö, é, ü) plays ``--rounds`` closed Swiss
rounds through the real services; one more round is published and left in play.
Then each document is fetched through Django's test client, as a reader would,
``--repeats`` times after a warm-up, and the median is printed: wall-clock time
and the process's CPU time (the machine is shared: CPU time varies less with
the load, which is printed too). Targets (issue 5): standings of 256 players,
pairings and score sheets of 128 tables, each under 3 s. A score sheet carries one
QR code, its match page's (the same for organisers and visitors: no private link is
on it), and the login slips (one per player, fetched by an organiser) one each. Every timed fetch
is a first render: the codes are made afresh, as for the first print of a round
(``qr.modules`` keeps them after that), and the cache of rendered PDFs is emptied.

It runs against a fresh SQLite database in a temporary folder unless
``DATABASE_URL`` is set (then that database is used: give it an empty one).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time
from typing import Any

from benchmarks.site import played_field, setup_django

DOCUMENTS = ("standings", "pairings", "sheets", "sheets4", "visitor-sheets", "crosstable", "slips")
FIRST = ["Åsa", "Émile", "Jürgen", "Märta", "Örjan", "Ebba", "Linnéa", "Sören"]
LAST = ["Åström", "Öberg", "Müller", "Ängström", "Lindén", "Hjälmarsson", "Björk", "Nüssli"]


def _field(players: int, rounds: int) -> Any:
    """A tournament with ``rounds`` closed rounds and the next one being played."""
    names = [(f"{FIRST[n % 8]} {LAST[n // 8 % 8]} {n:03d}", "Umeå") for n in range(players)]
    return played_field(names, rounds, in_play=True, year=2031)


def _time(address: str, repeats: int, *, organiser: Any = None) -> dict[str, float]:
    from django.core.cache import cache
    from django.test import Client
    from pypdf import PdfReader

    from printing import qr

    client = Client()
    client.cookies["django_language"] = "sv"
    if organiser is not None:
        client.force_login(organiser)
    response = client.get(address)  # warm-up: templates, fonts, the first database reads
    assert response.status_code == 200, (address, response.status_code)
    walls, cpus = [], []
    for _ in range(repeats):
        qr.modules.cache_clear()
        cache.clear()  # a first render: no PDF kept from the last fetch, no render counted
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.get(address)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        assert response.status_code == 200
    pages = len(PdfReader(io.BytesIO(response.content)).pages)
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "pages": pages}


def _documents(base: str, players: int, playing: int) -> dict[str, tuple[str, str, bool]]:
    """Each document by key: its label, its address, and whether an organiser fetches it."""
    tables, sheets = players // 2, f"{base}/round/{playing}/scoresheets.pdf"
    return {
        "standings": (
            f"standings, {players} players",
            f"{base}/standings.pdf?round={playing - 1}",
            False,
        ),
        "pairings": (f"pairings, {tables} tables", f"{base}/round/{playing}/pairings.pdf", False),
        # Everyone's score sheets are the same: the match page's code on each, no private link.
        "sheets": (f"score sheets 2 a page, {tables} tables, an organiser's", sheets, True),
        "sheets4": (
            f"score sheets 4 a page, {tables} tables, an organiser's",
            f"{sheets}?per_page=4",
            True,
        ),
        "visitor-sheets": (f"score sheets 2 a page, {tables} tables, a visitor's", sheets, False),
        "crosstable": (f"crosstable, {players} players", f"{base}/crosstable.pdf", False),
        "slips": (f"login slips, {players} players", f"{base}/slips.pdf", True),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--documents", nargs="+", choices=DOCUMENTS, help="only these")
    args = parser.parse_args(argv)
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    setup_django()
    started = time.perf_counter()
    tournament = _field(args.players, args.rounds)
    built = time.perf_counter() - started
    print(f"built {args.players} players x {args.rounds} rounds in {built:.1f} s")
    from django.contrib.auth import get_user_model

    organiser = get_user_model().objects.create(username="bench-organiser", is_superuser=True)
    documents = _documents(f"/t/{tournament.slug}", args.players, args.rounds + 1)
    for key in args.documents or documents:
        label, address, by_organiser = documents[key]
        figures = _time(address, args.repeats, organiser=organiser if by_organiser else None)
        print(
            f"{label}: {figures['wall']:.2f} s wall, {figures['cpu']:.2f} s CPU "
            f"(median of {args.repeats}), {figures['pages']:.0f} pages"
        )
    print(f"load average: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
