"""The printed documents as PDF responses, beside the pages they print.

A proposed round's documents are 404 for everyone but the organisers, like its
page; the login slips are the organisers' alone (every player's private link);
everything else is public. The PDF is in the reader's language, and the private
links on it use the scheme and host the reader reached the site by.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from club.roles import organiser_required
from tournaments import selectors
from tournaments.models import Round, Tournament
from tournaments.printing import documents, links
from tournaments.printing.documents import Document
from tournaments.views.common import get_round, get_tournament


def pdf_response(document: Document) -> HttpResponse:
    response = HttpResponse(documents.render_pdf(document), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{document.filename}"'
    return response


@require_safe
def pairings_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = get_round(get_tournament(slug), number, request)
    return pdf_response(documents.pairings(round_))


@require_safe
def scoresheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    round_ = get_round(get_tournament(slug), number, request)
    per_page = request.GET.get("per_page", "2")
    if per_page not in {str(n) for n in documents.SCORE_SHEETS_PER_PAGE}:
        raise Http404
    base_url = links.base_url_of(request)
    return pdf_response(documents.scoresheets(round_, per_page=int(per_page), base_url=base_url))


def _swiss_rounds(tournament: Tournament) -> list[Round]:
    return list(selectors.published_rounds(tournament).filter(kind=Round.Kind.SWISS))


@require_safe
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """After the latest published Swiss round, or ``?round=n`` (404 if not published)."""
    tournament = get_tournament(slug)
    rounds = _swiss_rounds(tournament)
    wanted = request.GET.get("round")
    if wanted is None:
        round_ = rounds[-1] if rounds else None
    else:
        round_ = next((r for r in rounds if str(r.number) == wanted), None)
        if round_ is None:
            raise Http404
    return pdf_response(documents.standings(tournament, round_))


@require_safe
def crosstable_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    return pdf_response(documents.crosstable(tournament, _swiss_rounds(tournament)))


@require_safe
def playoff_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    if not tournament.playoff_size:
        raise Http404
    return pdf_response(documents.playoff(tournament))


@organiser_required
@require_safe
def slips_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    return pdf_response(documents.slips(tournament, base_url=links.base_url_of(request)))
