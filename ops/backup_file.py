"""A backup's file: its lines, its digest and its signature (docs/operating.md, "Backups").

Terms:
- A backup is one gzip stream of UTF-8 lines: the *header* (a JSON object: the format,
  its version, when and on which database it was made, the schema, the rows of each
  model), one line per row, and last the *trailer* (a JSON object: the digest and the
  signature). The header is written before the rows are read, so what is known only at
  the end is in the trailer.
- The *digest* is the SHA-256 of every byte before the trailer, uncompressed: the header
  line and the rows, newlines included. So it covers the header's row counts and schema
  as well as the rows, does not depend on how the stream was compressed, is computed
  while the lines are written and checked while they are read (a restore from standard
  input cannot go back), and an operator can compute it again by hand:
  ``zcat FILE | head -n -1 | sha256sum``.
- The *seal* is the text signed: ``"<format> <version> sha256:<digest>"``; the
  *signature*, its HMAC-SHA256 under the signing key, named by the key's id
  (``ops.backup_keys``).
- A file is *whole* when its trailer is there and its digest matches; *verified* when it
  is whole and signed with a key this site has, and the signature matches.

Version 2 (this one) added the trailer; a version 1 file (no digest, no signature) is
refused, naming its version: it was made at an older schema anyway, which this site
does not restore (``ops.backup``).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import IO, Any

from ops.backup_keys import Key

FORMAT = "svenska-cribbageklubben-backup"
VERSION = 2
TRUST_UNSIGNED = "--trust-unsigned"

Schema = dict[str, list[str]]


class BackupError(Exception):
    """A backup that cannot be written or restored, said for the operator at the terminal."""


@dataclass(frozen=True)
class Header:
    format: str
    version: int
    created_at: str
    vendor: str
    schema: Schema
    rows: dict[str, int]


@dataclass(frozen=True)
class Trailer:
    end: str  # the format's name, so that no row is ever taken for the trailer
    sha256: str
    signed_with: str | None
    signature: str | None


@dataclass(frozen=True)
class Verified:
    """A file read whole and accepted: its header, its digest, and what was checked."""

    header: Header
    sha256: str
    signed_with: str | None
    """The id of the key whose signature was checked; None: accepted on --trust-unsigned."""
    unchecked: str = ""
    """Why the signature was not checked, when ``signed_with`` is None."""


def seal(sha256: str) -> str:
    return f"{FORMAT} {VERSION} sha256:{sha256}"


class _Digesting(io.RawIOBase):
    """Passes every byte written on to ``target`` and hashes it."""

    def __init__(self, target: io.BufferedIOBase) -> None:
        super().__init__()
        self.target = target
        self.digest = hashlib.sha256()

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.digest.update(data)
        return self.target.write(data)


@contextmanager
def backup_writer(stream: IO[bytes], header: Header, *, key: Key | None) -> Iterator[IO[str]]:
    """A text stream for the rows after ``header``; the trailer is written, signed with
    ``key`` (None: unsigned), when the rows are done."""
    with gzip.GzipFile(fileobj=stream, mode="wb", compresslevel=6) as packed:
        contents = _Digesting(packed)
        text = io.TextIOWrapper(io.BufferedWriter(contents), encoding="utf-8", newline="\n")
        text.write(json.dumps(asdict(header), ensure_ascii=False) + "\n")
        yield text
        text.flush()
        text.detach()
        sha256 = contents.digest.hexdigest()
        trailer = Trailer(
            end=FORMAT,
            sha256=sha256,
            signed_with=key.id if key else None,
            signature=key.sign(seal(sha256)) if key else None,
        )
        packed.write(json.dumps(asdict(trailer)).encode() + b"\n")


def _damaged(reason: object) -> BackupError:
    return BackupError(f"The backup is damaged and was not restored: {reason}")


CUT_SHORT = "it is cut short (it ends before its trailer, the line with its digest)."
NOT_A_BACKUP = "This is not a backup made by manage.py backup."
UNREADABLE = (OSError, EOFError, zlib.error, UnicodeDecodeError)
"""What a damaged gzip stream, or bytes that are not UTF-8, raise as they are read."""


class Contents:
    """A backup's lines as they are read: ``header()``, then ``rows()``, each line hashed;
    once the rows are done, ``trailer`` is the last line (None: there was none)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._lines = iter(gzip.GzipFile(fileobj=stream, mode="rb"))
        self.digest = hashlib.sha256()
        self.trailer: Trailer | None = None

    def header(self) -> Header:
        """The header, or a BackupError saying the file is not a backup (of this version)."""
        try:
            line = next(self._lines, b"")
            fields = json.loads(line)
        except (*UNREADABLE, ValueError) as error:
            raise BackupError(NOT_A_BACKUP) from error
        self.digest.update(line)
        if not isinstance(fields, dict) or fields.get("format") != FORMAT:
            raise BackupError(NOT_A_BACKUP)
        if fields.get("version") != VERSION:
            raise BackupError(
                f"This backup is in version {fields.get('version')} of the format; this site "
                f"reads version {VERSION} (with a digest and a signature). Restore it with the "
                "version of the site that made it, then upgrade."
            )
        try:
            return Header(**fields)
        except TypeError as error:
            raise BackupError(NOT_A_BACKUP) from error

    def rows(self) -> Iterator[str]:
        """Every line after the header but the last, which is kept as ``trailer``."""
        held: bytes | None = None
        for line in self._lines:
            if held is not None:
                self.digest.update(held)
                yield held.decode("utf-8")
            held = line
        self.trailer = _trailer(held)

    def whole(self) -> bool:
        return self.trailer is not None and self.trailer.sha256 == self.digest.hexdigest()


