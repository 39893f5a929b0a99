"""PDF renders as tasks: a worker lays a document out, web requests only read the result.

A *render order* names a document by what the worker needs to build it again: the
name of its *builder* (``builders``: a function answering a ``Document``, registered by
the app that owns the document) and its arguments, plain JSON (ids, numbers, the host
printed in the links), plus the reader's language. The worker keeps the PDF under the
key the request computed (``printing.cache``); the builder reads the database when the
task runs, so a PDF kept under a version is never older than that version (at most
newer, if a result came in meanwhile).

A worker (``manage.py db_worker``) runs one task at a time, so a worker process renders
at most one PDF at a time; web requests never render (docs/operating.md, "PDFs, rendered
by the worker").
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext_lazy
from django_tasks import task

from ops.status import label_task
from printing import builders, documents
from printing.builders import JSON
from printing.state import KEEP_SECONDS, Rendered, render_failed, render_finished

logger = logging.getLogger(__name__)


@task()
def render_pdf(*, key: str, builder: str, arguments: dict[str, JSON], language: str) -> None:
    """Render the document ``builder(**arguments)`` in ``language`` and keep it at ``key``."""
    if cache.get(key) is not None:  # queued twice (an old marker ran out): once is enough
        render_finished(key)
        return
    try:
        with translation.override(language):
            document = builders.builder(builder)(**arguments)
            rendered = Rendered(document.filename, documents.render_pdf(document))
    except Exception:
        logger.exception("Rendering %s(%r) failed", builder, arguments)
        render_failed(key)
        raise
    cache.set(key, rendered, KEEP_SECONDS)
    render_finished(key)


label_task(render_pdf, gettext_lazy("Rendering a PDF"))
