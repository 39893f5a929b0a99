"""``manage.py backup`` and ``manage.py restore`` (ops/backup.py, docs/operating.md).

A *snapshot* is every row of every table a backup keeps, the many-to-many tables
included, as plain values; a reference to a content type or a permission is written as
its natural key, since a fresh database numbers those as it likes.
"""

from __future__ import annotations

import datetime
import gzip
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import Group, Permission, User
from django.contrib.contenttypes.management import create_contenttypes
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.db import connection, models
from django.utils import timezone

from club.models import Player
from ratings.selectors import rating_list
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.ops.backup_files import pack, unpack

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {"contenttypes.contenttype", "auth.permission"}
"""Made by migrate in every database; rows refer to them by natural key."""
TRANSIENT = {"sessions", "axes"}

Snapshot = dict[str, list[tuple[Any, ...]]]


@pytest.fixture(autouse=True)
def content_types_forgotten() -> Iterator[None]:
    """A restore makes the content types anew with other ids; after the test's rollback
    the process must not remember those (the next test would write rows naming them)."""
    yield
    ContentType.objects.clear_cache()


def value(row: models.Model, field: models.Field[Any, Any]) -> Any:
    if field.is_relation and field.related_model in (ContentType, Permission):
        related = getattr(row, field.name)
        return related.natural_key() if related is not None else None
    return field.value_from_object(row)


def snapshot() -> Snapshot:
    taken: Snapshot = {}
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        if meta.label_lower in SKIPPED or meta.app_label in TRANSIENT:
            continue
        # A many-to-many table's rows are pairs; their own ids mean nothing and are not kept.
        fields = [
            field for field in meta.concrete_fields if not (meta.auto_created and field.primary_key)
        ]
        rows = model._base_manager.all()
        taken[meta.label] = sorted(tuple(value(row, field) for field in fields) for row in rows)
    return taken


def fresh_database() -> None:
    """Every table emptied, content types and permissions made again under new ids (as
    in a database migrated elsewhere)."""
    with connection.cursor() as cursor:
        for model in apps.get_models(include_auto_created=True):
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}")
    ContentType.objects.clear_cache()
    for config in reversed(list(apps.get_app_configs())):
        create_contenttypes(config, verbosity=0)
        create_permissions(config, verbosity=0)


def extras_beyond_the_demo() -> None:
    """What the demo lacks: permissions given by hand, the admin's log, a session."""
    organiser = User.objects.get(username="organiser")
    organiser.user_permissions.add(Permission.objects.get(codename="change_player"))
    group = Group.objects.get()
    group.permissions.add(Permission.objects.get(codename="view_tournament"))
    LogEntry.objects.create(
        user=organiser,
        content_type=ContentType.objects.get_for_model(Player),
        object_id="1",
        object_repr="Anna Berg",
        action_flag=ADDITION,
    )
    Session.objects.create(
        session_key="k" * 32,
        session_data="x",
        expire_date=timezone.now() + datetime.timedelta(days=1),
    )


@pytest.mark.django_db
def test_the_demo_backed_up_comes_back_row_for_row_in_a_fresh_database(
    demo: str, tmp_path: Path
) -> None:
    extras_beyond_the_demo()
    before, ratings = snapshot(), rating_list()
    assert len(ratings) >= 20
    content_type = ContentType.objects.get_for_model(Player).pk
    backup = tmp_path / "site.backup.gz"
    call_command("backup", output=str(backup), stdout=io.StringIO())

    fresh_database()
    assert ContentType.objects.get_for_model(Player).pk != content_type
    call_command("restore", str(backup), stdout=io.StringIO())

    after = snapshot()
    assert {label: len(rows) for label, rows in after.items()} == {
        label: len(rows) for label, rows in before.items()
    }
    assert after == before  # every value: ratings' floats, times to the microsecond, JSON
    assert rating_list() == ratings
    assert not Session.objects.exists()  # never in a backup
    newest = max(Player.objects.values_list("pk", flat=True))
    assert PlayerFactory.create().pk > newest  # ids go on after the restored ones


