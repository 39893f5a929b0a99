"""A whole tournament as JSON, written out and read back (docs/tournament-json.md).

Writing out is ``export.py``. Reading back goes file -> data -> plan -> rows:
``reading.py`` turns the file's bytes into the export's JSON object (size,
encoding, nesting, strings), ``checking.py`` and ``matches.py`` check all of it
into an ``ImportPlan`` without writing anything (``fields.py`` has the readers
and the ``InvalidExport`` error, which names the path of the value at fault),
and ``writing.py`` saves the plan in one transaction.
"""

from tournaments.exchange.export import FORMAT, VERSION, export_tournament
from tournaments.exchange.fields import InvalidExport
from tournaments.exchange.reading import MAX_MEGABYTES, read_export, read_limited
from tournaments.exchange.writing import import_tournament

__all__ = [
    "FORMAT",
    "MAX_MEGABYTES",
    "VERSION",
    "InvalidExport",
    "export_tournament",
    "import_tournament",
    "read_export",
    "read_limited",
]
