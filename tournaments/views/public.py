"""Pages anyone can read: tournaments, rounds, standings, player histories, the bracket.

Pages of a round in play refresh their live part with htmx polling; the same
address without htmx gives the whole page, so everything works without JavaScript.
"""

from __future__ import annotations

from typing import Any, cast

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from club.roles import is_organiser
from core.http import HtmxHttpRequest
from core.sections import sections
from ops.status import desk_notice
from tournaments import selectors, spreadsheets, tiebreaks
from tournaments.access import actor_for
from tournaments.models import Round, Tournament
from tournaments.pairing_table import pairing_table
from tournaments.presenters import match_page_context, proposal_context, seeding_context
from tournaments.progress import progress
from tournaments.views.common import get_round, get_tournament, live, round_versions_of
from tournaments.views.conditional import (
    conditional,
    on_final_results,
    on_listing,
    on_match,
    on_round,
    on_tournament,
)


@require_safe
@conditional(on_listing)
def tournament_list(request: HttpRequest) -> HttpResponse:
    context = {
        "tournaments": selectors.tournaments_listed(),
        "championship": selectors.current_championship(),
        "champions": selectors.champions_by_year(),
    }
    return render(request, "tournaments/tournament_list.html", context)


@require_safe
@conditional(on_tournament)
def tournament_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug, request)
    rounds = selectors.rounds_of(tournament)
    organiser = is_organiser(request.user)
    visible = [r for r in rounds if r.status != Round.Status.PROPOSED or organiser]
    context = {
        "tournament": tournament,
        "rounds": visible,
        "entries": selectors.entries_listed(tournament),
        "my_table": selectors.my_table(tournament, actor_for(request, tournament)),
        "is_organiser": organiser,
        "desk": selectors.organiser_desk(tournament, rounds) if organiser else None,
        "machinery": desk_notice() if organiser else None,
        "playing": any(r.status == Round.Status.PLAYING for r in rounds),
    }
    if not request.htmx:  # the polled partial (the reader's table) shows neither
        context["progress"] = progress(tournament)
        context["facts"] = sections("tournament_facts", request, tournament=tournament)
    return live(request, "tournaments/tournament_detail.html", "mytable", context)


@require_safe
@conditional(on_round)
def round_detail(request: HtmxHttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_tournament(slug, request)
    round_ = get_round(tournament, number, request)
    organiser = is_organiser(request.user)
    attention = (
        selectors.needs_attention(round_)
        if organiser and round_.status == Round.Status.PLAYING
        else None
    )
    if request.htmx and request.htmx.target == "attention":
        # The organisers' panel polls on its own; the pairings need not be rebuilt for it.
        panel = {
            "tournament": tournament,
            "round": round_,
            "attention": attention,
            "attention_names": selectors.attention_names(attention or []),
            "machinery": desk_notice() if attention is not None else None,
        }
        return render(request, "tournaments/round_detail.html#attention", panel)
    versions = round_versions_of(request, tournament, number)
    my_table = selectors.my_table(tournament, actor_for(request, tournament))
    mine = my_table.match.pk if my_table is not None else None
    context: dict[str, Any] = {
        "tournament": tournament,
        "round": round_,
        # The cached table and each match's row key on these (``pairing_table``).
        "round_versions": versions,
        # Read only when the template's cached table is out of date.
        "pairings": SimpleLazyObject(
            lambda: pairing_table(
                tournament, round_, earlier=versions.earlier, mine=mine, organiser=organiser
            )
        ),
        "is_organiser": organiser,
        "attention": attention,
        "attention_names": selectors.attention_names(attention or []),
        "machinery": desk_notice() if attention is not None else None,
        "my_table": my_table,
        "round_count": selectors.round_count(tournament),
    }
    if round_.status == Round.Status.PROPOSED:
        context.update(proposal_context(round_))
    context.update(seeding_context(round_))
    return live(request, "tournaments/round_detail.html", "pairings", context)


def _through_round(request: HttpRequest, tournament: Tournament) -> tuple[int | None, list[Round]]:
    rounds = selectors.published_swiss_rounds(tournament)
    wanted = request.GET.get("round", "")
    if wanted.isascii() and wanted.isdigit() and any(r.number == int(wanted) for r in rounds):
        return int(wanted), rounds
    return (rounds[-1].number if rounds else None), rounds


@require_safe
@conditional(on_final_results)
def standings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug, request)
    through, rounds = _through_round(request, tournament)
    shown = next((r for r in rounds if r.number == through), None)
    context = {
        "tournament": tournament,
        "standings_version": selectors.standings_version(tournament),
        # Computed only when the template's cached table is out of date.
        "rows": SimpleLazyObject(
            lambda: selectors.standings(tournament, through_round=through) if through else []
        ),
        "rounds": rounds,
        "through": through,
        "preliminary": shown is not None and shown.status != Round.Status.CLOSED,
        "legend": tiebreaks.legend(tournament.tiebreaks),
        "live": shown is not None
        and shown.status == Round.Status.PLAYING
        and through == rounds[-1].number,
    }
    return live(request, "tournaments/standings.html", "table", context)


