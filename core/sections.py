"""Sections of a page that apps above the page's own app contribute, fetched by its view.

A *place* is a spot on a page that apps above it fill: the home page (``"home"``, and
``"home-top"`` above its cards), a member's page in the register (``"player"``), a
tournament match's page (``"tournament-match"``) and a tournament's facts
(``"tournament-facts"``). The page's app cannot import those apps (README, "Map of the
code"), and a template tag that asked them would query from inside the template; so the
setting ``PAGE_SECTIONS`` names, for each place, the dotted paths of the functions that
fill it, as Django names its backends, and the view asks them all, once, before the page
is drawn (``sections``).

A *section maker* takes the request and what the page is about (``player=``,
``match=``, ``tournament=``, as keywords), reads what its section shows and returns a
``Section``: the template it is drawn with and that context, or None when it shows
nothing. A section is drawn alone, as an inclusion tag draws its template: with its own
context and the request's CSRF token, nothing else of the page's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import get_template
from django.utils.module_loading import import_string
from django.utils.safestring import SafeString


@dataclass(frozen=True)
class Section:
    """What a section shows: ``template`` drawn with ``context``; ``csrf``: it holds a form."""

    template: str
    context: Mapping[str, Any] = field(default_factory=dict)
    csrf: bool = False


SectionMaker = Callable[..., Section | None]


def sections(place: str, request: HttpRequest, **about: Any) -> list[SafeString]:
    """The sections of ``place`` for ``request``, drawn, in the order the setting names them."""
    drawn = []
    for make in _makers(place):
        section = make(request, **about)
        if section is not None:
            drawn.append(_draw(section, request))
    return drawn


def _draw(section: Section, request: HttpRequest) -> SafeString:
    context = dict(section.context)
    if section.csrf:
        context["csrf_token"] = get_token(request)
    return SafeString(get_template(section.template).render(context))


def _makers(place: str) -> list[SectionMaker]:
    places: Mapping[str, list[str]] = getattr(settings, "PAGE_SECTIONS", {})
    return [_loaded(path) for path in places.get(place, [])]


@functools.cache
def _loaded(path: str) -> SectionMaker:
    maker: SectionMaker = import_string(path)
    return maker
