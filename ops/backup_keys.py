"""The keys that sign and verify backups (docs/operating.md, "Backups").

Terms:
- The *signing key* is a secret the operator keeps: ``BACKUP_SIGNING_KEY``, or the
  content of the file ``BACKUP_SIGNING_KEY_FILE`` names (what a systemd credential or a
  Docker secret gives), surrounding blanks and the final newline left out.
- The *verifying keys* are the signing key and the old ones of ``BACKUP_VERIFY_KEYS``,
  kept after a rotation so that the backups signed before it still restore.
- A key's *id* is the first 8 hex digits of the SHA-256 of the key: a backup names the
  key that signed it by its id (``printf %s "$KEY" | sha256sum | cut -c1-8``), never by
  the key.
- A *signature* is the HMAC-SHA256, under a key, of a backup's *seal*: its format, its
  version and the SHA-256 digest of its contents (``ops.backup``).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings

SHORTEST = 32
MAKE_ONE = "python3 -c 'import secrets; print(secrets.token_hex(32))'"


class KeyProblem(Exception):
    """A key the settings name that cannot be used, said for the operator (never the key)."""


@dataclass(frozen=True)
class Key:
    secret: bytes = field(repr=False)

    @property
    def id(self) -> str:
        return hashlib.sha256(self.secret).hexdigest()[:8]

    def sign(self, seal: str) -> str:
        return hmac.new(self.secret, seal.encode(), hashlib.sha256).hexdigest()

    def signed(self, seal: str, signature: str) -> bool:
        return hmac.compare_digest(self.sign(seal), signature)


def _key(text: str, *, named: str) -> Key:
    if len(text) < SHORTEST:
        raise KeyProblem(
            f"{named} is shorter than {SHORTEST} characters; make a key with: {MAKE_ONE}"
        )
    return Key(text.encode())


def signing_key() -> Key | None:
    """The key new backups are signed with; None when the settings give none."""
    text, path = settings.BACKUP_SIGNING_KEY, settings.BACKUP_SIGNING_KEY_FILE
    if text and path:
        raise KeyProblem("Set BACKUP_SIGNING_KEY or BACKUP_SIGNING_KEY_FILE, not both.")
    if path:
        try:
            text = Path(path).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or error
            raise KeyProblem(f"Cannot read BACKUP_SIGNING_KEY_FILE ({path}): {reason}.") from error
        if not text:
            raise KeyProblem(f"BACKUP_SIGNING_KEY_FILE ({path}) is empty.")
        return _key(text, named=f"The key in BACKUP_SIGNING_KEY_FILE ({path})")
    return _key(text, named="BACKUP_SIGNING_KEY") if text else None


def verifying_keys() -> dict[str, Key]:
    """The keys a restore accepts a signature of, by id: the signing key and the old ones."""
    keys = [_key(text, named="A key in BACKUP_VERIFY_KEYS") for text in settings.BACKUP_VERIFY_KEYS]
    current = signing_key()
    if current is not None:
        keys.insert(0, current)
    return {key.id: key for key in keys}
