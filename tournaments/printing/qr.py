"""QR codes of the players' private links, drawn into the PDF as vector paths.

Terms: a *code* is the QR symbol of one address (segno, error correction M), a
square of dark and light *modules*; scanners need a light *quiet zone* four
modules wide around it. Its *spot* is the element a template leaves for it, named
by its id: the code is drawn ``size`` mm square in the spot's bottom-left corner,
``offset`` mm to the right, so the template gives it that much room and keeps a
few mm clear around it (on a score sheet, padding below the signature captions; on
a slip, an empty square). WeasyPrint lays the document out and reports where each
id landed (``Page.anchors``); ``finisher`` then adds each page's codes to it, each
as one filled path with a rectangle per run of dark modules in a row. They are real
vectors, as sharp as the text at any size.

Speed (docs/printing.md, "QR codes"): WeasyPrint draws an SVG image in Python,
about 5 ms a code even as the fewest numbers a path can take; the 256 codes of a
128-table round added 2 s to score sheets that may take 3 s in all. Drawn here
they cost about 0.1 s. segno's search for the best of the eight masks took 5 ms a
code, so the mask is fixed and a code takes under 1 ms: mask 1 decoded every code
in tests with zxing, as often as segno's choice or more (mask 0, a checkerboard,
did not). The codes are kept (``modules``): a player's link, and so their code,
stays the same from round to round.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import pydyf
import segno
from weasyprint import Document

ERROR_CORRECTION = "m"  # 15% of the symbol may be lost: a fold or a smudge
MASK = 1
POINTS_PER_MM = 72 / 25.4
POINTS_PER_PX = 0.75  # WeasyPrint's CSS pixel, at zoom 1


@dataclass(frozen=True)
class Code:
    """The QR code of ``url``, ``size`` mm square, at the foot of the element ``spot``."""

    url: str
    spot: str
    size: float
    offset: float = 0


class SpotMissingError(RuntimeError):
    """A code's spot is not in the laid-out document: the template left no room for it."""


@lru_cache(maxsize=4096)
def modules(url: str) -> tuple[tuple[bool, ...], ...]:
    """The code of ``url`` row by row, True for a dark module (no quiet zone)."""
    symbol = segno.make_qr(url, error=ERROR_CORRECTION, mask=MASK)
    return tuple(tuple(bool(module) for module in row) for row in symbol.matrix)


def dark_runs(row: Sequence[bool]) -> Iterator[tuple[int, int]]:
    """``(first column, length)`` of each run of dark modules in ``row``."""
    start = None
    for column, dark in enumerate([*row, False]):
        if dark and start is None:
            start = column
        elif not dark and start is not None:
            yield start, column - start
            start = None


def operators(code: Code, x: float, y: float) -> bytes:
    """PDF operators that draw ``code`` with its top-left corner at ``x``, ``y`` (points).

    The coordinates are the PDF's default ones (origin bottom-left, y up). A matrix
    scales one unit to one module with y down, so each rectangle is in whole modules.
    """
    rows = modules(code.url)
    unit = code.size * POINTS_PER_MM / len(rows)
    lines = [f"q 0 g {unit:.4f} 0 0 {-unit:.4f} {x:.3f} {y:.3f} cm"]
    for number, row in enumerate(rows):
        lines.extend(f"{column} {number} {length} 1 re" for column, length in dark_runs(row))
    lines.append("f Q")
    return "\n".join(lines).encode("ascii")


def finisher(codes: Sequence[Code]) -> Callable[[Document, pydyf.PDF], None]:
    """For ``Document.write_pdf(finisher=...)``: draws each code at its spot, on its page."""
    by_spot: dict[str, list[Code]] = defaultdict(list)
    for code in codes:
        by_spot[code.spot].append(code)

    def draw(document: Document, pdf: pydyf.PDF) -> None:
        drawn: set[str] = set()
        for page, number in zip(document.pages, pdf.pages["Kids"][::3], strict=True):
            height = page.height * POINTS_PER_PX
            # An anchor is its box's (left, top, right, bottom), in CSS pixels from the top.
            drawing = [
                operators(
                    code,
                    at[0] * POINTS_PER_PX + code.offset * POINTS_PER_MM,
                    height - at[3] * POINTS_PER_PX + code.size * POINTS_PER_MM,
                )
                for spot, at in page.anchors.items()
                for code in by_spot.get(spot, ())
            ]
            if drawing:
                _append(pdf, pdf.objects[number], b"\n".join(drawing))
                drawn.update(spot for spot in page.anchors if spot in by_spot)
        if missing := by_spot.keys() - drawn:
            raise SpotMissingError(f"no element has the id of the codes {sorted(missing)}")

    return draw


def _append(pdf: pydyf.PDF, page: pydyf.Dictionary, drawing: bytes) -> None:
    """Draws after the page's own content, in the default coordinates.

    WeasyPrint's content leaves its own matrix (y down, from the top) in force, so it
    is wrapped in q ... Q; content streams of a page are read as one, so the q and
    the Q may stand in streams of their own.
    """
    before = pydyf.Stream([b"q"])
    after = pydyf.Stream([b"Q", drawing], compress=True)
    pdf.add_object(before)
    pdf.add_object(after)
    page["Contents"] = pydyf.Array([before.reference, page["Contents"], after.reference])
