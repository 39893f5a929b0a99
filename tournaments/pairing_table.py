"""A round's table of pairings as its page shows it, each match's row kept by the match's
own version: what the round's view reads for it, before the page is drawn.

While a round is played, reports come in one table at a time. The pairings table's
ETag and its cached copy follow the round's version, which any report in the round
moves; each row is kept in the cache under its match's version (``Match.version``), so a
report costs the render of its own row and the others are read back (docs/operating.md,
"Versions a page keys on"). A row's key also names:

- the tournament's setup version: names (told apart across the whole round), entries;
- the rounds before this one: the records shown beside each name;
- the reader's language, whether the row is the reader's own match (marked), and
  whether the reader is an organiser (their rows are never a spectator's, nor the reverse);
- for a match not played yet, its expected scores as the row shows them (from the rating
  list): a re-rate after a result draws again only the rows whose figures it changed.

``pairing_table`` reads, in a fixed number of queries whatever the round's size, the rows
kept and the lines of the others (``PairingLine``: plain strings, one lookup a cell);
``{% pairing_rows %}`` (``tournaments.templatetags.pairing_rows``) draws those lines and
keeps them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.core.cache import cache
from django.urls import reverse
from django.utils.translation import get_language

from scoring.rules.events import WINNING_SCORE
from tournaments import selectors
from tournaments.models import Match, Round, Tournament
from tournaments.ports import rating_list
from tournaments.selectors import MatchVersion


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


class RowToDraw(NamedTuple):
    """A row not in the cache: its key, its line, and whether it is the reader's match."""

    key: str
    line: PairingLine
    mine: bool


@dataclass(frozen=True)
class PairingTable:
    """A round's rows in table order: ``keys``, each row's cache key; ``kept``, the rows
    read back from the cache by key; ``to_draw``, the others, to be drawn and kept."""

    keys: list[str]
    kept: dict[str, str]
    to_draw: list[RowToDraw]


def pairing_table(
    tournament: Tournament, round_: Round, *, earlier: str, mine: int | None, organiser: bool
) -> PairingTable:
    """The rows of ``round_``'s pairings for this reader; ``earlier``: the version of the
    rounds before it (``selectors.RoundVersions``); ``mine``: the reader's match."""
    matches = selectors.round_match_versions(round_)
    setup = selectors.setup_version(tournament)
    unplayed = any(m.unplayed for m in matches)
    expected = expected_percents(selectors.unplayed_pairs(round_)) if unplayed else {}
    keys = {
        m.pk: row_key(
            m,
            setup=setup,
            earlier=earlier,
            mine=m.pk == mine,
            organiser=organiser,
            expected=expected.get(m.pk),
        )
        for m in matches
    }
    kept: dict[str, str] = cache.get_many(list(keys.values()))
    missing = [m.pk for m in matches if keys[m.pk] not in kept]
    to_draw = []
    if missing:
        rows = _rows(tournament, round_, missing, earlier)
        names = selectors.round_player_names(round_)
        to_draw = [
            RowToDraw(keys[line.match_id], line, line.match_id == mine)
            for line in pairing_lines(tournament, rows, names=names, expected=expected)
        ]
    return PairingTable(keys=[keys[m.pk] for m in matches], kept=kept, to_draw=to_draw)


def row_key(
    match: MatchVersion,
    *,
    setup: str,
    earlier: str,
    mine: bool,
    organiser: bool,
    expected: tuple[int, int] | None,
) -> str:
    parts = [
        match.version,
        setup,
        earlier,
        get_language() or "",
        "mine" if mine else "",
        "organiser" if organiser else "",
        str(expected) if match.unplayed else "",
    ]
    digest = hashlib.blake2b("|".join(parts).encode(), digest_size=16).hexdigest()
    return f"pairing-row:{digest}"


def _rows(
    tournament: Tournament, round_: Round, pks: list[int], earlier: str
) -> list[dict[str, Any]]:
    """The matches ``pks`` of the round with their players' records before it."""
    records = selectors.records_before(tournament, round_.number, earlier_version=earlier)
    return [
        {
            "match": match,
            "seats": [(seat, records.get(seat.entry_id)) for seat in match.seats.all()],
        }
        for match in selectors.round_matches(round_, only=pks)
    ]


def pairing_lines(
    tournament: Tournament,
    rows: Sequence[dict[str, Any]],
    *,
    names: Mapping[int, str],
    expected: Mapping[int, tuple[int, int]],
) -> list[PairingLine]:
    """The lines of some of a round's ``rows`` (``_rows``) as the page shows them;
    ``names``: the round's players' names told apart (``selectors.round_player_names``);
    ``expected``: the unplayed matches' expected scores (``expected_percents``)."""
    entry_head, _zero, entry_tail = _addressed("tournaments:entry", tournament)
    match_head, _zero, match_tail = _addressed("tournaments:match", tournament)
    watch_head, _zero, watch_tail = reverse("play:online_match", args=[0]).rpartition("0")
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
