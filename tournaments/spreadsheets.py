"""CSV for spreadsheets: no cell of ours is ever run as a formula.

Excel, LibreOffice and Google Sheets take a cell whose text starts with ``=``,
``+``, ``-`` or ``@`` (or with a tab or carriage return before one) as a formula,
so a player named ``=HYPERLINK(...)`` would put a live link, or worse, into the
organisers' spreadsheet. Such text gets a leading apostrophe, which makes it
plain text (OWASP's advice on CSV injection). Numbers are written as numbers:
a negative spread stays ``-12``.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from decimal import Decimal
from typing import Any, Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class _Stream(Protocol):
    def write(self, text: str, /) -> Any: ...


def neutralised(cell: object) -> object:
    """``cell`` as a spreadsheet may safely read it: formula-like text behind an apostrophe."""
    if cell is None or isinstance(cell, (int, float, Decimal)):
        return cell  # csv writes None as an empty cell; a number is never a formula
    text = str(cell)
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


class SpreadsheetWriter:
    """A ``csv.writer`` whose every cell is neutralised first."""

    def __init__(self, stream: _Stream) -> None:
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[object]) -> Any:
        return self._writer.writerow([neutralised(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(stream: _Stream) -> SpreadsheetWriter:
    return SpreadsheetWriter(stream)
