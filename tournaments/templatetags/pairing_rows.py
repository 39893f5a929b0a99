"""``{% pairing_rows %}``: a round's pairings, each match's row kept by the match's own version.

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
"""

from __future__ import annotations

import hashlib
from typing import Any

from django import template
from django.core.cache import cache
from django.template.loader import get_template
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from tournaments import selectors
from tournaments.models import Round, Tournament
from tournaments.selectors import MatchVersion
from tournaments.templatetags.standings_table import expected_percents, pairing_lines

register = template.Library()

KEEP_SECONDS = 24 * 60 * 60
ROW_TEMPLATE = "tournaments/round_detail.html#pairing_row"


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


@register.simple_tag
def pairing_rows(
    tournament: Tournament, round_: Round, earlier: str, mine: int | None, organiser: bool
) -> SafeString:
    """The ``<tr>`` of each match of ``round_``, in table order; ``earlier``: the version of
    the rounds before it (``selectors.RoundVersions``); ``mine``: the reader's match."""
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
    if missing:
        rows = _rows(tournament, round_, missing, earlier)
        names = selectors.round_player_names(round_)
        row = get_template(ROW_TEMPLATE)
        drawn = {
            keys[line.match_id]: row.render({"line": line, "mine": line.match_id == mine})
            for line in pairing_lines(tournament, rows, names=names, expected=expected)
        }
        cache.set_many(drawn, KEEP_SECONDS)
        kept.update(drawn)
    return SafeString("".join(kept.get(keys[m.pk], "") for m in matches))
