"""The score sheet's blank form, drawn once per document as an image.

Every sheet of a round has the same form: the games grid with its column
labels and game numbers, who won the match, the scoring rule and the two
signature lines; only the table and the names change. WeasyPrint's time grows
with the lines of text it lays out, and 128 forms as HTML took longer than the
3 s the issue allows; as one image (embedded in the PDF once, placed on every
sheet) they cost nearly nothing. The image is drawn with Pillow in the same
DejaVu Sans the text uses, at ``DPI``, so it prints as sharp as the text.
Lengths are in mm, font sizes in pt. Terms: a *row* is one possible game of
the match (best of N: N rows); in the *skunk* column the players circle S
(the loser had 90 or less) or DS (60 or less).
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from functools import lru_cache

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from PIL import Image, ImageDraw, ImageFont

from tournaments.models import Tournament
from tournaments.printing import pdf

COLUMNS = 6  # game, first dealer, winner, loser's score, skunk, game points
DPI = 400
MM = DPI / 25.4  # pixels
PT = DPI / 72  # pixels
LINE = 0.25  # mm
PAD = 1.2  # mm, text from a cell's edge
SIGNATURE_B = 0.54  # of the width: where B's signature line starts (A's ends at 0.46)


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
    """The form's words in the reader's language (part of the image's cache key)."""

    labels: tuple[str, ...]
    won_by: str
    rule: str


@dataclass(frozen=True)
class Form:
    """A blank form: ``css`` goes in the document's head once, ``html`` in every sheet."""

    css: SafeString
    html: SafeString


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


def _font(size_pt: float, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = pdf.FONT_FILES["bold" if bold else "normal"]
    return ImageFont.truetype(str(pdf.font_dir() / name), round(size_pt * PT))


def wrap(text: str, font: ImageFont.FreeTypeFont, room: float) -> list[str]:
    """``text`` in lines no wider than ``room`` pixels, broken at spaces (not no-break ones)."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and font.getlength(f"{lines[-1]} {word}") <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def _label_font(labels: tuple[str, ...], size_pt: float, room: float) -> ImageFont.FreeTypeFont:
    """The label font, made smaller until the longest word of any label fits its column."""
    words = [word for label in labels for word in label.split(" ")]
    font = _font(size_pt, bold=True)
    while size_pt > 4 and max(font.getlength(word) for word in words) > room:
        size_pt -= 0.25
        font = _font(size_pt, bold=True)
    return font


@lru_cache(maxsize=16)
def form_image(layout: Layout, best_of: int, words: Texts) -> tuple[str, float]:
    """The form as a grey PNG ``data:`` address, and its height in mm."""
    width, column, row = layout.width * MM, layout.width * MM / COLUMNS, layout.row_height * MM
    label_font = _label_font(words.labels, layout.label_pt, column - 2 * PAD * MM)
    labels = [wrap(label, label_font, column - 2 * PAD * MM) for label in words.labels]
    line = label_font.size * 1.2
    head = max(len(lines) for lines in labels) * line + 1.6 * MM
    rule_font = _font(layout.rule_pt)
    rule = wrap(words.rule, rule_font, width)
    won_by_font = _font(layout.row_pt, bold=True)
    below = won_by_font.size * 1.6 + len(rule) * rule_font.size * 1.25 + layout.signature_gap * MM
    # A best of 7 gets lower rows, so that the form still fits its sheet.
    row = min(row, (layout.height * MM - head - below) / best_of)
    bottom = head + best_of * row
    won_by_y = bottom + won_by_font.size * 1.6
    sign_y = bottom + below
    image = Image.new("L", (round(width), round(sign_y + LINE * MM)), 255)
    draw = ImageDraw.Draw(image)
    stroke = round(LINE * MM)
    draw.rectangle((0, 0, image.width - 1, bottom), outline=0, width=stroke)
    for n in range(1, COLUMNS):
        draw.line([(column * n, 0), (column * n, bottom)], fill=0, width=stroke)
    for n in range(best_of):
        draw.line([(0, head + row * n), (width, head + row * n)], fill=0, width=stroke)
    for x1, x2 in ((0, width * (1 - SIGNATURE_B)), (width * SIGNATURE_B, width)):
        draw.line([(x1, sign_y), (x2, sign_y)], fill=0, width=stroke)
    for n, lines in enumerate(labels):
        for depth, text in enumerate(lines):
            xy = (column * n + PAD * MM, 0.8 * MM + line * (depth + 0.85))
            draw.text(xy, text, font=label_font, fill=0, anchor="ls")
    number_font = _font(layout.row_pt)
    for n in range(1, best_of + 1):
        xy = (column / 2, head + row * (n - 0.5) + number_font.size * 0.35)
        draw.text(xy, str(n), font=number_font, fill=0, anchor="ms")
    draw.text((0, won_by_y), words.won_by, font=won_by_font, fill=0, anchor="ls")
    for depth, text in enumerate(rule, start=1):
        xy = (0, won_by_y + depth * rule_font.size * 1.25)
        draw.text(xy, text, font=rule_font, fill=60, anchor="ls")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"data:image/png;base64,{encoded}", image.height / MM


def form(tournament: Tournament, *, best_of: int, per_page: int) -> Form:
    """The blank form of a best-of-``best_of`` match, ``per_page`` sheets to a page."""
    layout = LAYOUTS[per_page]
    uri, height = form_image(layout, best_of, texts(tournament))
    context = {"name": f"form-{best_of}", "image": uri, "width": layout.width, "height": height}
    return Form(
        css=SafeString(render_to_string("print/scoresheet_form.css", context)),
        html=SafeString(f'<div class="sheet-form form-{best_of}"></div>'),
    )
