"""The documents the render task can build, by name: filled in by the apps that own them.

A render waits on the queue as plain JSON (``tasks.render_pdf``), so it names its
document's *builder*, a function of JSON arguments (ids, numbers, a host) answering a
``documents.Document``, by a name such as ``"tournaments.pairings"``. Each app registers
its builders in its ``AppConfig.ready()``; printing imports none of them, and a task
can build nothing but a registered document.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from printing.documents import Document

JSON = str | int | None
Builder = Callable[..., Document]

_builders: dict[str, Builder] = {}


def register(builders: Mapping[str, Builder]) -> None:
    """Register each builder under its name; a name registered twice must be the same one."""
    for name, builder in builders.items():
        if _builders.get(name, builder) is not builder:
            raise ValueError(f"a document builder is already registered as {name!r}")
        _builders[name] = builder


def builder(name: str) -> Builder:
    """The builder registered as ``name``; LookupError if there is none."""
    try:
        return _builders[name]
    except KeyError:
        raise LookupError(f"no document builder is registered as {name!r}") from None
