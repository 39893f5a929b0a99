"""The documents the render task can build, by name: filled in by the apps that own them.

A render waits on the queue as plain JSON (``tasks.render_pdf``), so it names its
document's *builder*, a function of JSON arguments (ids, numbers, a host) answering a
``documents.Document``, by a name such as ``"tournaments.pairings"``. Each app registers
its builders in its ``AppConfig.ready()``, each name with the dotted path of its
function, which is imported when the first such document is built: starting a process
loads none of the documents' code (nor the PDF libraries it imports). Printing imports
none of the apps, and a task can build nothing but a registered document.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from printing.documents import Document

JSON = str | int | None
Builder = Callable[..., "Document"]

_paths: dict[str, str] = {}


def register(builders: Mapping[str, str]) -> None:
    """Register each builder's dotted path under its name; a name keeps its first path."""
    for name, path in builders.items():
        if _paths.get(name, path) != path:
            raise ValueError(f"a document builder is already registered as {name!r}")
        _paths[name] = path


def builder(name: str) -> Builder:
    """The builder registered as ``name``; LookupError if there is none."""
    try:
        path = _paths[name]
    except KeyError:
        raise LookupError(f"no document builder is registered as {name!r}") from None
    found: Builder = import_string(path)
    return found
