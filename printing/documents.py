"""A printable document: a template of templates/print/, its context, and what is drawn in.

The apps decide what their documents show (tournaments/printing/documents.py,
ratings/printing.py) and answer a ``Document``; this module turns one into the HTML
that WeasyPrint lays out (``render_html``, on templates/print/base.html) and into a
PDF (``render_pdf``). A document of a tournament puts the tournament in its context,
under ``tournament``, where print/base.html names it in the title and the head.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe

from printing import pdf, qr, stamps


@dataclass(frozen=True)
class Document:
    """A document ready to render: ``kind`` names its template in templates/print/.

    *Preliminary* (its results may still change) and *proposal* (its tables may
    still change) are said in a banner and on every page.
    """

    kind: str
    title: str
    filename: str
    preliminary: bool
    context: dict[str, Any] = field(default_factory=dict)
    proposal: bool = False
    landscape: bool = False
    codes: tuple[qr.Code, ...] = ()
    marks: tuple[stamps.Stamp, ...] = ()


def render_html(document: Document, *, printed_at: datetime | None = None) -> str:
    """The document as the HTML that WeasyPrint lays out, in the active language."""
    context = {
        **document.context,
        "document": document,
        "printed_at": printed_at or timezone.now(),
        # Empty spans whose ::after prints the page counters in the footer.
        "page_number": mark_safe('<span class="page-number"></span>'),
        "page_count": mark_safe('<span class="page-count"></span>'),
    }
    return render_to_string(f"print/{document.kind}.html", context)


def render_pdf(document: Document, *, printed_at: datetime | None = None) -> bytes:
    html = render_html(document, printed_at=printed_at)
    return pdf.write_pdf(html, document.codes, document.marks)
