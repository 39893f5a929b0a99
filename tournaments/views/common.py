"""What every tournament page needs: finding the tournament and round, full page or partial,
and for organisers' actions: asking before an action that cannot be undone (a service runs
with its message through ``core.errors.run_service``).

An action that cannot be undone first answers with a *question*: a page saying what
will happen, whose "Yes" button posts the same form again with ``confirm=1``.
Nothing changes until then, with or without JavaScript.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from club.roles import is_organiser
from core.http import HtmxHttpRequest
from tournaments import selectors
from tournaments.models import Round, Tournament


def get_tournament(slug: str, request: HttpRequest | None = None) -> Tournament:
    """The tournament ``slug`` or 404; loaded once per ``request`` when it is given.

    A page's conditional GET (``views.conditional``) loads the tournament for its
    validators; the view then finds it on the request instead of loading it again.
    """
    loaded = getattr(request, "_tournament", None)
    if isinstance(loaded, Tournament) and loaded.slug == slug:
        return loaded
    # The champion (two joins, a millisecond on every page) is loaded by the pages that
    # show one, when there is one.
    tournament = get_object_or_404(Tournament, slug=slug)
    if request is not None:
        request._tournament = tournament  # type: ignore[attr-defined]
    return tournament


def round_versions_of(
    request: HttpRequest, tournament: Tournament, number: int
) -> selectors.RoundVersions:
    """Round ``number``'s versions (``selectors.round_versions``), read once per request:
    the conditional GET's validators and the page's cached table key on the same."""
    loaded = getattr(request, "_round_versions", None)
    if loaded is not None and loaded[0] == (tournament.pk, number):
        return cast(selectors.RoundVersions, loaded[1])
    versions = selectors.round_versions(tournament, number)
    request._round_versions = ((tournament.pk, number), versions)  # type: ignore[attr-defined]
    return versions


def get_round(tournament: Tournament, number: int, request: HttpRequest) -> Round:
    """A round by number; a proposal is only for organisers' eyes."""
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    if round_.status == Round.Status.PROPOSED and not is_organiser(request.user):
        raise Http404
    return round_


def live(
    request: HtmxHttpRequest, template: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    """The whole page, or only its live partial when htmx asks for it."""
    if request.htmx:
        return render(request, f"{template}#{partial}", context)
    return render(request, template, context)


@dataclass(frozen=True)
class Question:
    """What an irreversible action will do, asked before it is done."""

    title: str
    consequences: list[str]
    yes: str
    cancel_url: str
    fields: dict[str, str] = field(default_factory=dict)


def confirmed(request: HttpRequest) -> bool:
    return request.POST.get("confirm") == "1"


def ask(request: HttpRequest, tournament: Tournament, question: Question) -> HttpResponse:
    context = {"tournament": tournament, "question": question}
    return render(request, "tournaments/confirm.html", context)
