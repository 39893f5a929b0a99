"""The standings and pairings tables, a line of plain strings per player or match, made in one pass.

For a field of 256 the table's template lookups were most of the page's time
(docs/benchmarks.md, "Championship pages"): ``row.entry.player.name`` is three
attribute lookups, each after a failed dictionary lookup, every number is
localized, and ``{% url %}`` resolves the entry page's address again for each
line. A ``StandingsLine`` unpacked by the template's loop is one lookup a cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from django import template
from django.urls import reverse

from club.names import distinct_names
from scoring.rules.events import WINNING_SCORE
from tournaments import tiebreaks
from tournaments.bridge import StandingRow
from tournaments.models import Match, Tournament
from tournaments.ports import rating_list

register = template.Library()


# The figures the page shows after W-L, whatever the tournament's chain (the PDF follows it).
FIGURES = ("game_points", "spread", "buchholz")


class StandingsLine(NamedTuple):
    """A line of the standings table as printed; the numbers as the page shows them.

    Its last fields are the ``FIGURES``, in that order.
    """

    place: str
    url: str
    name: str
    club: str
    withdrawn: bool
    player_id: int
    record: str
    game_points: str
    spread: str
    buchholz: str


@register.filter
def name_of(names: dict[int, str], player_id: int) -> str:
    """A player's name as ``names`` (``club.names.distinct_names``) tells it apart."""
    return names.get(player_id, "")


@register.filter
def signed(value: int) -> str:
    """``{{ spread|signed }}``: a difference with its sign (``tiebreaks.signed``)."""
    return tiebreaks.signed(value)


@register.simple_tag
def standings_headings() -> list[str]:
    """The headings of the ``FIGURES`` columns: the tie-breaks' labels."""
    return [tiebreaks.label(key) for key in FIGURES]


@register.simple_tag
def standings_lines(tournament: Tournament, rows: Sequence[StandingRow]) -> list[StandingsLine]:
    """The lines of ``rows``, each with the address of the player's page in ``tournament``."""
    # Entry pages' addresses differ only in the id at their end: resolve one, swap the id.
    head, _zero, tail = _addressed("tournaments:entry", tournament)
    lines = []
    for row in rows:
        standing, entry = row.standing, row.entry
        lines.append(
            StandingsLine(
                place=standing.place,
                url=f"{head}{entry.pk}{tail}",
                name=entry.player.name,
                club=entry.player.club,
                withdrawn=entry.withdrawn,
                player_id=entry.player_id,
                record=standing.record,
                game_points=str(standing.game_points),
                spread=tiebreaks.signed(standing.spread),
                buchholz=str(standing.buchholz),
            )
        )
    return lines


class SeatCell(NamedTuple):
    url: str
    name: str
    record: str
    won: bool


class PairingLine(NamedTuple):
    """A line of a round's pairings table: plain strings and flags, one lookup a cell."""

    match_id: int
    disputed: bool
    table: str
    seats: list[SeatCell]
    bye: bool
    games: str
    url: str
    status: str
    watch: str
    """Where a spectator watches the match being played on the site, else empty."""
    expected: tuple[int, int] | None
    """While the match is unplayed: each seat's expected score from the ratings, in per
    cent (None: a bye, a match played, or two unrated players)."""


def pairing_lines(
    tournament: Tournament,
    rows: Sequence[dict[str, Any]],
    *,
    names: Mapping[int, str] | None = None,
    expected: Mapping[int, tuple[int, int]],
) -> list[PairingLine]:
    """The lines of some of a round's ``rows`` (``pairing_rows._rows``) as the page shows
    them; ``names``: the round's players' names told apart (else ``rows``' alone);
    ``expected``: the unplayed matches' expected scores (``expected_percents``)."""
    entry_head, _zero, entry_tail = _addressed("tournaments:entry", tournament)
    match_head, _zero, match_tail = _addressed("tournaments:match", tournament)
    watch_head, _zero, watch_tail = reverse("play:online_match", args=[0]).rpartition("0")
    if names is None:
        names = distinct_names(seat.entry.player for row in rows for seat, _record in row["seats"])
    lines = []
    for row in rows:
        match = row["match"]
        final = match.status == Match.Status.FINAL and not match.is_bye
        seats = [
            SeatCell(
                url=f"{entry_head}{seat.entry_id}{entry_tail}",
                name=names[seat.entry.player_id],
                record=record or "",
                won=final and match.winner == seat.seat,
            )
            for seat, record in row["seats"]
        ]
        games = ", ".join(
            f"{WINNING_SCORE}–{game.loser_score}"
            if game.winner == 0
            else f"{game.loser_score}–{WINNING_SCORE}"
            for game in match.games.all()
        )
        lines.append(
            PairingLine(
                match_id=match.pk,
                disputed=match.status == Match.Status.DISPUTED,
                table="–" if match.is_bye else str(match.table),
                seats=seats,
                bye=match.is_bye,
                games=games,
                url=f"{match_head}{match.pk}{match_tail}",
                status=str(match.get_status_display()),
                watch=f"{watch_head}{match.pk}{watch_tail}"
                if match.status == Match.Status.ONLINE
                else "",
                expected=expected.get(match.pk),
            )
        )
    return lines


def expected_percents(pairs: Mapping[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """Each match's expected scores from the ratings, in per cent as the page shows them,
    seat 0's first; ``pairs``: each match's player ids, seat 0's first."""
    chances = rating_list().expected_scores(pairs) if pairs else {}
    return {match: (round(100 * p), 100 - round(100 * p)) for match, p in chances.items()}


def _addressed(name: str, tournament: Tournament) -> tuple[str, str, str]:
    """A page's address split around its id, to be joined with any id (one reverse a table)."""
    return reverse(name, args=[tournament.slug, 0]).rpartition("0")
