"""The rating list's pages: the list (filtered by club) and its printed copy."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from club.roles import is_organiser
from printing.cache import cache_key, pdf_response
from ratings.printing import RATING_LIST, listed, rating_list_title
from ratings.selectors import (
    PROVISIONAL_DEVIATION,
    clubs_on_list,
    last_tournament,
    list_updating,
    list_version,
    rating_list,
)


def _club(request: HttpRequest, clubs: list[str]) -> str | None:
    """The club asked for, if it has members on the list (anything else: the whole list)."""
    club = request.GET.get("club", "")
    return club if club in clubs else None


@require_safe
def rating_list_page(request: HttpRequest) -> HttpResponse:
    clubs = clubs_on_list()
    club = _club(request, clubs)
    last = last_tournament()
    context = {
        "rows": listed(rating_list(club=club), last),
        "clubs": clubs,
        "club": club,
        "last": last,
        "updating": list_updating(),
        "provisional_deviation": round(PROVISIONAL_DEVIATION),
    }
    return render(request, "ratings/list.html", context)


@require_safe
def rating_list_pdf(request: HttpRequest) -> HttpResponse:
    club = _club(request, clubs_on_list())
    key = cache_key("ratings", club or "", version=str(list_version()))
    title = rating_list_title(club)
    return pdf_response(request, key, RATING_LIST, title=title, exempt=is_organiser, club=club)
