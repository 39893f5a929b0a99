"""A backup of the whole site in one file, and its restore (docs/operating.md, Backups).

Terms:
- A *backup* is one gzip file of UTF-8 lines: first its *header* (a JSON object: the
  format, when and on which database it was made, the schema and the rows of each
  model), then one line per row, written by Django's JSON Lines serialiser, and last its
  *trailer* (``ops.backup_file``): the digest of every line before it, signed.
- The *schema* is the set of migrations applied to the database, per app. A backup
  restores only into a database at the same schema.
- The *kept* models are every concrete model of every installed app, so a new model
  or field is in the next backup without a change here, except those that ``migrate``
  makes itself (content types and permissions: rows point at them by their natural
  keys, so their ids may differ between databases) and the *transient* ones (sessions,
  login failures, the task queue), which are left out and emptied by a replacing restore.
- *Pending work* is what waited for the task worker when the backup was made, as the kept
  rows record it (a result waiting to be rated, an invitation mail waiting to be sent).
  The queue's own rows are not kept (their ids and workers' states mean nothing in
  another database): a restore queues each kind again from the rows, by the function
  ``settings.BACKUP_PENDING_WORK`` names for it, in the restore's own transaction.
- A restore *verifies* a file before it writes anything: the file is read once whole,
  its digest and signature checked (``ops.backup_file``), then read again into the
  database.

Rows are written and read by Django's serialisers, not by a database's own dump, so a
backup made on SQLite restores on PostgreSQL and the other way round. Floats are
written in Python's shortest exact form and times with their microseconds, so every
value comes back equal.
"""

from __future__ import annotations

import datetime
import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.core.management.color import no_style
from django.core.serializers import deserialize, jsonl, sort_dependencies
from django.core.serializers.base import DeserializationError, DeserializedObject
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DatabaseError, connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from django.utils.module_loading import import_string

from core.cache import clear_this_database
from ops.backup_file import (
    FORMAT,
    UNREADABLE,
    VERSION,
    BackupError,
    Contents,
    Header,
    Schema,
    Verified,
    backup_writer,
    verify,
)
from ops.backup_keys import Key, KeyProblem, signing_key, verifying_keys

MIGRATE_MAKES = frozenset({"contenttypes.contenttype", "auth.permission"})
TRANSIENT_APPS = frozenset({"sessions", "axes", "django_tasks_database"})
CHUNK = 500


@dataclass(frozen=True)
class Restored:
    """A restore done: the file's header, what was checked of it (``ops.backup_file``),
    and the pending work queued again, how many of each kind."""

    header: Header
    verified: Verified
    queued: dict[str, int]


