"""From the bytes of a file to the JSON object of an export, refusing what no export holds.

A file is read only up to a size limit (``MAX_MEGABYTES``, before any parsing);
it must be UTF-8 JSON whose top level is an object. Every value in it is then
walked once, without recursion: nothing may be nested deeper than ``MAX_DEPTH``
(an export goes about a dozen levels down, with game records), and no string
may hold a NUL character or half of a surrogate pair (no database stores them).
"""

from __future__ import annotations

import json
import math
from typing import IO, Any

from tournaments.exchange.fields import InvalidExport, at, item, kind

MAX_MEGABYTES = 5
MAX_DEPTH = 32
MAX_DIGITS = 40  # far beyond any id or seed; Python refuses to read 4,300 and more
MEGABYTE = 1024 * 1024


def read_limited(handle: IO[bytes], *, megabytes: int = MAX_MEGABYTES) -> bytes:
    """At most ``megabytes`` of the file; a larger file is refused without reading it all."""
    raw = handle.read(megabytes * MEGABYTE + 1)
    if len(raw) > megabytes * MEGABYTE:
        raise InvalidExport(
            "",
            f"The file is larger than {megabytes} MB, which no tournament export should be "
            "(an export with game records of a large tournament may be: raise the limit "
            "with --max-size).",
        )
    return raw


def read_export(raw: bytes) -> dict[str, Any]:
    """The export's top-level object, with every value in it checked as above."""
    data = _parsed(_decoded(raw))
    _check_values(data)
    if not isinstance(data, dict):
        raise InvalidExport(
            "", f"The file must hold one JSON object (an export), not {kind(data)}."
        )
    return data


def _decoded(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InvalidExport(
            "", f"The file is not UTF-8 text (byte {error.start} cannot be read)."
        ) from error


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _whole_number(digits: str) -> int:
    if len(digits) > MAX_DIGITS:
        raise ValueError(f"a number has more than {MAX_DIGITS} digits")
    return int(digits)


def _parsed(text: str) -> object:
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_whole_number)
    except json.JSONDecodeError as error:
        raise InvalidExport(
            "", f"The file is not JSON: {error.msg} (line {error.lineno}, column {error.colno})."
        ) from error
    except RecursionError as error:
        raise InvalidExport("", f"The file is nested deeper than {MAX_DEPTH} levels.") from error
    except ValueError as error:  # NaN, Infinity, or a number with too many digits
        raise InvalidExport("", f"The file is not JSON: {error}.") from error


def _check_values(data: object) -> None:
    pending: list[tuple[object, str, int]] = [(data, "", 0)]
    while pending:
        value, path, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise InvalidExport(path, f"is nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            for key, child in reversed(value.items()):
                _check_string(key, at(path, key))
                pending.append((child, at(path, key), depth + 1))
        elif isinstance(value, list):
            pending.extend(
                (child, item(path, i), depth + 1) for i, child in reversed(list(enumerate(value)))
            )
        elif isinstance(value, str):
            _check_string(value, path)
        elif isinstance(value, float) and not math.isfinite(value):
            raise InvalidExport(path, "is a number too large to store")


def _check_string(value: str, path: str) -> None:
    if "\x00" in value:
        raise InvalidExport(path, "holds a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidExport(path, "holds half of a surrogate pair, which is not text") from error
