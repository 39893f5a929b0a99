"""HTML to an A4 PDF with WeasyPrint: the print stylesheet, embedded fonts, no network.

The fonts are DejaVu Sans from the file system (Debian's fonts-dejavu-core;
``settings.PRINT_FONT_DIR`` to use another folder), declared with ``@font-face``
so every PDF embeds the very glyphs it was laid out with, å, ä and ö included.
WeasyPrint fetches nothing but those font files and the ``data:`` images the
document carries itself: its URL fetcher refuses any other address, so a
document never reaches the network or the rest of the disk.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from django.conf import settings
from weasyprint import CSS, HTML, Document
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

FONT_FAMILY = "DejaVu Sans"
FONT_FILES = {"normal": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
STYLESHEET = Path(settings.BASE_DIR) / "static" / "css" / "print.css"


def font_dir() -> Path:
    return Path(getattr(settings, "PRINT_FONT_DIR", "/usr/share/fonts/truetype/dejavu")).resolve()


class FontsOnlyFetcher(URLFetcher):
    """Fetches the font files and ``data:`` images, and refuses everything else."""

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        if url.startswith("data:"):  # the score sheet's form, drawn by sheets.py
            return super().fetch(url, headers)
        parts = urlsplit(url)
        path = Path(url2pathname(parts.path)).resolve() if parts.scheme == "file" else None
        if path is None or path.parent != font_dir() or path.name not in FONT_FILES.values():
            raise ValueError(f"a printed document loads only its fonts, not {url}")
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": "font/ttf"})


@cache
def _font_faces() -> str:
    return "\n".join(
        f'@font-face {{ font-family: "{FONT_FAMILY}"; font-weight: {weight}; '
        f'src: url("{(font_dir() / name).as_uri()}"); }}'
        for weight, name in FONT_FILES.items()
    )


def render(html: str) -> Document:
    """``html`` (a whole document from templates/print/) laid out in pages, print.css applied."""
    fetcher = FontsOnlyFetcher()
    fonts = FontConfiguration()
    stylesheets = [
        CSS(string=_font_faces(), font_config=fonts, url_fetcher=fetcher),
        CSS(filename=STYLESHEET, font_config=fonts, url_fetcher=fetcher),
    ]
    return HTML(string=html, url_fetcher=fetcher).render(stylesheets=stylesheets, font_config=fonts)


def write_pdf(html: str) -> bytes:
    """The PDF of ``html``."""
    return render(html).write_pdf()