@pytest.fixture
def small_site(db: None) -> Player:
    OrganiserFactory.create(username="olle")
    user = UserFactory.create(username="anna")
    PlayerFactory.create_batch(3)
    return PlayerFactory.create(name="Anna Berg", user=user, invited_at=timezone.now())


@pytest.fixture
def backup(small_site: Player, tmp_path: Path) -> Path:
    path = tmp_path / "site.backup.gz"
    call_command("backup", output=str(path), stdout=io.StringIO())
    return path


def rewritten(backup: Path, change: Any) -> Path:
    """The backup with its header changed by ``change``, signed again (as if made so)."""
    unpacked = unpack(backup)
    change(unpacked.header)
    changed = backup.with_name("changed.backup.gz")
    changed.write_bytes(pack(unpacked.header, unpacked.rows))
    return changed


def test_a_database_with_data_is_refused_and_left_as_it_was(
    backup: Path, small_site: Player
) -> None:
    PlayerFactory.create(name="Added after the backup")
    before = snapshot()
    with pytest.raises(CommandError, match=r"not empty \(.*5 club\.Player.*--replace"):
        call_command("restore", str(backup))
    assert snapshot() == before


def test_replace_puts_the_backup_in_place_of_everything(backup: Path, small_site: Player) -> None:
    before = snapshot()
    Player.objects.filter(pk=small_site.pk).update(name="Renamed")
    PlayerFactory.create(name="Added after the backup")
    UserFactory.create(username="newcomer")
    Session.objects.create(session_key="k" * 32, session_data="x", expire_date=timezone.now())

    call_command("restore", str(backup), replace=True, stdout=io.StringIO())

    assert snapshot() == before
    assert Player.objects.get(pk=small_site.pk).name == "Anna Berg"
    assert not Session.objects.exists()  # nobody stays logged in as an account replaced


def test_a_backup_of_another_schema_is_refused_naming_the_migrations(
    backup: Path, small_site: Player
) -> None:
    latest: list[str] = []

    def other_schema(header: dict[str, Any]) -> None:
        *older, newest = header["schema"]["club"]
        latest.append(newest)
        header["schema"]["club"] = [*older, "0099_from_the_future"]

    before = snapshot()
    with pytest.raises(CommandError, match="another schema version") as refused:
        call_command("restore", str(rewritten(backup, other_schema)), replace=True)
    assert "only in the backup: club.0099_from_the_future" in str(refused.value)
    assert f"only in this database: club.{latest[0]}" in str(refused.value)
    assert snapshot() == before


