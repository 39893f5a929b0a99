"""Pictures of printed pages: a PDF's page drawn by poppler's pdftoppm, its pixels read.

For tests that must see what is printed rather than read its text (as ``render_document
--png`` draws pages).
"""

from __future__ import annotations

import io
import shutil
import subprocess

from PIL import Image

PIXELS_PER_MM = 100 / 25.4  # as drawn at 100 dpi


def drawn(content: bytes, *, page: int = 1, dpi: int = 100) -> Image.Image:
    """Page ``page`` of the PDF ``content`` as pdftoppm draws it, in grey."""
    pdftoppm = shutil.which("pdftoppm")
    assert pdftoppm is not None, "pdftoppm (poppler-utils) draws the pages"
    png = subprocess.run(
        [pdftoppm, "-png", "-gray", "-r", str(dpi), "-f", str(page), "-l", str(page), "-"],
        input=content,
        capture_output=True,
        check=True,
    ).stdout
    return Image.open(io.BytesIO(png)).convert("L")


def dark_share(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    """The share of the pixels in ``box`` (left, top, right, bottom) that are dark."""
    region = image.crop(box)
    histogram = region.histogram()
    return sum(histogram[:128]) / (region.width * region.height)


def darkest_line(image: Image.Image, box: tuple[int, int, int, int], *, across: bool) -> float:
    """The largest dark share of a single row (``across``) or column of pixels in ``box``."""
    left, top, right, bottom = box
    if across:
        return max(dark_share(image, (left, y, right, y + 1)) for y in range(top, bottom))
    return max(dark_share(image, (x, top, x + 1, bottom)) for x in range(left, right))


def at_mm(left: float, top: float, right: float, bottom: float) -> tuple[int, int, int, int]:
    """A box given in mm from the page's top-left corner, in pixels at 100 dpi."""
    return (
        round(left * PIXELS_PER_MM),
        round(top * PIXELS_PER_MM),
        round(right * PIXELS_PER_MM),
        round(bottom * PIXELS_PER_MM),
    )
