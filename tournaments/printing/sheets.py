"""The score sheet's blank form: the games grid, the rule and the signature lines as one SVG.

Every sheet of a round has the same form; only the table and the names change.
Drawing the form once per document as an SVG image (WeasyPrint parses an image
address once) instead of a table per sheet keeps 128 sheets to a few thousand
HTML elements, which is what WeasyPrint's time grows with. Lengths are in mm.
Terms: a *row* is one possible game of the match (best of N: N rows); the
*skunk* column is circled: none, S (loser at 90 or less), DS (60 or less).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from urllib.parse import quote

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from tournaments.models import Tournament

# Columns: game, first dealer, winner, loser's score, skunk, game points.
COLUMN_SHARES = (0.09, 0.16, 0.16, 0.18, 0.23, 0.18)
CHAR_WIDTH = 0.62  # of the font size: a generous average for DejaVu Sans Bold


@dataclass(frozen=True)
class Layout:
    """Sizes of the form for 2 or 4 sheets to a page."""

    width: float
    font: float
    label_font: float
    row_height: float
    signature_gap: float


LAYOUTS = {
    2: Layout(width=182, font=3.2, label_font=2.3, row_height=8.5, signature_gap=15),
    4: Layout(width=87, font=2.6, label_font=1.9, row_height=6.5, signature_gap=11),
}


@dataclass(frozen=True)
class Label:
    x: float
    lines: tuple[str, ...]


def _wrap(text: str, width: float, font: float) -> tuple[str, ...]:
    """``text`` in lines no wider than ``width`` (estimated), breaking between words."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width / (font * CHAR_WIDTH):
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return tuple(lines)


def _labels() -> list[str]:
    return [
        _("Game"),
        _("First dealer"),
        _("Winner"),
        _("Loser's score"),
        _("Skunk"),
        _("Game points"),
    ]


def form_context(tournament: Tournament, *, best_of: int, per_page: int) -> dict[str, object]:
    """The numbers the SVG template draws: grid lines, label places and rows."""
    layout = LAYOUTS[per_page]
    edges = [0.0, *accumulate(share * layout.width for share in COLUMN_SHARES)]
    labels = [
        Label(left + 1, _wrap(text, right - left - 2, layout.label_font))
        for text, left, right in zip(_labels(), edges, edges[1:], strict=False)
    ]
    line_height = layout.label_font * 1.15
    head = max(len(label.lines) for label in labels) * line_height + 1.6
    grid_height = head + best_of * layout.row_height
    rule_y = grid_height + layout.font * 1.5
    winner_y = rule_y + layout.font * 2.2
    sign_y = winner_y + layout.signature_gap
    return {
        "width": layout.width,
        "height": round(sign_y + 0.5, 2),
        "font": layout.font,
        "label_font": layout.label_font,
        "small_font": layout.label_font,
        "line_height": line_height,
        "label_y": layout.label_font + 0.6,
        "labels": labels,
        "grid_width": round(layout.width - 0.2, 2),
        "grid_height": round(grid_height, 2),
        "row_lines": [round(head + n * layout.row_height, 2) for n in range(best_of)],
        "column_lines": [round(x, 2) for x in edges[1:-1]],
        "rows": [
            (round(head + (n - 0.5) * layout.row_height + layout.font * 0.35, 2), n)
            for n in range(1, best_of + 1)
        ],
        "number_x": round(edges[1] - 1.5, 2),
        "seat_x": (round(edges[1] + 1.5, 2), round(edges[2] + 1.5, 2)),
        "skunk_x": round(edges[4] + 1.5, 2),
        "rule_y": round(rule_y, 2),
        "rule": _(
            "Game points: win %(win)s, skunk %(skunk)s (loser 90 or less), "
            "double skunk %(double)s (loser 60 or less)."
        )
        % {
            "win": tournament.points_win,
            "skunk": tournament.points_skunk,
            "double": tournament.points_double_skunk,
        },
        "winner_y": round(winner_y, 2),
        "sign_y": round(sign_y, 2),
        "sign_width": round(layout.width * 0.46, 2),
        "sign_b": round(layout.width * 0.54, 2),
    }


def form_uri(tournament: Tournament, *, best_of: int, per_page: int) -> str:
    """The blank form as a ``data:`` address for an ``<img>``, in the active language."""
    svg = render_to_string(
        "print/scoresheet_form.svg",
        {"form": form_context(tournament, best_of=best_of, per_page=per_page)},
    )
    return "data:image/svg+xml;charset=utf-8," + quote(svg)
