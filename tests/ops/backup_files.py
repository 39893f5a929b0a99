"""Backup files as an operator would take them apart and put them together by hand.

The digest and the signature are made here as docs/operating.md ("Backups") describes
them, with ``hashlib`` and ``hmac``, not with the site's code: a file packed here restores
only if the site reads the format the documents describe.
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

FORMAT = "svenska-cribbageklubben-backup"


def the_tests_key() -> str:
    """The key the test settings sign backups with."""
    key: str = settings.BACKUP_SIGNING_KEY
    assert len(key) >= 32
    return key


def key_id(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:8]


@dataclass(frozen=True)
class Unpacked:
    header: dict[str, Any]
    rows: str
    """Every row's line, each ending in a newline."""
    trailer: dict[str, Any]


def unpack(backup: Path | bytes) -> Unpacked:
    whole = backup.read_bytes() if isinstance(backup, Path) else backup
    lines = gzip.decompress(whole).decode().splitlines(keepends=True)
    return Unpacked(json.loads(lines[0]), "".join(lines[1:-1]), json.loads(lines[-1]))


def pack(
    header: dict[str, Any],
    rows: str,
    *,
    key: str | None = "test",
    signed_with: str | None = None,
    sha256: str | None = None,
) -> bytes:
    """A backup of ``header`` and ``rows`` with its trailer made anew: the digest of the
    lines before it (or ``sha256``), signed with ``key`` ("test": the test settings' key;
    None: unsigned), under the id ``signed_with`` (default: the key's own)."""
    contents = (json.dumps(header) + "\n" + rows).encode()
    digest = sha256 or hashlib.sha256(contents).hexdigest()
    key = the_tests_key() if key == "test" else key
    signature = None
    if key is not None:
        sealed = f"{FORMAT} {header['version']} sha256:{digest}".encode()
        signature = hmac.new(key.encode(), sealed, hashlib.sha256).hexdigest()
    trailer = {
        "end": FORMAT,
        "sha256": digest,
        "signed_with": signed_with or (key_id(key) if key is not None else None),
        "signature": signature,
    }
    return gzip.compress(contents + json.dumps(trailer).encode() + b"\n")


def with_trailer(header: dict[str, Any], rows: str, trailer: dict[str, Any]) -> bytes:
    """A backup of ``header`` and ``rows`` ending in ``trailer`` as it is (an edit by hand
    that leaves the end of the file alone)."""
    lines = json.dumps(header) + "\n" + rows + json.dumps(trailer) + "\n"
    return gzip.compress(lines.encode())
