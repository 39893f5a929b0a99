"""The printing machinery: HTML to PDF with only its fonts, QR codes and stamps drawn at
their spots, the cycle collector and the priority of a layout, and WeasyPrint loaded by
the first document only (docs/printing.md)."""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable
from typing import Any

import pytest
from weasyprint import HTML

from printing import pdf, qr, stamps
from tests.printing.pictures import at_mm, dark_share, drawn


def test_the_site_starts_without_weasyprint() -> None:
    """WeasyPrint (seconds to import) is loaded by the first PDF, not by the URLs."""
    import subprocess
    import sys

    from django.conf import settings

    loaded = subprocess.run(
        [sys.executable, "-c", "import django, sys; django.setup(); import config.urls; "
         "print(sorted(m for m in sys.modules if m.split('.')[0] == 'weasyprint'))"],
        cwd=settings.BASE_DIR, capture_output=True, text=True, check=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.test_settings"},
    ).stdout  # fmt: skip
    assert loaded.strip() == "[]"


def test_documents_fetch_nothing_from_the_network() -> None:
    from printing.layout import FontsOnlyFetcher

    fetcher = FontsOnlyFetcher()
    refuse: list[Callable[[], Any]] = [
        lambda: fetcher.fetch("https://example.org/font.ttf"),
        lambda: fetcher.fetch("file:///etc/passwd"),
    ]
    for attempt in refuse:
        with pytest.raises(ValueError, match="only its fonts"):
            attempt()


@pytest.mark.parametrize(
    ("row", "runs"),
    [
        ("", []),
        ("...", []),
        ("###", [(0, 3)]),
        ("#.##..#", [(0, 1), (2, 2), (6, 1)]),
        (".#######..", [(1, 7)]),
    ],
)
def test_a_row_of_modules_is_drawn_as_its_dark_runs(row: str, runs: list[tuple[int, int]]) -> None:
    assert list(qr.dark_runs([module == "#" for module in row])) == runs


def test_a_code_is_drawn_at_its_spot_in_whole_modules() -> None:
    code = qr.Code("http://testserver/p/abcdefghjkmnpq/", spot="here", size=29 * 25.4 / 72)
    drawing = qr.operators(code, 100, 700).decode().splitlines()
    assert drawing[0] == "q 0 g 1.0000 0 0 -1.0000 100.000 700.000 cm"  # a module is 1 pt
    assert drawing[1] == "0 0 7 1 re"  # the finder pattern's top edge, top left
    assert drawing[-1] == "f Q"


def test_a_code_without_its_spot_is_an_error() -> None:
    code = qr.Code("http://testserver/p/abcdefghjkmnpq/", spot="nowhere", size=20)
    with pytest.raises(pdf.SpotMissingError, match="nowhere"):
        pdf.write_pdf('<p id="elsewhere">A</p>', [code])


def test_the_cycle_collector_is_paused_only_while_a_document_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = []
    real = HTML.render  # the class printing.pdf lays documents out with

    def render(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return real(self, *args, **kwargs)

    monkeypatch.setattr(HTML, "render", render)
    assert gc.isenabled()
    assert pdf.write_pdf("<p>Åsa</p>").startswith(b"%PDF-")
    assert seen == [False]
    assert gc.isenabled()
    gc.disable()  # whoever turned it off before keeps it off
    try:
        pdf.write_pdf("<p>Åsa</p>")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_stamp_is_drawn_with_its_top_left_corner_on_its_spots() -> None:
    master_html = '<div id="piece" style="width: 30mm; height: 10mm; background: #000"></div>'
    pages = pdf.render(f'<div style="margin: 40mm 0 0 50mm">{master_html}</div>')
    left, top, right, bottom = pages.pages[0].anchors["piece"]
    height = pages.pages[0].height * 0.75
    box = (left * 0.75, height - bottom * 0.75, right * 0.75, height - top * 0.75)
    master = stamps.Master(pdf.finish(pages), box)
    document = (
        '<div id="a" style="margin: 0 0 0 20mm; height: 10mm"></div>'
        '<div id="b" style="margin: 30mm 0 0 100mm; height: 10mm"></div>'
    )
    content = pdf.finish(
        pdf.render(document), marks=[stamps.Stamp(master, "a"), stamps.Stamp(master, "b")]
    )
    image = drawn(content)
    # The page's margins are 17 mm at the top and 14 mm at the left (print.css).
    for x, y in ((14 + 20, 17), (14 + 100, 17 + 10 + 30)):
        assert dark_share(image, at_mm(x + 1, y + 1, x + 29, y + 9)) > 0.99
        assert dark_share(image, at_mm(x - 3, y - 3, x - 1, y + 13)) == 0  # nothing to its left
    assert dark_share(image, at_mm(0, 0, 210, 16)) == 0


def test_a_stamp_without_its_spot_is_an_error() -> None:
    pages = pdf.render('<p id="piece">A</p>')
    master = stamps.Master(pdf.finish(pages), (0, 0, 10, 10))
    with pytest.raises(pdf.SpotMissingError, match="nowhere"):
        pdf.write_pdf('<p id="elsewhere">B</p>', marks=[stamps.Stamp(master, "nowhere")])


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no process priorities here")
def test_a_pdf_is_laid_out_at_a_lower_priority_than_the_pages() -> None:
    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen = pdf.at_low_priority(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
    assert seen == min(mine + pdf.RENDER_NICENESS, 19) if os.uname().sysname == "Linux" else mine
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine


def test_a_failed_layout_reaches_the_request() -> None:
    def broken() -> None:
        raise ValueError("a broken document")

    with pytest.raises(ValueError, match="a broken document"):
        pdf.at_low_priority(broken)
