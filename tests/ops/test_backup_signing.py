"""A backup carries a digest of its contents and a signature, and ``restore`` refuses what
it cannot trust (ops/backup_file.py, ops/backup_keys.py, docs/operating.md "Backups").

The test settings sign with a key of their own; a test of another key sets it. A
*restore* here replaces the small site it was taken from (``--replace``), after a change
that the refused restores must leave in place.
"""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from pytest_django import Settings

from club.models import Player
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.ops.backup_files import key_id, pack, the_tests_key, unpack, with_trailer
from tests.ops.test_backup import snapshot

pytestmark = pytest.mark.django_db

OLD_KEY = "old-backup-key-" + "7" * 40
NEW_KEY = "new-backup-key-" + "3" * 40


@pytest.fixture
def small_site(db: None) -> Player:
    OrganiserFactory.create(username="olle")
    PlayerFactory.create_batch(3)
    return PlayerFactory.create(name="Anna Berg", user=UserFactory.create(username="anna"))


def back_up(path: Path) -> tuple[str, str]:
    """``manage.py backup --output path``: what it says on stdout and on stderr."""
    out, err = io.StringIO(), io.StringIO()
    call_command("backup", output=str(path), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def restore(path: Path, **options: Any) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("restore", str(path), replace=True, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def backup(small_site: Player, tmp_path: Path) -> Path:
    path = tmp_path / "site.backup.gz"
    back_up(path)
    return path


def changed_since(small_site: Player) -> None:
    """What happens on the site after the backup: a restore puts it back as it was."""
    Player.objects.filter(pk=small_site.pk).update(name="Renamed after the backup")


def refused(path: Path, message: str, **options: Any) -> None:
    """``restore`` refuses ``path`` in one line saying ``message``, and changes nothing."""
    before = snapshot()
    with pytest.raises(CommandError, match=message) as refusal:
        restore(path, **options)
    assert "\n" not in str(refusal.value)
    assert snapshot() == before


def test_a_signed_backup_restores_and_says_the_key_it_was_signed_with(
    small_site: Player, tmp_path: Path, settings: Settings
) -> None:
    settings.BACKUP_SIGNING_KEY = NEW_KEY
    path = tmp_path / "site.backup.gz"
    said, warned = back_up(path)
    assert said.endswith(f"signed with key {key_id(NEW_KEY)}.\n")
    assert warned == ""
    before = snapshot()
    changed_since(small_site)

    said, warned = restore(path)

    assert snapshot() == before
    assert f"signed with key {key_id(NEW_KEY)}." in said
    assert warned == ""


def test_the_key_may_be_in_a_file_as_a_systemd_credential_or_a_docker_secret_gives_it(
    small_site: Player, tmp_path: Path, settings: Settings
) -> None:
    secret = tmp_path / "backup-signing-key"
    secret.write_text(NEW_KEY + "\n")  # as `echo` writes it
    settings.BACKUP_SIGNING_KEY, settings.BACKUP_SIGNING_KEY_FILE = "", str(secret)
    path = tmp_path / "site.backup.gz"
    said, _warned = back_up(path)
    assert said.endswith(f"signed with key {key_id(NEW_KEY)}.\n")
    changed_since(small_site)
    assert f"signed with key {key_id(NEW_KEY)}." in restore(path)[0]
    assert Player.objects.get(pk=small_site.pk).name == "Anna Berg"


def one_more_superuser(backup: Path | bytes) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The edit of the issue: a superuser row added, the header's count of users raised."""
    unpacked = unpack(backup)
    header = {**unpacked.header, "rows": {**unpacked.header["rows"]}}
    header["rows"]["auth.User"] += 1
    mallory = {
        "model": "auth.user",
        "pk": 999,
        "fields": {
            "password": "md5$salt$0123456789abcdef0123456789abcdef",
            "last_login": None,
            "is_superuser": True,
            "username": "mallory",
            "first_name": "",
            "last_name": "",
            "email": "",
            "is_staff": True,
            "is_active": True,
            "date_joined": "2025-03-09T10:00:00+00:00",
            "groups": [],
            "user_permissions": [],
        },
    }
    return header, unpacked.rows + json.dumps(mallory) + "\n", unpacked.trailer


@pytest.mark.parametrize("trust_unsigned", [False, True])
def test_a_backup_edited_by_hand_is_refused_even_on_trust_unsigned(
    backup: Path, small_site: Player, trust_unsigned: bool
) -> None:
    edited = backup.with_name("edited.backup.gz")
    edited.write_bytes(with_trailer(*one_more_superuser(backup)))
    changed_since(small_site)
    refused(
        edited,
        "damaged and was not restored: its contents do not match the digest",
        trust_unsigned=trust_unsigned,
    )
    assert not User.objects.filter(username="mallory").exists()


def test_an_edit_with_its_digest_made_again_is_refused_for_its_signature(
    backup: Path, small_site: Player
) -> None:
    header, rows, trailer = one_more_superuser(backup)
    edited = backup.with_name("edited.backup.gz")
    # The digest is anyone's to compute; the signature needs the key.
    edited.write_bytes(
        pack(header, rows, key="not-the-key-" + "0" * 40, signed_with=trailer["signed_with"])
    )
    changed_since(small_site)
    refused(
        edited,
        f"not restored: its signature does not match: it was changed after it was signed "
        f"with key {key_id(the_tests_key())}",
    )
    assert not User.objects.filter(username="mallory").exists()

    # What --trust-unsigned says it does: only the digest is checked.
    said, warned = restore(edited, trust_unsigned=True)
    assert "its signature NOT checked (--trust-unsigned)" in said
    assert "although its signature does not match" in warned
    assert User.objects.get(username="mallory").is_superuser


def cut_short(backup: Path) -> dict[str, bytes]:
    whole, unpacked = backup.read_bytes(), unpack(backup)
    lines = json.dumps(unpacked.header) + "\n" + unpacked.rows
    return {
        # a copy that stopped early: the gzip stream itself ends too soon
        "compressed file cut": whole[: len(whole) - 40],
        # what `zcat FILE | head -n 20 | gzip` leaves: whole gzip, the end missing
        "lines cut": gzip.compress("".join(lines.splitlines(keepends=True)[:20]).encode()),
        # the trailer kept, rows before it lost
        "rows cut": with_trailer(
            unpacked.header, "".join(unpacked.rows.splitlines(keepends=True)[:-3]), unpacked.trailer
        ),
    }


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        ("compressed file cut", "damaged and was not restored: it is cut short"),
        ("lines cut", "damaged and was not restored: it is cut short"),
        ("rows cut", "damaged and was not restored: its contents do not match the digest"),
    ],
)
def test_a_truncated_backup_is_refused(
    backup: Path, small_site: Player, cut: str, message: str
) -> None:
    truncated = backup.with_name("truncated.backup.gz")
    truncated.write_bytes(cut_short(backup)[cut])
    changed_since(small_site)
    refused(truncated, message)
    refused(truncated, message, trust_unsigned=True)


