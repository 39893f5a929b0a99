"""A piece of a document laid out once and drawn at many places: a *stamp*.

The score sheets of a round all carry the same blank form (``sheets``). Laid out
by WeasyPrint on every sheet, 128 forms took several seconds; so the form is laid
out once, as a PDF of its own (its *master*), and the document leaves an empty
element of the form's size on every sheet, named by its id (the stamp's *spot*,
as for the QR codes in ``qr``). After WeasyPrint has laid the document out,
``xobject`` copies the master's page into the document's PDF as one *form
XObject* (its drawing, with the fonts and graphics states it uses), and
``operators`` draws that XObject with its top-left corner on the spot's. The
form is then real text and lines in the PDF, searchable and as sharp as the rest,
and embedded once however many sheets show it.

The master's PDF is parsed with pypdf and its objects are rebuilt as pydyf's (the
library WeasyPrint writes with); a stream is stored decoded and compressed again.
The master embeds its own subset of each font it uses; WeasyPrint names a subset
after its font only (``ABCDEF+DejaVu-Sans``), and different subsets in one PDF must
have different names, so the copies get a tag of their own (``_tagged``).
Coordinates are the PDF's default ones: points, origin bottom-left, y up.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass
from functools import cached_property

import pydyf
from pypdf import PdfReader
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    IndirectObject,
    NameObject,
    NullObject,
    PdfObject,
    StreamObject,
)

# Keys of a stream's dictionary that describe its bytes as stored: pydyf writes its own.
_STORAGE_KEYS = {"/Length", "/Filter", "/DecodeParms"}
_FONT_NAME_KEYS = {"/BaseFont", "/FontName"}
_SUBSET_TAG = re.compile(r"/[A-Z]{6}\+")


@dataclass(frozen=True)
class Master:
    """A PDF of one page holding the piece, and the piece's box on that page.

    ``box`` is (left, bottom, right, top) in points; the drawing outside it is not shown.
    """

    pdf: bytes
    box: tuple[float, float, float, float]

    @cached_property
    def _page(self) -> tuple[bytes, DictionaryObject]:
        """The page's drawing, decoded, and its resources (fonts, graphics states)."""
        page = PdfReader(io.BytesIO(self.pdf)).pages[0]
        contents = page.get_contents()
        if contents is None:
            raise ValueError("the master page draws nothing")
        resources = page["/Resources"].get_object()
        assert isinstance(resources, DictionaryObject)
        return contents.get_data(), resources

    def xobject(self, pdf: pydyf.PDF) -> pydyf.Stream:
        """The master's page as a form XObject added to ``pdf``, with what it uses."""
        drawing, resources = self._page
        copied: dict[int, pydyf.Object] = {}
        tag = "".join(chr(65 + byte % 26) for byte in hashlib.sha256(self.pdf).digest()[:6])
        stream = pydyf.Stream(
            [drawing],
            pydyf.Dictionary(
                {
                    "Type": "/XObject",
                    "Subtype": "/Form",
                    "BBox": pydyf.Array(self.box),
                    "Resources": _copy(resources, pdf, copied, tag),
                }
            ),
            compress=True,
        )
        pdf.add_object(stream)
        return stream


@dataclass(frozen=True)
class Stamp:
    """``master`` drawn with its top-left corner on that of the element with the id ``spot``."""

    master: Master
    spot: str


def operators(name: str, master: Master, left: float, top: float) -> bytes:
    """PDF operators that draw the XObject ``name`` of ``master``, its top-left at (left, top)."""
    dx, dy = left - master.box[0], top - master.box[3]
    return f"q 1 0 0 1 {dx:.3f} {dy:.3f} cm /{name} Do Q".encode("ascii")


def _copy(value: PdfObject, pdf: pydyf.PDF, copied: dict[int, pydyf.Object], tag: str) -> object:
    """``value`` (read by pypdf) as pydyf writes it; objects it refers to are added to ``pdf``.

    An indirect object is copied once (``copied``, by its number in the master). Names,
    numbers and strings are written as pypdf serialises them, which pydyf writes as
    they are; a font subset's name gets the subset ``tag``.
    """
    if isinstance(value, IndirectObject):
        if value.idnum not in copied:
            target = _copy(value.get_object() or NullObject(), pdf, copied, tag)
            if not isinstance(target, pydyf.Object):
                return target  # a number or a name: written where it is used
            pdf.add_object(target)
            copied[value.idnum] = target
        return copied[value.idnum].reference
    if isinstance(value, DictionaryObject):
        items = {
            str(key)[1:]: _copy(
                _tagged(item, tag) if key in _FONT_NAME_KEYS else item, pdf, copied, tag
            )
            for key, item in value.items()
            if not (isinstance(value, StreamObject) and key in _STORAGE_KEYS)
        }
        if isinstance(value, StreamObject):
            return pydyf.Stream([value.get_data()], items, compress=True)
        return pydyf.Dictionary(items)
    if isinstance(value, ArrayObject):
        return pydyf.Array([_copy(item, pdf, copied, tag) for item in value])
    written = io.BytesIO()
    value.write_to_stream(written)
    return written.getvalue()


def _tagged(name: PdfObject, tag: str) -> PdfObject:
    """A font subset's ``name`` with ``tag`` for its six letters (other names as they are)."""
    if isinstance(name, NameObject) and _SUBSET_TAG.match(name):
        return NameObject(f"/{tag}+{name[8:]}")
    return name
