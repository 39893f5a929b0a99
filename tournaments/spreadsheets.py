"""CSV for spreadsheets: no cell of ours is ever run as a formula.

Excel, LibreOffice and Google Sheets take a cell whose text starts with ``=``,
``+``, ``-`` or ``@`` (or with a tab or carriage return before one) as a formula,
so a player named ``=HYPERLINK(...)`` would put a live link, or worse, into the
organisers' spreadsheet. Such text gets a leading apostrophe, which makes it
plain text (OWASP's advice on CSV injection). Numbers are written as numbers:
a negative spread stays ``-12``.

The file opens in the reader's spreadsheet program as it expects: cells separated
by semicolons for Swedish readers (their programs use the comma for decimals, and
split on semicolons), by commas for others, and a byte order mark first so that
å, ä and ö are read as UTF-8.
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


BYTE_ORDER_MARK = "\ufeff"


def separator(language: str | None) -> str:
    """The cell separator a spreadsheet program in ``language`` splits on."""
    return ";" if (language or "").startswith("sv") else ","


class SpreadsheetWriter:
    """A ``csv.writer`` whose every cell is neutralised first."""

    def __init__(self, stream: _Stream, delimiter: str = ",") -> None:
        self._writer = csv.writer(stream, delimiter=delimiter)

    def writerow(self, row: Iterable[object]) -> Any:
        return self._writer.writerow([neutralised(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(stream: _Stream, language: str | None = None) -> SpreadsheetWriter:
    """A writer for a reader in ``language``, the byte order mark written first."""
    stream.write(BYTE_ORDER_MARK)
    return SpreadsheetWriter(stream, delimiter=separator(language))
