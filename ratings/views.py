"""The rating list's pages: the list (filtered by club) and its printed copy."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from ratings.printing import listed
from ratings.selectors import (
    PROVISIONAL_DEVIATION,
    clubs_on_list,
    last_tournament,
    list_updating,
    list_version,
    rating_list,
)
from tournaments.printing.cache import pdf_response


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
    parts = f"{list_version()}|{get_language()}|{club or ''}"
    key = f"pdf:ratings:{hashlib.blake2b(parts.encode(), digest_size=16).hexdigest()}"
    return pdf_response(request, key, "ratings.printing.rating_list_document", club=club)