class ExactEncoder(DjangoJSONEncoder):
    """Django's encoder keeps only the milliseconds of a time; a backup keeps them all."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


class RowWriter(jsonl.Serializer):
    """Django's JSON Lines serialiser, one ``json.dumps`` a row: its ``json.dump`` encodes
    a row piece by piece in Python, ten times slower for the game records."""

    def end_object(self, obj: models.Model) -> None:
        self.stream.write(json.dumps(self.get_dump_object(obj), **self.json_kwargs) + "\n")
        self._current = None


def _all_models() -> Iterator[type[models.Model]]:
    for model in apps.get_models(include_auto_created=True):
        if model._meta.managed and not model._meta.proxy:
            yield model


def kept_models() -> list[type[models.Model]]:
    """The models a backup holds, each after the models whose natural keys it refers to."""
    by_app: dict[str, list[type[models.Model]]] = {}
    for model in _all_models():
        meta = model._meta
        if meta.auto_created or meta.app_label in TRANSIENT_APPS:
            continue  # a many-to-many table is written with the row that owns it
        if meta.label_lower not in MIGRATE_MAKES:
            by_app.setdefault(meta.app_label, []).append(model)
    app_list = [(apps.get_app_config(label), found) for label, found in by_app.items()]
    return list(sort_dependencies(app_list))


def emptied_tables() -> list[str]:
    """The tables a replacing restore empties: the kept ones with their many-to-many
    tables, and the transient ones (a session must not outlive the account it names)."""
    return [
        model._meta.db_table
        for model in _all_models()
        if model._meta.label_lower not in MIGRATE_MAKES
    ]


def current_schema() -> Schema:
    """The migrations applied here, per installed app that a backup depends on."""
    labels = {config.label for config in apps.get_app_configs()} - TRANSIENT_APPS
    schema: Schema = {}
    for app_label, name in MigrationRecorder(connection).applied_migrations():
        if app_label in labels:
            schema.setdefault(app_label, []).append(name)
    return {label: sorted(names) for label, names in sorted(schema.items())}


def backup_signing_key() -> Key | None:
    """The key new backups are signed with (None: unsigned), or a BackupError."""
    try:
        return signing_key()
    except KeyProblem as problem:
        raise BackupError(str(problem)) from problem


def write_backup(stream: IO[bytes], *, key: Key | None) -> Header:
    """Write the whole site to ``stream`` as one consistent snapshot, signed with ``key``."""
    with _snapshot():
        kept = kept_models()
        header = Header(
            format=FORMAT,
            version=VERSION,
            created_at=timezone.now().isoformat(),
            vendor=connection.vendor,
            schema=current_schema(),
            rows={model._meta.label: model._base_manager.count() for model in kept},
        )
        with backup_writer(stream, header, key=key) as text:
            for model in kept:
                RowWriter().serialize(
                    _rows(model).iterator(chunk_size=CHUNK),
                    stream=text,
                    use_natural_foreign_keys=True,
                    cls=ExactEncoder,
                )
    return header


def _rows(model: type[models.Model]) -> models.QuerySet[models.Model]:
    """A model's rows in order, with the rows their natural keys are read from."""
    named = [
        field.name
        for field in model._meta.concrete_fields
        if field.is_relation and hasattr(field.related_model, "natural_key")
    ]
    return model._base_manager.select_related(*named).order_by("pk")


class _snapshot:
    """One transaction for the whole backup; on PostgreSQL a repeatable read, so rows
    written meanwhile are not half in it. (SQLite's transaction is a snapshot already.)"""

    def __enter__(self) -> None:
        starts = not connection.in_atomic_block
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        if starts and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def __exit__(self, *exc: Any) -> None:
        self._atomic.__exit__(*exc)


def schema_difference(backup: Schema, here: Schema) -> str:
    """What tells the two schemas apart, one migration a line; empty when they agree."""
    ours = {f"{app}.{name}" for app, names in here.items() for name in names}
    theirs = {f"{app}.{name}" for app, names in backup.items() for name in names}
    lines = [f"  only in the backup: {name}" for name in sorted(theirs - ours)]
    lines += [f"  only in this database: {name}" for name in sorted(ours - theirs)]
    return "\n".join(lines)


def restore_backup(
    stream: IO[bytes], *, replace: bool = False, trust_unsigned: bool = False
) -> Restored:
    """Restore the backup in ``stream``: all of it in one transaction, or nothing.

    The file is read whole and checked first (``ops.backup_file.verify``: whole, and
    signed with a key this site has, or only whole on ``trust_unsigned``), then read again
    into the database: nothing of a refused file is ever written.
    """
    try:
        keys = verifying_keys()
    except KeyProblem as problem:
        raise BackupError(str(problem)) from problem
    with _rereadable(stream) as source:
        start = source.tell()
        verified = verify(source, keys, trust_unsigned=trust_unsigned)
        _check_schema(verified.header)
        source.seek(start)
        queued: dict[str, int] = {}
        header = _put_in_place(Contents(source), verified, replace=replace, queued=queued)
    return Restored(header, verified, queued)


