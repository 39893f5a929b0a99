"""QR codes of the addresses on paper, drawn into the PDF as vector paths.

Terms: a *code* is the QR symbol of one address (segno, error correction M), a
square of dark and light *modules*; scanners need a light *quiet zone* four
modules wide around it. Its *spot* is the element a template leaves for it, named
by its id: the code is drawn ``size`` mm square in the spot's bottom-left corner,
``offset`` mm to the right, so the template gives it that much room and keeps a
few mm clear around it (on a score sheet, padding below the signature captions; on
a slip, an empty square). WeasyPrint lays the document out and reports where each
id landed (``Page.anchors``); ``pdf.finish`` then adds each page's codes to it, each
as one filled path with a rectangle per run of dark modules in a row (``operators``).
They are real vectors, as sharp as the text at any size.

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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

import segno

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
