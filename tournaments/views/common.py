"""What every tournament page needs: finding the tournament and round, full page or partial."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from club.roles import is_organiser
from tournaments.models import Round, Tournament


def get_tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("champion__player"), slug=slug)


def get_round(tournament: Tournament, number: int, request: HttpRequest) -> Round:
    """A round by number; a proposal is only for organisers' eyes."""
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    if round_.status == Round.Status.PROPOSED and not is_organiser(request.user):
        raise Http404
    return round_


def live(
    request: HttpRequest, template: str, partial: str, context: dict[str, Any]
) -> HttpResponse:
    """The whole page, or only its live partial when htmx asks for it."""
    if request.htmx:
        return render(request, f"{template}#{partial}", context)
    return render(request, template, context)
