"""The score sheet's blank form: the games grid, the scoring rule and the signature lines.

Every sheet of a round has the same form; only the table and the names change.
WeasyPrint's time grows with the number of boxes it lays out, so the form is
cheap to repeat: its lines are one SVG background (declared once per document)
and its text is three paragraphs whose columns are tab stops, not a table of
cells. 128 sheets then lay out in about a second. Lengths are in mm, font
sizes in pt. Terms: a *row* is one possible game of the match (best of N: N
rows); the *skunk* column is circled: S (loser at 90 or less), DS (60 or less).
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
from PIL import Image, ImageDraw

from tournaments.models import Tournament

COLUMNS = 6  # game, first dealer, winner, loser's score, skunk, game points
CHAR_WIDTH = 0.62  # of the font size: a generous average width for DejaVu Sans Bold
PT = 25.4 / 72  # mm
DPI = 300
LINE = 0.25  # mm


@dataclass(frozen=True)
class Layout:
    """Sizes of the form for 2 or 4 sheets to a page."""

    width: float
    label_pt: float
    row_pt: float
    row_height: float
    foot_height: float
    signature_gap: float


LAYOUTS = {
    2: Layout(width=182, label_pt=7, row_pt=9.5, row_height=8.5, foot_height=11, signature_gap=9),
    4: Layout(width=87, label_pt=5.5, row_pt=7.5, row_height=6.5, foot_height=10, signature_gap=6),
}


@dataclass(frozen=True)
class Form:
    """A blank form: ``css`` goes in the document's head once, ``html`` in every sheet."""

    css: SafeString
    html: SafeString


def _labels() -> list[str]:
    # No-break spaces keep "(A / B)" on one line of the label.
    seats = "(A\u00a0/\u00a0B)"
    skunks = "(%s\u00a0/\u00a0%s)" % (
        pgettext("skunk, abbreviated", "S"),
        pgettext("double skunk, abbreviated", "DS"),
    )
    return [
        _("Game"),
        f"{_('First dealer')} {seats}",
        f"{_('Winner')} {seats}",
        _("Loser's score"),
        f"{_('Skunk')} {skunks}",
        _("Game points"),
    ]


def _wrap(text: str, room: float) -> list[str]:
    """``text`` in lines of at most ``room`` characters, breaking between words."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def label_lines(labels: list[str], column: float, size_pt: float) -> tuple[list[str], float]:
    """The column labels as tab-separated lines, and the font size that fits the longest word."""
    longest = max(len(word) for label in labels for word in label.split(" "))
    size_pt = min(size_pt, (column - 2) / (longest * CHAR_WIDTH * PT))
    room = (column - 2) / (size_pt * CHAR_WIDTH * PT)
    wrapped = [_wrap(label, room) for label in labels]
    depth = max(len(lines) for lines in wrapped)
    rows = [[lines[n] if n < len(lines) else "" for lines in wrapped] for n in range(depth)]
    return ["\t".join(row).rstrip("\t") for row in rows], size_pt


@lru_cache(maxsize=32)
def grid_png(layout: Layout, head: float, best_of: int, sign_y: float) -> str:
    """The lines of the form as a 1-bit PNG ``data:`` address, at ``DPI``.

    A raster image is embedded in the PDF once and only placed on each sheet,
    where an SVG would be drawn again, line by line, for every sheet.
    """
    scale = DPI / 25.4
    width, column, row = layout.width, layout.width / COLUMNS, layout.row_height
    bottom = head + best_of * row
    image = Image.new("1", (round(width * scale), round((sign_y + 0.5) * scale)), 1)
    draw = ImageDraw.Draw(image)
    stroke = max(1, round(LINE * scale))
    lines = [(column * n, 0, column * n, bottom) for n in range(1, COLUMNS)]
    lines += [(0, head + row * n, width, head + row * n) for n in range(best_of)]
    lines += [(0, sign_y, width * 0.46, sign_y), (width * 0.54, sign_y, width, sign_y)]
    for x1, y1, x2, y2 in lines:
        draw.line([(x1 * scale, y1 * scale), (x2 * scale, y2 * scale)], fill=0, width=stroke)
    draw.rectangle((0, 0, image.width - 1, bottom * scale), outline=0, width=stroke)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def form(tournament: Tournament, *, best_of: int, per_page: int) -> Form:
    """The blank form of a best-of-``best_of`` match, ``per_page`` sheets to a page."""
    layout = LAYOUTS[per_page]
    column = layout.width / COLUMNS
    head_lines, label_pt = label_lines(_labels(), column, layout.label_pt)
    line_height = label_pt * PT * 1.25
    head = len(head_lines) * line_height + 1.5
    sign_y = head + best_of * layout.row_height + layout.foot_height + layout.signature_gap
    context = {
        "name": f"form-{best_of}",
        "grid": grid_png(layout, round(head, 2), best_of, round(sign_y, 2)),
        "layout": layout,
        "column": round(column, 3),
        "height": round(sign_y + 0.5, 2),
        "head": round(head, 2),
        "label_pt": round(label_pt, 2),
        "line_height": round(line_height, 3),
        "head_text": "\n".join(head_lines),
        "rows_height": round(best_of * layout.row_height, 2),
        "games": "\n".join(str(n) for n in range(1, best_of + 1)),
        "rule": _(
            "Game points: win %(win)s, skunk %(skunk)s (loser 90 or less), "
            "double skunk %(double)s (loser 60 or less)."
        )
        % {
            "win": tournament.points_win,
            "skunk": tournament.points_skunk,
            "double": tournament.points_double_skunk,
        },
    }
    return Form(
        css=SafeString(render_to_string("print/scoresheet_form.css", context)),
        html=SafeString(render_to_string("print/scoresheet_form.html", context)),
    )
