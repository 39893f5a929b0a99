"""The printed documents as PDF responses, beside the pages they print.

A proposed round's documents are 404 for everyone but the organisers, like its
page; the login slips are the organisers' alone (every player's private link);
everything else is public. The score sheets carry no private link, for anyone: both
players share a sheet (docs/printing.md). The PDF is in the reader's language, and
the addresses on it use the scheme and host the reader reached the site by.

A rendered PDF is kept until the tournament changes (``printing.cache``, under the
key ``document_key`` makes) and the reader's browser asks again with its ETag
(``views.conditional``): a repeated download costs a cache read or a 304. A PDF not
rendered yet is rendered by a worker (``printing.tasks``, from ``builders``);
meanwhile the reader gets a page that says it is being prepared. A reader who starts
too many renders gets the 429 page; organisers are never limited.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from club.roles import is_organiser, organiser_required
from printing import cache
from printing.builders import JSON
from tournaments import selectors
from tournaments.models import Round, Tournament
from tournaments.printing import builders, documents, links
from tournaments.views.common import get_round, get_tournament
from tournaments.views.conditional import conditional, on_final_results, on_tournament


def document_key(
    kind: str, tournament: Tournament, *options: object, version: str | None = None
) -> str:
    """The document's cache key: its kind, the tournament, options and version.

    ``version``: what the document shows is at that version (``selectors.rounds_version``
    of the rounds it prints), which results in later rounds do not move; by default the
    tournament's, which every change moves.
    """
    return cache.cache_key(
        kind,
        tournament.pk,
        *options,
        version=version or f"{tournament.results_version}|{tournament.changed_at.isoformat()}",
    )


def pdf_response(
    request: HttpRequest, key: str, builder: str, *, title: str, **arguments: JSON
) -> HttpResponse:
    """The PDF at ``key``, or the page saying it is being prepared; organisers unlimited."""
    return cache.pdf_response(request, key, builder, title=title, exempt=is_organiser, **arguments)


def named(kind: str, tournament: Tournament, round_: Round | None = None) -> str:
    """Which document a page waits for: "Pairings · Round 3 · Swedish Championship 2026"."""
    parts = [kind, documents.round_name(round_)] if round_ is not None else [kind]
    return " · ".join([*parts, tournament.name])


def last_closed(rounds: list[Round]) -> Round | None:
    return next((r for r in reversed(rounds) if r.status == Round.Status.CLOSED), None)


@require_safe
@conditional(on_tournament)
def pairings_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_tournament(slug, request)
    round_ = get_round(tournament, number, request)
    key = document_key("pairings", tournament, round_.number)
    title = named(_("Pairings"), tournament, round_)
    return pdf_response(request, key, builders.PAIRINGS, title=title, round_id=round_.pk)


@require_safe
@conditional(on_tournament)
def scoresheets_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Everyone may print a round's sheets, the same for all: no private link is on them."""
    tournament = get_tournament(slug, request)
    round_ = get_round(tournament, number, request)
    per_page = request.GET.get("per_page", "2")
    if per_page not in {str(n) for n in documents.SCORE_SHEETS_PER_PAGE}:
        raise Http404
    base_url = links.base_url_of(request)  # of the match pages' addresses
    key = document_key("scoresheets", tournament, round_.number, per_page, base_url)
    return pdf_response(
        request,
        key,
        builders.SCORESHEETS,
        title=named(_("Score sheets"), tournament, round_),
        round_id=round_.pk,
        per_page=int(per_page),
        base_url=base_url,
    )


@require_safe
@conditional(on_final_results)
def standings_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    """After the last closed Swiss round (a wall copy is final), or ``?round=n`` (404 if
    not published: the round in play gives the preliminary standings)."""
    tournament = get_tournament(slug, request)
    rounds = selectors.published_swiss_rounds(tournament)
    wanted = request.GET.get("round")
    if wanted is None:
        round_ = last_closed(rounds)
    else:
        round_ = next((r for r in rounds if str(r.number) == wanted), None)
        if round_ is None:
            raise Http404
    if round_ is None:
        version = selectors.standings_version(tournament)
        key = document_key("standings", tournament, None, version=version)
    elif round_.status != Round.Status.CLOSED:
        # The preliminary standings of the round in play: its final results alone move them.
        version = selectors.standings_version(tournament)
        key = document_key("standings", tournament, round_.number, version=version)
    else:
        # After a round: later rounds' results do not change it (a wall copy of round
        # 8's standings stays cached while round 9 is reported).
        shown = [r for r in rounds if r.number <= round_.number]
        version = selectors.rounds_version(shown)
        key = document_key("standings", tournament, round_.number, version=version)
    return pdf_response(
        request,
        key,
        builders.STANDINGS,
        title=named(_("Standings"), tournament, round_),
        tournament_id=tournament.pk,
        round_id=None if round_ is None else round_.pk,
    )


@require_safe
@conditional(on_final_results)
def crosstable_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug, request)
    key = document_key("crosstable", tournament, version=selectors.standings_version(tournament))
    title = named(_("Crosstable"), tournament)
    return pdf_response(request, key, builders.CROSSTABLE, title=title, tournament_id=tournament.pk)


@require_safe
@conditional(on_tournament)
def playoff_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug, request)
    if not tournament.playoff_size:
        raise Http404
    key = document_key("playoff", tournament)
    title = named(_("Play-off"), tournament)
    return pdf_response(request, key, builders.PLAYOFF, title=title, tournament_id=tournament.pk)


@organiser_required
@require_safe
def slips_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug)
    base_url = links.base_url_of(request)
    key = document_key("slips", tournament, base_url)
    return pdf_response(
        request,
        key,
        builders.SLIPS,
        title=named(_("Login slips"), tournament),
        tournament_id=tournament.pk,
        base_url=base_url,
    )
