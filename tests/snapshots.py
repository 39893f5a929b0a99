"""Rows made once and inserted again into each test that needs them.

Some tests need costly data: the demo (``seed_demo`` plays championships, tens of
seconds), a tournament played over rounds. ``snapshot(build)`` runs ``build`` once in a
transaction that is rolled back, keeping the rows it added, as the database takes
them; ``restore`` inserts those rows into a test's database in a fraction of a second.
A session- or module-scoped fixture makes the snapshot (under
``django_db_blocker.unblock()``), a test's fixture restores it.

Like a test, ``build`` runs inside a transaction that is never committed, so
``on_commit`` work does not run; rows that existed before ``build`` (those migrations
make) are left out, as are rows it changed or deleted: ``build`` should only add.
On PostgreSQL the sequences of ids are set after the restored rows (SQLite does so
itself).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, models, transaction

from ops import outbox

T = TypeVar("T")


@dataclass(frozen=True)
class Table:
    name: str
    columns: list[str]
    rows: list[list[Any]]


@dataclass(frozen=True)
class Rows(Generic[T]):
    """The rows ``build`` added, table by table, and what ``build`` returned."""

    tables: list[Table]
    models: list[type[models.Model]]  # those whose tables have rows, for their sequences
    value: T


def _rows_of(model: type[models.Model]) -> dict[Any, list[Any]]:
    """Each row of ``model``'s table by primary key, its values as the database takes them."""
    fields = model._meta.concrete_fields
    pk = model._meta.pk
    assert pk is not None
    prepared = {}
    for row in model._base_manager.values(*[field.attname for field in fields]):
        values = [field.get_db_prep_save(row[field.attname], connection) for field in fields]
        prepared[row[pk.attname]] = values
    return prepared


class _RolledBack(Exception):
    pass


def snapshot(build: Callable[[], T]) -> Rows[T]:
    """``build()`` run in a transaction rolled back after the rows it added are read (and
    those its announcements made)."""
    tables = [model for model in apps.get_models(include_auto_created=True) if model._meta.managed]
    found: list[Table] = []
    seeded: list[type[models.Model]] = []
    value: list[T] = []
    try:
        with transaction.atomic():
            before = {model: set(_rows_of(model)) for model in tables}
            value.append(build())
            # What it announced, delivered as its commit would (tests/commits.py).
            outbox.deliver()
            for model in tables:
                new = [row for pk, row in _rows_of(model).items() if pk not in before[model]]
                if new:
                    columns = [str(field.column) for field in model._meta.concrete_fields]
                    found.append(Table(model._meta.db_table, columns, new))
                    seeded.append(model)
            raise _RolledBack
    except _RolledBack:
        pass
    return Rows(found, seeded, value[0])


def restore(rows: Rows[T]) -> T:
    """Inserts ``rows`` in one transaction (foreign keys are checked at its end); their value."""
    quote = connection.ops.quote_name
    with transaction.atomic(), connection.cursor() as cursor:
        for table in rows.tables:
            names = ", ".join(quote(column) for column in table.columns)
            marks = ", ".join(["%s"] * len(table.columns))
            cursor.executemany(
                f"INSERT INTO {quote(table.name)} ({names}) VALUES ({marks})",  # noqa: S608
                table.rows,
            )
        for statement in connection.ops.sequence_reset_sql(no_style(), rows.models):
            cursor.execute(statement)
    return rows.value
