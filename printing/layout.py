"""The part of printing that needs WeasyPrint: laying out HTML in pages, fetching only fonts.

Imported by ``pdf.render`` when a document is first made, never at start-up:
WeasyPrint takes seconds to import (``python -X importtime``), and most processes
(a test worker, a management command, a web worker that serves no PDF) never print.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

from weasyprint import CSS, HTML, Document
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from printing.fonts import FACES, STYLESHEET, font_dir


class FontsOnlyFetcher(URLFetcher):  # type: ignore[misc]  # WeasyPrint: untyped
    """Fetches the font files, and refuses everything else."""

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        path = Path(url2pathname(parts.path)).resolve() if parts.scheme == "file" else None
        allowed = {name for _family, _weight, name in FACES}
        if path is None or path.parent != font_dir() or path.name not in allowed:
            raise ValueError(f"a printed document loads only its fonts, not {url}")
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": "font/ttf"})


@cache
def _font_faces() -> str:
    return "\n".join(
        f'@font-face {{ font-family: "{family}"; font-weight: {weight}; '
        f'src: url("{(font_dir() / name).as_uri()}"); }}'
        for family, weight, name in FACES
    )


@cache
def _stylesheet() -> CSS:
    """print.css, parsed once per process: it declares no font face, so no render changes it."""
    return CSS(filename=STYLESHEET, url_fetcher=FontsOnlyFetcher())


def lay_out(html: str) -> Document:
    """``html`` laid out in pages with the embedded fonts and print.css."""
    fetcher = FontsOnlyFetcher()
    fonts = FontConfiguration()
    stylesheets = [CSS(string=_font_faces(), font_config=fonts, url_fetcher=fetcher), _stylesheet()]
    return HTML(string=html, url_fetcher=fetcher).render(stylesheets=stylesheets, font_config=fonts)
