"""HTML to an A4 PDF with WeasyPrint: the print stylesheet, embedded fonts, no network.

The fonts (``fonts``: DejaVu Sans, and DejaVu Sans Mono for the addresses a reader
types) are declared with ``@font-face`` so every PDF embeds the very
glyphs it was laid out with, å, ä and ö included. WeasyPrint fetches nothing but
those font files: its URL fetcher refuses any other address, so a document never
reaches the network or the rest of the disk. The QR codes of a document and its
stamps (a piece laid out once, such as the score sheet's blank form) are drawn into
it afterwards (``qr``, ``stamps``), each at the element the template left for it:
its *spot*, named by id.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

import pydyf

from printing import qr, stamps

if TYPE_CHECKING:
    from weasyprint import Document

T = TypeVar("T")


class _CollectorPause:
    """Python's cycle collector off while any thread lays out or writes a document.

    WeasyPrint keeps tens of thousands of boxes alive while it works, which makes the
    collector walk the whole process (Django, the templates, every box) several times a
    document: a quarter of a 256-player standings' time ("Speed" in docs/printing.md).
    The boxes are freed by reference counting when the document is done; what cycles
    there are wait for the collector's next run, after the render.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._renders = 0
        self._was_enabled = False

    def __enter__(self) -> None:
        with self._lock:
            if self._renders == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._renders += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._renders -= 1
            if self._renders == 0 and self._was_enabled:
                gc.enable()


_collector_paused = _CollectorPause()


def render(html: str) -> Document:
    """``html`` (a whole document from templates/print/) laid out in pages, print.css applied.

    WeasyPrint is imported here, when the first document is made, not when the URLs
    are: its import takes seconds, which every process (each test worker, each
    management command) would otherwise pay for nothing ("Fast feedback" in
    docs/benchmarks.md).
    """
    from printing import layout

    with _collector_paused:
        return layout.lay_out(html)


def finish(
    pages: Document, codes: Sequence[qr.Code] = (), marks: Sequence[stamps.Stamp] = ()
) -> bytes:
    """The PDF of the laid-out ``pages``, with ``codes`` and ``marks`` drawn at their spots."""
    with _collector_paused:
        finisher = _overlay(codes, marks) if codes or marks else None
        # WeasyPrint is untyped; write_pdf gives the PDF's bytes when given no target.
        pdf: bytes = pages.write_pdf(finisher=finisher)
        return pdf


def write_pdf(
    html: str, codes: Sequence[qr.Code] = (), marks: Sequence[stamps.Stamp] = ()
) -> bytes:
    """The PDF of ``html``, with ``codes`` and ``marks`` drawn at their spots, at low priority."""
    return at_low_priority(lambda: finish(render(html), codes, marks))


class SpotMissingError(RuntimeError):
    """A code's or stamp's spot is not in the laid-out document: the template left no room."""


def _overlay(
    codes: Sequence[qr.Code], marks: Sequence[stamps.Stamp]
) -> Callable[[Document, pydyf.PDF], None]:
    """For ``Document.write_pdf(finisher=...)``: draws each code and stamp at its spot.

    A stamp's master becomes one XObject of the PDF, named in the resources of the
    pages that show it (WeasyPrint's pages share theirs); a code is drawn anew each
    time (``qr.operators``).
    """
    codes_at: dict[str, list[qr.Code]] = defaultdict(list)
    for code in codes:
        codes_at[code.spot].append(code)
    stamped_at = {mark.spot: mark.master for mark in marks}

    def draw(document: Document, pdf: pydyf.PDF) -> None:
        xobjects: dict[stamps.Master, tuple[str, bytes]] = {}  # its name, its reference
        drawn: set[str] = set()
        for page, number in zip(document.pages, pdf.pages["Kids"][::3], strict=True):
            height = page.height * qr.POINTS_PER_PX
            drawing: list[bytes] = []
            # An anchor is its box's (left, top, right, bottom), in CSS pixels from the top.
            for spot, (left, top, _right, bottom) in page.anchors.items():
                for code in codes_at.get(spot, ()):
                    x = left * qr.POINTS_PER_PX + code.offset * qr.POINTS_PER_MM
                    y = height - bottom * qr.POINTS_PER_PX + code.size * qr.POINTS_PER_MM
                    drawing.append(qr.operators(code, x, y))
                if (master := stamped_at.get(spot)) is not None:
                    if master not in xobjects:
                        xobjects[master] = (f"Stamp{len(xobjects)}", master.xobject(pdf).reference)
                    name, reference = xobjects[master]
                    _resources(pdf, pdf.objects[number])["XObject"][name] = reference
                    x, y = left * qr.POINTS_PER_PX, height - top * qr.POINTS_PER_PX
                    drawing.append(stamps.operators(name, master, x, y))
            if drawing:
                _append(pdf, pdf.objects[number], b"\n".join(drawing))
                drawn.update(
                    spot for spot in page.anchors if spot in codes_at or spot in stamped_at
                )
        if missing := (codes_at.keys() | stamped_at.keys()) - drawn:
            raise SpotMissingError(f"no element has the id of the spots {sorted(missing)}")

    return draw


def _resources(pdf: pydyf.PDF, page: pydyf.Dictionary) -> pydyf.Dictionary:
    """The page's resources: WeasyPrint gives every page the same, by reference."""
    resources = page["Resources"]
    if isinstance(resources, bytes):  # b"12 0 R"
        resources = pdf.objects[int(resources.split()[0])]
    assert isinstance(resources, pydyf.Dictionary)
    return resources


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


# A PDF keeps a core busy for a second or two. The pages the other workers serve
# meanwhile (a venue polls a dozen a second) should not queue behind it: the layout
# runs this much nicer than the rest of the process. The reader of the PDF waits a
# little longer when the machine is busy, and not at all when it is idle.
RENDER_NICENESS = 10


def at_low_priority(work: Callable[[], T]) -> T:
    """``work()`` done in a thread of its own with a lower CPU priority, its result returned.

    On Linux a thread's niceness is its own, so the request's thread (which only waits)
    and the rest of the process keep theirs. Elsewhere, or where the system refuses,
    the work is done as it is.
    """
    if sys.platform != "linux":
        return work()
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        thread = threading.get_native_id()
        try:
            niceness = os.getpriority(os.PRIO_PROCESS, thread) + RENDER_NICENESS
            os.setpriority(os.PRIO_PROCESS, thread, min(niceness, 19))
        except OSError:
            pass  # a sandbox that forbids it: render at the usual priority
        try:
            outcome.append(work())
        except BaseException as error:  # handed to the waiting thread as it is
            failure.append(error)

    worker = threading.Thread(target=run, name="pdf-layout")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return outcome[0]