def damaged_copies(backup: Path) -> dict[str, bytes]:
    whole = backup.read_bytes()
    header, rows = unpack(backup).header, unpack(backup).rows

    def packed(rows: str, **more: int) -> bytes:
        """Rows that do not fit, in a file signed as if the site had made it so."""
        counted = {**header, "rows": {**header["rows"]}}
        for label, extra in more.items():
            counted["rows"][label.replace("_", ".")] += extra
        return pack(counted, rows)

    dangling = {
        "model": "ratings.ratingperiod",
        "pk": 1,
        "fields": {"round": 999, "position": 1, "date": "2025-03-09", "matches": 1},
    }
    return {
        "empty": b"",
        "random bytes": os.urandom(2000),
        "gzip of text": gzip.compress(b"hello, world\n"),
        "a dumpdata fixture": gzip.compress(b'[{"model": "club.player", "pk": 1}]'),
        "cut short": whole[: len(whole) * 2 // 3],
        "a row missing": packed(rows.split("\n", 1)[1]),
        "a row too many": packed(rows + rows.split("\n", 1)[0] + "\n"),
        "a row that is not JSON": packed(rows + "{nope\n"),
        "a reference to no row": packed(rows + json.dumps(dangling) + "\n", ratings_RatingPeriod=1),
        "a reference to no account": packed(rows.replace('"user": ["anna"]', '"user": ["nobody"]')),
        "a row of a table never backed up": packed(
            rows + '{"model": "sessions.session", "pk": "k", "fields": {}}\n'
        ),
    }


DAMAGES = [
    "empty",
    "random bytes",
    "gzip of text",
    "a dumpdata fixture",
    "cut short",
    "a row missing",
    "a row too many",
    "a row that is not JSON",
    "a reference to no row",
    "a reference to no account",
    "a row of a table never backed up",
]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_file_that_is_not_a_whole_backup_is_refused_and_changes_nothing(
    backup: Path, small_site: Player, damage: str
) -> None:
    damaged = backup.with_name("damaged.gz")
    damaged.write_bytes(damaged_copies(backup)[damage])
    PlayerFactory.create(name="Added after the backup")
    before = snapshot()
    with pytest.raises(CommandError, match="not a backup|damaged and was not restored"):
        call_command("restore", str(damaged), replace=True)
    assert snapshot() == before


def test_a_missing_file_is_named(db: None, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="Cannot read .*nowhere.gz"):
        call_command("restore", str(tmp_path / "nowhere.gz"))


def test_a_backup_names_what_it_holds_and_where_it_was_made(backup: Path) -> None:
    with gzip.open(backup, "rt", encoding="utf-8") as text:
        header = json.loads(text.readline())
    assert header["vendor"] == connection.vendor
    assert header["rows"]["club.Player"] == 4
    assert header["rows"]["auth.User"] == 2
    assert "0001_initial" in header["schema"]["tournaments"]
    assert not backup.with_name(f".{backup.name}.partial").exists()
    assert backup.stat().st_mode & 0o777 == 0o600  # password hashes: the owner's alone


# -- Between SQLite and PostgreSQL ---------------------------------------------------------

MAKE_A_SITE = """
import datetime
import django
django.setup()
from django.core.management import call_command
from demo.club import seed_club
from demo.play import seed_online_games, seed_practice_games
from ratings.models import ListRating, RatingPeriod
from club.models import Player
seed_club(); seed_practice_games(); seed_online_games()
period = RatingPeriod.objects.create(
    month=datetime.date(2025, 3, 1), position=1, date=datetime.date(2025, 3, 9), matches=1
)
for player, rating in zip(Player.objects.order_by("pk")[:3], (1500.1234567890123, 1e-7, 2**0.5)):
    ListRating.objects.create(
        player=player, period=period, rating=rating, deviation=rating + 1 / 3,
        volatility=0.059999675372338144, matches=1, wins=0,
    )
"""


def site_on_sqlite(folder: Path, *commands: list[str], script: str = "") -> None:
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": f"sqlite:///{folder / 'club.sqlite3'}",
    }
    folder.mkdir()
    run = [[sys.executable, "manage.py", "migrate", "-v0"]]
    run += [[sys.executable, "-c", script]] if script else []
    run += [[sys.executable, "manage.py", *command] for command in commands]
    for argv in run:
        subprocess.run(argv, env=environment, cwd=ROOT, check=True, capture_output=True)


def rows_of(backup: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in unpack(backup).rows.splitlines()]
    return sorted(rows, key=lambda row: (row["model"], str(row["pk"])))


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_backup_goes_from_sqlite_to_postgresql_and_back_unchanged(tmp_path: Path) -> None:
    made_on_sqlite, made_on_postgresql, back_on_sqlite = (
        tmp_path / name for name in ("sqlite.gz", "postgresql.gz", "again.gz")
    )
    site_on_sqlite(
        tmp_path / "first", ["backup", "--output", str(made_on_sqlite)], script=MAKE_A_SITE
    )

    call_command("restore", str(made_on_sqlite), stdout=io.StringIO())
    call_command("backup", output=str(made_on_postgresql), stdout=io.StringIO())
    site_on_sqlite(
        tmp_path / "second",
        ["restore", str(made_on_postgresql)],
        ["backup", "--output", str(back_on_sqlite)],
    )

    rows = rows_of(made_on_sqlite)
    assert len(rows) > 30
    assert rows == rows_of(made_on_postgresql) == rows_of(back_on_sqlite)