@contextmanager
def _rereadable(stream: IO[bytes]) -> Iterator[IO[bytes]]:
    """``stream``, or a private copy of it when it cannot be read twice (a pipe)."""
    if stream.seekable():
        yield stream
        return
    with tempfile.TemporaryFile() as copy:  # mode 600, and gone from the folder at once
        shutil.copyfileobj(stream, copy)
        copy.seek(0)
        yield copy


def queue_pending_work() -> dict[str, int]:
    """Queue again each kind of work that waited in the restored rows (the module's
    docstring); how many tasks of each kind were queued."""
    return {
        kind: int(import_string(queue)()) for kind, queue in settings.BACKUP_PENDING_WORK.items()
    }


def _put_in_place(
    contents: Contents, verified: Verified, *, replace: bool, queued: dict[str, int]
) -> Header:
    """The rows of the verified file in the database, in one transaction; the pending work
    queued in it (so the worker finds it once, and only if the restore commits) is
    counted into ``queued``."""
    header = contents.header()
    with transaction.atomic():
        _make_room(replace=replace)
        loaded = _load_rows(contents.rows())
        if not contents.whole() or contents.digest.hexdigest() != verified.sha256:
            raise BackupError("The backup was not restored: the file changed while it was read.")
        _check_rows(header, loaded)
        _check_references()
        _reset_sequences()
        queued.update(queue_pending_work())
        # Cached pages and PDFs are keyed by results versions that the restore may repeat.
        transaction.on_commit(clear_this_database)
    return header


def _check_schema(header: Header) -> None:
    difference = schema_difference(header.schema, current_schema())
    if difference:
        raise BackupError(
            "The backup was made at another schema version than this database's "
            f"(its migrations differ):\n{difference}\n"
            "Restore it with the version of the site that made it, into a database "
            "migrated by that version; then upgrade."
        )


def _make_room(*, replace: bool) -> None:
    held = {
        model._meta.label: count
        for model in kept_models()
        if (count := model._base_manager.count())
    }
    if held and not replace:
        listed = ", ".join(f"{count} {label}" for label, count in held.items())
        raise BackupError(
            f"This database is not empty ({listed}). Restore into an empty, migrated "
            "database, or give --replace to replace everything in it."
        )
    # Every foreign key is checked at commit (deferred), so the order does not matter.
    with connection.cursor() as cursor:
        for table in emptied_tables():
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")


def _load_rows(text: Iterable[str]) -> Counter[str]:
    kept = {model._meta.label for model in kept_models()}
    loaded: Counter[str] = Counter()
    waiting: list[DeserializedObject] = []
    try:
        for row in deserialize("jsonl", text, handle_forward_references=True):
            label = row.object._meta.label
            if label not in kept:
                raise BackupError(
                    f"The backup is damaged and was not restored: it holds rows of {label}, "
                    "which a backup never has."
                )
            row.save(force_insert=True)  # into empty tables: no UPDATE tried first
            loaded[label] += 1
            if row.deferred_fields:
                waiting.append(row)
        for row in waiting:
            row.save_deferred_fields()
    except (DeserializationError, ObjectDoesNotExist, DatabaseError, *UNREADABLE) as error:
        raise BackupError(f"The backup is damaged and was not restored: {error}") from error
    return loaded


def _check_rows(header: Header, loaded: Counter[str]) -> None:
    for label, count in header.rows.items():
        if loaded[label] != count:
            raise BackupError(
                f"The backup is damaged and was not restored: its header counts {count} "
                f"rows of {label}, the file holds {loaded[label]}."
            )


def _check_references() -> None:
    try:
        connection.check_constraints(table_names=emptied_tables())
    except DatabaseError as error:
        raise BackupError(f"The backup is damaged and was not restored: {error}") from error


def _reset_sequences() -> None:
    """New rows get ids after the restored ones (PostgreSQL; SQLite needs nothing)."""
    statements = connection.ops.sequence_reset_sql(no_style(), kept_models())
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
