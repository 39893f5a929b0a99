"""PDF renders as tasks: a worker lays a document out, web requests only read the result.

A *render order* names a document by what the worker needs to build it again: a
*builder* (the dotted path of a function answering a ``Document``) and its arguments,
plain JSON (ids, numbers, the host printed in the links), plus the reader's language.
The worker keeps the PDF under the key the request computed (``printing.cache``); the
builder reads the database when the task runs, so a PDF kept under a version is never
older than that version (at most newer, if a result came in meanwhile).

A worker (``manage.py db_worker``) runs one task at a time, so a worker process renders
at most one PDF at a time; web requests never render (docs/operating.md, "PDFs, rendered
by the worker").
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.utils import translation
from django.utils.module_loading import import_string
from django_tasks import task

from tournaments import selectors
from tournaments.models import Round, Tournament
from tournaments.printing import documents
from tournaments.printing.documents import Document
from tournaments.printing.state import KEEP_SECONDS, Rendered, render_failed, render_finished

logger = logging.getLogger(__name__)

JSON = str | int | None


@task()
def render_pdf(*, key: str, builder: str, arguments: dict[str, JSON], language: str) -> None:
    """Render the document ``builder(**arguments)`` in ``language`` and keep it at ``key``."""
    if cache.get(key) is not None:  # queued twice (an old marker ran out): once is enough
        render_finished(key)
        return
    try:
        with translation.override(language):
            document: Document = import_string(builder)(**arguments)
            rendered = Rendered(document.filename, documents.render_pdf(document))
    except Exception:
        logger.exception("Rendering %s(%r) failed", builder, arguments)
        render_failed(key)
        raise
    cache.set(key, rendered, KEEP_SECONDS)
    render_finished(key)


# The builders: a document from ids, as a task receives them.


def _round(round_id: int) -> Round:
    return Round.objects.select_related("tournament").get(pk=round_id)


def pairings(*, round_id: int) -> Document:
    return documents.pairings(_round(round_id))


def scoresheets(*, round_id: int, per_page: int, base_url: str) -> Document:
    return documents.scoresheets(_round(round_id), per_page=per_page, base_url=base_url)


def standings(*, tournament_id: int, round_id: int | None) -> Document:
    tournament = Tournament.objects.get(pk=tournament_id)
    return documents.standings(tournament, None if round_id is None else _round(round_id))


def crosstable(*, tournament_id: int) -> Document:
    tournament = Tournament.objects.get(pk=tournament_id)
    return documents.crosstable(tournament, selectors.published_swiss_rounds(tournament))


def playoff(*, tournament_id: int) -> Document:
    return documents.playoff(Tournament.objects.get(pk=tournament_id))


def slips(*, tournament_id: int, base_url: str) -> Document:
    tournament = Tournament.objects.get(pk=tournament_id)
    return documents.slips(tournament, base_url=base_url)