def _csv_response(filename: str) -> tuple[HttpResponse, spreadsheets.SpreadsheetWriter]:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # Split as the reader's spreadsheet program expects; no cell is run as a formula.
    return response, spreadsheets.writer(response, get_language())


@require_safe
@conditional(on_final_results)
def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug, request)
    through, _rounds = _through_round(request, tournament)
    response, writer = _csv_response(f"{tournament.slug}-standings.csv")
    writer.writerow(
        [
            _("Rank"),
            _("Player"),
            pgettext("table column", "Club"),
            _("Played"),
            _("Won"),
            _("Lost"),
            _("Byes"),
            tiebreaks.label("games_won"),
            _("Games lost"),
            tiebreaks.label("game_points"),
            tiebreaks.label("spread"),
            tiebreaks.label("buchholz"),
            _("Shared"),
        ]
    )
    for row in selectors.standings(tournament, through_round=through) if through else []:
        s = row.standing
        writer.writerow(
            [
                s.rank,
                row.entry.player.name,
                row.entry.player.club,
                s.played,
                s.match_wins,
                s.match_losses,
                s.byes,
                s.games_won,
                s.games_lost,
                s.game_points,
                s.spread,
                s.buchholz,
                _("yes") if s.shared else "",
            ]
        )
    return response


@require_safe
@conditional(on_tournament)
def results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug, request)
    response, writer = _csv_response(f"{tournament.slug}-results.csv")
    writer.writerow(
        [
            _("Round"),
            _("Table"),
            _("Player 1"),
            _("Player 2"),
            _("Status"),
            _("Winner"),
            _("Game"),
            _("First dealer"),
            _("Game winner"),
            _("Loser's score"),
        ]
    )
    for round_ in selectors.published_rounds(tournament):
        for match in selectors.round_matches(round_):
            seats = [s.entry.player.name for s in match.seats.all()]
            names = [*seats, ""][:2]
            winner = (
                seats[match.winner]
                if match.winner is not None and match.winner < len(seats)
                else ""
            )
            base = [
                round_.number,
                match.table or _("bye"),
                *names,
                match.get_status_display(),
                winner,
            ]
            games = list(match.games.all())
            if not games:
                writer.writerow([*base, "", "", "", ""])
            for game in games:
                writer.writerow(
                    [*base, game.number, seats[game.dealer], seats[game.winner], game.loser_score]
                )
    return response


@require_safe
@conditional(on_tournament)
def entry_detail(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = get_tournament(slug, request)
    entry = selectors.entry_of(tournament, entry_id)
    rows = {row.entry.pk: row for row in selectors.standings(tournament)}
    history = []
    for match in selectors.entry_history(entry):
        seats = list(match.seats.all())
        mine = next(s.seat for s in seats if s.entry_id == entry.pk)
        opponent = next((s.entry for s in seats if s.seat != mine), None)
        history.append({"match": match, "seat": mine, "opponent": opponent})
    context = {
        "tournament": tournament,
        "entry": entry,
        "row": rows.get(entry.pk),
        "history": history,
    }
    return render(request, "tournaments/entry_detail.html", context)


@require_safe
@conditional(on_match)
def match_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_tournament(slug, request)
    match = selectors.match_for_page(tournament, pk)
    if match.round.status == Round.Status.PROPOSED and not is_organiser(request.user):
        raise Http404
    context = match_page_context(request, tournament, match)
    return render(request, "tournaments/match_detail.html", context)


@require_safe
@conditional(on_tournament)
def playoff(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    tournament = get_tournament(slug, request)
    context = {
        "tournament": tournament,
        "bracket": selectors.bracket_rounds(tournament),
        "is_organiser": is_organiser(request.user),
    }
    return live(request, "tournaments/playoff.html", "bracket", context)


@require_safe
@conditional(on_tournament)
def game_record(request: HttpRequest, slug: str, pk: int, number: int) -> HttpResponse:
    """A game played on the site (by the simulator, say), deal by deal from its record."""
    tournament = get_tournament(slug, request)
    game = selectors.recorded_game(tournament, pk, number)
    record = cast(dict[str, Any], game.record)  # the selector finds only games with a record
    context = {
        "tournament": tournament,
        "game": game,
        "match": game.match,
        "record": record,
        "players": record.get("players", ["", ""]),
        "deals": [{**deal, "kept": _kept(deal)} for deal in record.get("deals", [])],
    }
    return render(request, "tournaments/game_record.html", context)


def _kept(deal: dict[str, Any]) -> list[list[str]]:
    """The four cards each player kept: dealt less laid away."""
    pairs = zip(deal.get("hands", []), deal.get("discards", []), strict=False)
    return [[card for card in hand if card not in thrown] for hand, thrown in pairs]
