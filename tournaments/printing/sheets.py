"""The score sheet's blank form, laid out once per document and drawn on every sheet.

Every sheet of a round has the same form: the games grid with its column labels and
game numbers, who won the match, the scoring rule and the two signature lines; only
the table and the names change. WeasyPrint's time grows with the lines of text it
lays out, and 128 forms laid out one by one took longer than the 3 s the issue
allows. So the form is laid out once (templates/print/scoresheet_form.html, with
print.css), on a page of its own, and each sheet leaves an empty box of its size
where ``stamps`` draws that page's drawing: real text in DejaVu Sans and lines,
searchable and as sharp as the rest, embedded in the PDF once. Lengths are in mm,
font sizes in pt. Terms: a *row* is one possible game of the match (best of N: N
rows); in the *skunk* column the players circle S (the loser had 90 or less) or DS
(60 or less).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from PIL import ImageFont

from printing import fonts, pdf, qr, stamps
from tournaments.models import Tournament

COLUMNS = 6  # game, first dealer, winner, loser's score, skunk, game points
PAD = 1.2  # mm, a label from its cell's edges (print.css)
SIGNATURE_B = 0.54  # of the width: where B's signature line starts (A's ends at 0.46)
SPOT = "form"  # the form's id in its own document


@dataclass(frozen=True)
class Layout:
    """Sizes of the form for 2 or 4 sheets to a page; ``height`` is the most it may take.

    ``code`` is the size of each player's QR code under the form (``qr``): the
    form's height leaves room for the codes, their quiet zones and their captions.
    """

    width: float
    height: float
    label_pt: float
    row_pt: float
    rule_pt: float
    row_height: float
    signature_gap: float
    code: float

    @property
    def column_b(self) -> float:
        """Where B's signature line, caption and QR code start, in mm from the form's left."""
        return round(self.width * SIGNATURE_B, 2)


LAYOUTS = {
    2: Layout(
        182, 68, label_pt=8, row_pt=11, rule_pt=7.5, row_height=11, signature_gap=16, code=16
    ),
    4: Layout(
        87, 64, label_pt=5.5, row_pt=7.5, rule_pt=5.5, row_height=6.5, signature_gap=9, code=14
    ),
}


@dataclass(frozen=True)
class Texts:
    """The form's words in the reader's language (part of the form's cache key)."""

    labels: tuple[str, ...]
    won_by: str
    rule: str


@dataclass(frozen=True)
class Form:
    """A blank form: ``css`` sizes its boxes (once in the document's head), ``master`` is it."""

    name: str
    css: SafeString
    master: stamps.Master

    def html(self, spot: str) -> SafeString:
        """A sheet's box for the form, with the id ``spot`` the form is drawn at."""
        return SafeString(f'<div class="sheet-form {self.name}" id="{spot}"></div>')


def texts(tournament: Tournament) -> Texts:
    # No-break spaces keep "(A / B)" whole when a label wraps.
    seats = "(A\u00a0/\u00a0B)"
    skunks = "({}\u00a0/\u00a0{})".format(
        pgettext("skunk, abbreviated", "S"), pgettext("double skunk, abbreviated", "DS")
    )
    return Texts(
        labels=(
            _("Game"),
            _("First dealer") + " " + seats,
            _("Winner") + " " + seats,
            _("Loser's score"),
            _("Skunk") + " " + skunks,
            _("Game points"),
        ),
        won_by=_("Match won by") + ":  A / B",
        rule=_(
            "Game points: win %(win)s, skunk %(skunk)s (loser 90 or less), "
            "double skunk %(double)s (loser 60 or less)."
        )
        % {
            "win": tournament.points_win,
            "skunk": tournament.points_skunk,
            "double": tournament.points_double_skunk,
        },
    )


def label_size(labels: tuple[str, ...], size_pt: float, room_mm: float) -> float:
    """The labels' size in pt: ``size_pt``, less (by quarter points) if a word is wider than
    ``room_mm`` at that size, so that no label breaks inside a word."""
    font = ImageFont.truetype(str(fonts.font_dir() / fonts.FONT_FILES["bold"]), 100)
    widest = max(font.getlength(word) for label in labels for word in label.split(" "))
    fits = room_mm * qr.POINTS_PER_MM / (widest / 100)
    return max(4.0, min(size_pt, int(fits * 4) / 4))


@lru_cache(maxsize=16)
def master(layout: Layout, best_of: int, words: Texts) -> stamps.Master:
    """The form laid out on a page of its own: no higher than the layout allows.

    A best of 7 gets lower rows, so that the form still fits its sheet: laid out
    again with the rows made lower by what it was too high (a row is at least as
    high as its game number, 1.1 times the number's size).
    """
    row_height = layout.row_height
    laid_out = _lay_out(layout, best_of, words, row_height)
    for _again in range(3):  # once is nearly always enough: the borders round a little
        excess = _height_mm(laid_out) - layout.height
        if excess <= 0:
            break
        row_height -= excess / best_of + 0.01
        laid_out = _lay_out(layout, best_of, words, row_height)
    return laid_out


def _lay_out(layout: Layout, best_of: int, words: Texts, row_height: float) -> stamps.Master:
    context = {
        "layout": layout,
        "games": range(1, best_of + 1),
        "words": words,
        "label_pt": label_size(words.labels, layout.label_pt, layout.width / COLUMNS - 2 * PAD),
        "row_height": row_height,
        "spot": SPOT,
    }
    pages = pdf.render(render_to_string("print/scoresheet_form.html", context))
    page = pages.pages[0]
    left, top, right, bottom = page.anchors[SPOT]  # CSS pixels from the top-left
    height = page.height * qr.POINTS_PER_PX
    box = (
        left * qr.POINTS_PER_PX,
        height - bottom * qr.POINTS_PER_PX,
        right * qr.POINTS_PER_PX,
        height - top * qr.POINTS_PER_PX,
    )
    return stamps.Master(pdf.finish(pages), box)


def _height_mm(laid_out: stamps.Master) -> float:
    return (laid_out.box[3] - laid_out.box[1]) / qr.POINTS_PER_MM


def form(tournament: Tournament, *, best_of: int, per_page: int) -> Form:
    """The blank form of a best-of-``best_of`` match, ``per_page`` sheets to a page."""
    laid_out = master(LAYOUTS[per_page], best_of, texts(tournament))
    name = f"form-{best_of}"
    context = {"name": name, "height": _height_mm(laid_out)}
    return Form(name, SafeString(render_to_string("print/scoresheet_form.css", context)), laid_out)