def test_an_unsigned_backup_is_refused_and_restores_on_trust_unsigned(
    small_site: Player, tmp_path: Path, settings: Settings
) -> None:
    settings.BACKUP_SIGNING_KEY = ""
    path = tmp_path / "site.backup.gz"
    said, warned = back_up(path)
    assert path.exists()
    assert said.endswith(", not signed.\n")
    assert warned.count("not signed") == 1
    assert "--trust-unsigned" in warned
    before = snapshot()
    changed_since(small_site)

    settings.BACKUP_SIGNING_KEY = NEW_KEY
    refused(path, r"not restored: it is not signed .*restore it with --trust-unsigned\.")

    said, warned = restore(path, trust_unsigned=True)
    assert snapshot() == before
    assert "its signature NOT checked" in said
    assert "although it is not signed" in warned


def test_a_backup_signed_with_an_old_key_restores_while_the_site_keeps_that_key(
    small_site: Player, tmp_path: Path, settings: Settings
) -> None:
    settings.BACKUP_SIGNING_KEY = OLD_KEY
    old = tmp_path / "old.backup.gz"
    back_up(old)
    before = snapshot()
    changed_since(small_site)

    # The key rotated, the old one forgotten: the message names the key the file needs.
    settings.BACKUP_SIGNING_KEY = NEW_KEY
    refused(old, f"signed with key {key_id(OLD_KEY)}, which this site does not have")

    settings.BACKUP_VERIFY_KEYS = [OLD_KEY]
    said, _warned = restore(old)
    assert snapshot() == before
    assert f"signed with key {key_id(OLD_KEY)}." in said
    assert back_up(tmp_path / "new.backup.gz")[0].endswith(f"signed with key {key_id(NEW_KEY)}.\n")


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ({"BACKUP_SIGNING_KEY": "short"}, "BACKUP_SIGNING_KEY is shorter than 32 characters"),
        (
            {"BACKUP_SIGNING_KEY": NEW_KEY, "BACKUP_SIGNING_KEY_FILE": "/run/secrets/key"},
            "Set BACKUP_SIGNING_KEY or BACKUP_SIGNING_KEY_FILE, not both",
        ),
        (
            {"BACKUP_SIGNING_KEY": "", "BACKUP_SIGNING_KEY_FILE": "/nowhere/key"},
            r"Cannot read BACKUP_SIGNING_KEY_FILE \(/nowhere/key\): No such file",
        ),
    ],
)
def test_a_key_that_cannot_be_used_is_said_and_nothing_is_written(
    backup: Path, settings: Settings, keys: dict[str, str], message: str
) -> None:
    for name, value in keys.items():
        setattr(settings, name, value)
    target = backup.with_name("new.backup.gz")
    with pytest.raises(CommandError, match=message):
        back_up(target)
    assert not target.exists()
    refused(backup, message)


def test_a_backup_in_the_first_version_of_the_format_is_refused_naming_it(
    backup: Path, small_site: Player
) -> None:
    unpacked = unpack(backup)
    first = backup.with_name("first.backup.gz")
    first.write_bytes(
        gzip.compress(
            (json.dumps({**unpacked.header, "version": 1}) + "\n" + unpacked.rows).encode()
        )
    )
    changed_since(small_site)
    refused(first, "in version 1 of the format; this site reads version 2", trust_unsigned=True)


class Pipe(io.BytesIO):
    """Standard input from a pipe: read once, never sought."""

    def seekable(self) -> bool:
        return False


def test_a_backup_streamed_out_and_back_in_is_checked_and_restored(
    small_site: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out))
    call_command("backup", output="-", stderr=io.StringIO())
    streamed = out.getvalue()
    assert unpack(streamed).trailer["signed_with"] == key_id(the_tests_key())
    before = snapshot()
    changed_since(small_site)

    for damaged in (streamed[:-40], with_trailer(*one_more_superuser(streamed))):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Pipe(damaged)))
        with pytest.raises(CommandError, match="damaged and was not restored"):
            call_command("restore", "-", replace=True, stdout=io.StringIO())
    assert Player.objects.get(pk=small_site.pk).name == "Renamed after the backup"

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Pipe(streamed)))
    call_command("restore", "-", replace=True, stdout=io.StringIO())
    assert snapshot() == before
