"""``manage.py render_document SLUG KIND``: a printed document of a tournament as a PDF file.

KIND is pairings, scoresheets, standings, crosstable, playoff or slips. With ``--png
DIR`` each page is also drawn to a PNG with poppler's ``pdftoppm``, so a page can be
looked at without a PDF viewer. Proposed rounds print too: this is the
organisers' tool. The path of every file written is printed, one a line. The
private links on the slips and the match pages' addresses on the score sheets (which
carry no private link) use ``--base-url`` for their scheme and host, as a view uses
the request's. ``--printed-at`` fixes the time printed at
the foot of every page (the tests compare PNGs drawn this way with golden ones).
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from printing import pdf
from printing.documents import Document, render_html
from tournaments import selectors
from tournaments.models import Round, Tournament
from tournaments.printing import documents, links

KINDS = ("pairings", "scoresheets", "standings", "crosstable", "playoff", "slips")


class Command(BaseCommand):
    help = (
        "Render a tournament's pairings, score sheets, standings, crosstable, bracket "
        "or login slips to PDF."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("kind", choices=KINDS)
        parser.add_argument(
            "--round", type=int, help="round number (pairings, scoresheets, standings)"
        )
        parser.add_argument("--per-page", type=int, default=2, choices=[2, 4])
        parser.add_argument(
            "--language",
            default=settings.LANGUAGE_CODE,
            choices=[code for code, _name in settings.LANGUAGES],
        )
        parser.add_argument("--output", type=Path, help="the PDF's path (default: its own name)")
        parser.add_argument("--png", type=Path, metavar="DIR", help="also draw each page to DIR")
        parser.add_argument("--dpi", type=int, default=80, help="resolution of the PNGs")
        parser.add_argument("--html", action="store_true", help="also write the HTML it lays out")
        parser.add_argument(
            "--printed-at",
            type=_local_time,
            metavar="YYYY-MM-DDTHH:MM",
            help="the time printed on each page, in the site's time zone (default: now)",
        )
        parser.add_argument(
            "--base-url",
            default=links.DEFAULT_BASE_URL,
            help="scheme and host of the addresses printed (slips: private links; "
            "scoresheets: the match pages)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament has the address {options['slug']!r}.")
        try:
            links.checked_base_url(options["base_url"])
        except ValueError as error:
            raise CommandError(
                _("--base-url must be a scheme and host, like %(example)s.")
                % {"example": links.DEFAULT_BASE_URL}
            ) from error
        with translation.override(options["language"]):
            document = self._document(tournament, options)
            started = time.perf_counter()
            html = render_html(document, printed_at=options["printed_at"])
            pages = pdf.render(html)
            data = pdf.finish(pages, document.codes, document.marks)
            seconds = time.perf_counter() - started
        output = options["output"] or Path(document.filename)
        output.write_bytes(data)
        self.stderr.write(f"{len(pages.pages)} pages in {seconds:.2f} s (HTML and PDF)")
        self.stdout.write(str(output))
        if options["html"]:
            output.with_suffix(".html").write_text(html, encoding="utf-8")
            self.stdout.write(str(output.with_suffix(".html")))
        if options["png"]:
            for path in _draw_pages(output, options["png"], options["dpi"]):
                self.stdout.write(str(path))

    def _document(self, tournament: Tournament, options: dict[str, Any]) -> Document:
        kind, number = options["kind"], options["round"]
        if kind in ("pairings", "scoresheets"):
            round_ = _round(tournament, number)
            if kind == "pairings":
                return documents.pairings(round_)
            return documents.scoresheets(
                round_, per_page=options["per_page"], base_url=options["base_url"]
            )
        if kind == "slips":
            return documents.slips(tournament, base_url=options["base_url"])
        rounds = list(selectors.published_rounds(tournament).filter(kind=Round.Kind.SWISS))
        if kind == "standings":
            chosen = [r for r in rounds if number is None or r.number == number]
            if number is not None and not chosen:
                raise CommandError(f"Round {number} is not a published Swiss round.")
            return documents.standings(tournament, chosen[-1] if chosen else None)
        if kind == "crosstable":
            return documents.crosstable(tournament, rounds)
        if not tournament.playoff_size:
            raise CommandError("This tournament has no play-off.")
        return documents.playoff(tournament)


def _round(tournament: Tournament, number: int | None) -> Round:
    rounds = tournament.rounds.order_by("number")
    round_ = rounds.filter(number=number).first() if number else rounds.last()
    if round_ is None:
        raise CommandError(f"No round {number} in this tournament." if number else "No round yet.")
    return round_


def _local_time(text: str) -> datetime.datetime:
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time like 2026-09-06T18:30") from error
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


def _draw_pages(pdf: Path, folder: Path, dpi: int) -> list[Path]:
    """Each page of ``pdf`` as ``folder/<name>-<page>.png`` (pdftoppm numbers them)."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        raise CommandError("pdftoppm is not installed (apt-get install poppler-utils).")
    folder.mkdir(parents=True, exist_ok=True)
    prefix = folder / pdf.stem
    for old in folder.glob(f"{pdf.stem}-*.png"):
        old.unlink()
    subprocess.run([pdftoppm, "-png", "-r", str(dpi), str(pdf), str(prefix)], check=True)
    return sorted(folder.glob(f"{pdf.stem}-*.png"))