def _trailer(line: bytes | None) -> Trailer | None:
    try:
        fields = json.loads(line or b"")
        trailer = Trailer(**fields) if isinstance(fields, dict) else None
    except (TypeError, ValueError):
        return None
    return trailer if trailer is not None and trailer.end == FORMAT else None


def verify(stream: IO[bytes], keys: Mapping[str, Key], *, trust_unsigned: bool) -> Verified:
    """Read the backup in ``stream`` whole and check it: a BackupError, one line, unless
    it is whole and verified with one of ``keys`` (or only whole, on ``trust_unsigned``)."""
    contents = Contents(stream)
    header = contents.header()
    try:
        for _row in contents.rows():
            pass
    except EOFError as error:
        raise _damaged(CUT_SHORT) from error
    except UNREADABLE as error:
        raise _damaged(error) from error
    if contents.trailer is None:
        raise _damaged(CUT_SHORT)
    if not contents.whole():
        raise _damaged(
            "its contents do not match the digest in its trailer "
            "(it was changed or damaged after it was made)."
        )
    trailer = contents.trailer
    checked = _signer(trailer, keys)
    if checked is not None:
        return Verified(header, trailer.sha256, signed_with=checked)
    unchecked, advice = _unchecked(trailer, keys)
    if not trust_unsigned:
        raise BackupError(f"The backup was not restored: {unchecked}. {advice}")
    return Verified(header, trailer.sha256, signed_with=None, unchecked=unchecked)


def _signer(trailer: Trailer, keys: Mapping[str, Key]) -> str | None:
    """The id of the key whose signature the trailer carries, when it matches."""
    key = keys.get(trailer.signed_with or "")
    if (
        key is None
        or not trailer.signature
        or not key.signed(seal(trailer.sha256), trailer.signature)
    ):
        return None
    return key.id


def _unchecked(trailer: Trailer, keys: Mapping[str, Key]) -> tuple[str, str]:
    """Why a whole file's signature is not accepted, and what the operator can do."""
    if not trailer.signed_with or not trailer.signature:
        reason = "it is not signed (it was made without BACKUP_SIGNING_KEY)"
        return reason, f"If you know where it comes from, restore it with {TRUST_UNSIGNED}."
    if trailer.signed_with not in keys:
        reason = (
            f"it is signed with key {trailer.signed_with}, which this site does not have "
            "(BACKUP_SIGNING_KEY, BACKUP_VERIFY_KEYS)"
        )
        return reason, (
            "Add that key to BACKUP_VERIFY_KEYS, or restore it with "
            f"{TRUST_UNSIGNED} if you know where it comes from."
        )
    reason = (
        "its signature does not match: it was changed after it was signed with key "
        f"{trailer.signed_with}"
    )
    return reason, f"Restore it with {TRUST_UNSIGNED} only if you know what was changed."
