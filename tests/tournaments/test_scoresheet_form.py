"""The score sheet's blank form: real text on every sheet, laid out once, drawn where each
sheet leaves room for it (tournaments/printing/sheets.py and printing/stamps.py); and the cut lines.

Where a test must see what is printed rather than read its text, the page is drawn
with poppler's pdftoppm (``tests.printing.pictures``) and its pixels are read.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from pypdf import PdfReader
from pypdf.generic import ArrayObject, ContentStream, DictionaryObject, IndirectObject

from printing.documents import render_pdf
from tests.printing.pictures import at_mm, dark_share, darkest_line, drawn
from tests.tournaments.test_printing import NAMES, autumn, client, pages_of, tournament_of, url
from tournaments.models import Tournament
from tournaments.printing import documents, sheets

__all__ = ["autumn"]  # the fixture, used by name

pytestmark = pytest.mark.django_db


def resolved(value: object) -> DictionaryObject:
    """``value``, a dictionary of the PDF or a reference to one, as the dictionary."""
    if isinstance(value, IndirectObject):
        value = value.get_object()
    assert isinstance(value, DictionaryObject)
    return value


def xobjects_drawn(reader: PdfReader) -> Iterator[tuple[int, list[int]]]:
    """Each page's number and the object numbers of the form XObjects its content draws."""
    for number, page in enumerate(reader.pages, start=1):
        resources = resolved(page["/Resources"])
        named = resolved(resources.get("/XObject", DictionaryObject()))
        operations = ContentStream(page.get_contents(), reader).operations
        yield (
            number,
            [
                named.raw_get(operands[0]).idnum
                for operands, operator in operations
                if operator == b"Do"
            ],
        )


@pytest.mark.parametrize(("language", "per_page"), [("sv", 2), ("sv", 4), ("en", 2), ("en", 4)])
def test_the_blank_form_is_text_on_every_sheet(
    autumn: Tournament, language: str, per_page: int
) -> None:
    matches = 4  # nine players: four tables and a bye
    response = client(language).get(url("scoresheets_pdf", autumn, 2) + f"?per_page={per_page}")
    pages = [" ".join(page.split()) for page in pages_of(response)]  # labels may wrap
    words = {
        "sv": [
            "Parti",
            "Gav först",
            "Vinnare",
            "Förlorarens",
            "Matchen vanns av:",
            "dubbelskunk 4",
        ],
        "en": ["Game", "First dealer", "Winner", "Loser's", "Match won by:", "double skunk 4"],
    }[language]
    for word in words:
        assert sum(page.count(word) for page in pages) >= matches, word
    for page in pages:
        assert page.count(words[-2]) == page.count(words[-1]) == min(per_page, matches)
    reader = PdfReader(io.BytesIO(response.content))
    assert all(not page.images for page in reader.pages)  # no picture of the form


def test_the_form_is_embedded_once_and_drawn_once_a_sheet(autumn: Tournament) -> None:
    response = client("sv").get(url("scoresheets_pdf", autumn, 2) + "?per_page=4")
    reader = PdfReader(io.BytesIO(response.content))
    (page, forms), *others = xobjects_drawn(reader)
    assert not others  # four sheets on one page
    assert len(forms) == 4
    assert len(set(forms)) == 1
    assert str(resolved(reader.get_object(forms[0]))["/Subtype"]) == "/Form"


def font_names(resources: DictionaryObject) -> dict[int, str]:
    """The embedded subsets' names by object number, of ``resources`` and its XObjects'."""
    names = {}
    for font in resolved(resources.get("/Font", DictionaryObject())).values():
        descendants = resolved(font)["/DescendantFonts"]
        assert isinstance(descendants, ArrayObject)
        descendant = resolved(descendants[0])
        descriptor = descendant.raw_get("/FontDescriptor")
        names[descriptor.idnum] = str(resolved(descriptor)["/FontName"])
    for xobject in resolved(resources.get("/XObject", DictionaryObject())).values():
        names |= font_names(resolved(resolved(xobject)["/Resources"]))
    return names


def test_every_font_subset_of_the_sheets_has_a_name_of_its_own(autumn: Tournament) -> None:
    response = client("sv").get(url("scoresheets_pdf", autumn, 2))
    names: dict[int, str] = {}
    for page in PdfReader(io.BytesIO(response.content)).pages:
        names |= font_names(resolved(page["/Resources"]))
    assert len(names) == 4  # DejaVu Sans and its bold: the sheets' subsets and the form's
    assert len(set(names.values())) == 4
    assert all(re.fullmatch(r"/[A-Z]{6}\+DejaVu-Sans(-Bold)?", name) for name in names.values())


@pytest.mark.parametrize("language", ["sv", "en"])
@pytest.mark.parametrize("per_page", [2, 4])
def test_a_best_of_seven_form_still_fits_its_sheet(
    organiser: User, language: str, per_page: int
) -> None:
    tournament = tournament_of(dict(list(NAMES.items())[:2]))
    layout = sheets.LAYOUTS[per_page]
    with translation.override(language):
        words = sheets.texts(tournament)
        three = sheets.form(tournament, best_of=3, per_page=per_page).master
        seven = sheets.form(tournament, best_of=7, per_page=per_page).master
    for master in (three, seven):
        assert (master.box[3] - master.box[1]) / (72 / 25.4) <= layout.height + 0.01
    # Every label is whole: its words are in the form's text as they are in the catalogue.
    text = PdfReader(io.BytesIO(seven.pdf)).pages[0].extract_text()
    for label in words.labels:
        for word in label.replace("\u00a0", " ").split(" "):
            assert word in text.replace("\u00a0", " ")
    assert [str(n) for n in range(1, 8)] == re.findall(r"^[1-7]$", text, re.MULTILINE)


@pytest.mark.parametrize("per_page", [2, 4])
def test_score_sheets_have_cut_lines_between_them(autumn: Tournament, per_page: int) -> None:
    """Dashed across the page between the top and bottom sheets; at four a page, also
    down the middle. The sheets' page has margins of 10 mm at the top and bottom."""
    with translation.override("sv"):
        document = documents.scoresheets(
            autumn.rounds.get(number=2), per_page=per_page, base_url=None
        )
        image = drawn(render_pdf(document))
    cut = 10 + 138  # mm from the top: where the top sheets end
    # A dashed line 0.3 pt wide: a row (or column) of pixels dark along much of its
    # length, and nothing like it 3 mm away. Across: the whole width of the paper;
    # down: between the margins.
    assert 0.3 < darkest_line(image, at_mm(5, cut - 0.5, 205, cut + 0.5), across=True) < 0.9
    assert darkest_line(image, at_mm(5, cut + 2.5, 205, cut + 3.5), across=True) < 0.05
    down = (105 - 0.5, 105 + 0.5)
    if per_page == 4:
        assert 0.3 < darkest_line(image, at_mm(down[0], 12, down[1], 284), across=False) < 0.9
    else:  # blank where the sheets' feet are (the form's grid has a line at 105 mm)
        for top in (10 + 100, cut + 100):
            assert dark_share(image, at_mm(down[0], top, down[1], top + 36)) == 0
