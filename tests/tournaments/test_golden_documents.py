"""Each printed document looks as it did: its first page drawn to PNG and compared with a
golden copy in tests/tournaments/golden/, pixel by pixel with a tolerance.

The documents are rendered as an organiser does (``render_document --png``, in
Swedish) from a tournament whose every printed detail is fixed: the names, the
results, the private keys, and the time printed at the foot. Text that moves by a
millimetre, a column that changes width or a missing line changes far more pixels
than the tolerance, which allows for a different build of the font rasteriser.

After a change to a document's layout that is meant, look at the new drawing and
renew the golden copies: ``UPDATE_GOLDEN=1 .venv/bin/pytest
tests/tournaments/test_golden_documents.py`` (docs/printing.md, "Tests").
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection
from django.utils import translation
from PIL import Image, ImageChops

from printing import pdf
from printing.documents import render_html
from ratings.printing import rating_list_document
from tests.factories import OrganiserFactory
from tests.snapshots import Rows, restore, snapshot
from tests.tournaments.conftest import play_round
from tests.tournaments.test_printing import NAMES, _settle_all, split_games, tournament_of
from tournaments.management.commands.render_document import _draw_pages, _local_time
from tournaments.models import PRIVATE_KEY_ALPHABET, PRIVATE_KEY_LENGTH, Tournament
from tournaments.services import playoff, rounds

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "golden"
DPI = 50
# A pixel differs when its grey differs by more than this (of 255); a page may have
# this share of such pixels (about 240 of A4's 241,000 at 50 dpi).
DIFFERENT = 48
TOLERANCE = 0.001
PRINTED_AT = "2026-09-06T18:30"

DOCUMENTS = {
    "pairings": ["pairings", "--round", "2"],
    "scoresheets": ["scoresheets", "--round", "2"],
    "scoresheets-4": ["scoresheets", "--round", "2", "--per-page", "4"],
    "standings": ["standings"],
    "crosstable": ["crosstable"],
    "playoff": ["playoff"],
    "slips": ["slips"],
}


def ids_from_one() -> None:
    """Every table's ids start at 1 again, as on SQLite after each test: the score sheets
    print each match's address (its id) in text and QR code. PostgreSQL's sequences go on
    counting after a test's rollback."""
    statements = connection.ops.sequence_reset_sql(no_style(), apps.get_models())
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def print_ready() -> str:
    """Two Swiss rounds closed, the semi-finals settled and the final being played."""
    ids_from_one()
    organiser = OrganiserFactory.create(username="organiser")
    tournament = tournament_of(NAMES, swiss_rounds=2, playoff_size=4)
    keys = random.Random(2026)
    for entry in tournament.entries.order_by("player__name"):
        entry.private_key = "".join(keys.choices(PRIVATE_KEY_ALPHABET, k=PRIVATE_KEY_LENGTH))
        entry.save(update_fields=["private_key"])
    for _ in range(2):
        play_round(tournament, organiser, split_games)
    semi_finals = playoff.playoff_start(tournament=tournament)
    rounds.round_close(round=_settle_all(semi_finals, organiser))
    return tournament.slug


# Played once per module, its rows inserted again into each test's database
# (tests/snapshots.py): eight documents are drawn from it.
@pytest.fixture(scope="module")
def printed_rows(django_db_setup: None, django_db_blocker: Any) -> Rows[str]:
    with django_db_blocker.unblock():
        return snapshot(print_ready)


@pytest.fixture
def printed(db: None, printed_rows: Rows[str]) -> Tournament:
    return Tournament.objects.get(slug=restore(printed_rows))


def first_page(tournament: Tournament, arguments: list[str], folder: Path) -> Image.Image:
    output = folder / "document.pdf"
    call_command(
        "render_document",
        tournament.slug,
        *arguments,
        "--language=sv",
        "--base-url=https://cribbage.example.se",
        f"--printed-at={PRINTED_AT}",
        f"--output={output}",
        f"--png={folder}",
        f"--dpi={DPI}",
        stdout=open(os.devnull, "w"),  # noqa: SIM115  # the command's list of files
        stderr=open(os.devnull, "w"),  # noqa: SIM115
    )
    return Image.open(folder / "document-1.png").convert("L")


def differing_share(drawn: Image.Image, golden: Image.Image) -> tuple[float, Image.Image]:
    """The share of pixels whose grey differs by more than ``DIFFERENT``, and where."""
    difference = ImageChops.difference(drawn, golden).point(lambda v: 255 if v > DIFFERENT else 0)
    return difference.histogram()[255] / (drawn.width * drawn.height), difference


@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_each_document_looks_as_its_golden_copy(
    printed: Tournament, name: str, tmp_path: Path
) -> None:
    assert_as_golden(name, first_page(printed, DOCUMENTS[name], tmp_path), tmp_path)


def test_the_rating_list_looks_as_its_golden_copy(printed: Tournament, tmp_path: Path) -> None:
    """The club's rating list (not a tournament's: ``render_document`` does not print it),
    after the printed tournament's results, rendered the same way."""
    output = tmp_path / "document.pdf"
    with translation.override("sv"):
        document = rating_list_document()
        html = render_html(document, printed_at=_local_time(PRINTED_AT))
        output.write_bytes(pdf.finish(pdf.render(html), document.codes, document.marks))
    _draw_pages(output, tmp_path, DPI)
    drawn = Image.open(tmp_path / "document-1.png").convert("L")
    assert_as_golden("rating-list", drawn, tmp_path)


def assert_as_golden(name: str, drawn: Image.Image, tmp_path: Path) -> None:
    golden_path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        drawn.save(golden_path, optimize=True)
    assert golden_path.exists(), f"no golden copy: run with UPDATE_GOLDEN=1 ({__doc__})"
    golden = Image.open(golden_path).convert("L")
    assert drawn.size == golden.size
    share, difference = differing_share(drawn, golden)
    if share > TOLERANCE:
        drawn.save(tmp_path / f"{name}-drawn.png")
        difference.save(tmp_path / f"{name}-difference.png")
    assert share <= TOLERANCE, f"{share:.2%} of the pixels differ: see {tmp_path}"


def test_a_moved_line_is_more_than_the_tolerance(printed: Tournament, tmp_path: Path) -> None:
    """The comparison sees a layout change: the standings moved down by a millimetre."""
    drawn = first_page(printed, DOCUMENTS["standings"], tmp_path)
    moved = Image.new("L", drawn.size, 255)
    moved.paste(drawn.crop((0, 0, drawn.width, drawn.height - 2)), (0, 2))  # 2 px: 1 mm
    assert differing_share(moved, drawn)[0] > 10 * TOLERANCE
    assert differing_share(drawn, drawn)[0] == 0
