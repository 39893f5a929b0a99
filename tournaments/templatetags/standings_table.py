"""The standings page's table, a line of plain strings per player, made in one pass.

For a field of 256 the table's template lookups were most of the page's time
(docs/benchmarks.md, "Championship pages"): ``row.entry.player.name`` is three
attribute lookups, each after a failed dictionary lookup, every number is
localized, and ``{% url %}`` resolves the entry page's address again for each
line. A ``StandingsLine`` unpacked by the template's loop is one lookup a cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from django import template
from django.urls import reverse

from tournaments.bridge import StandingRow
from tournaments.models import Tournament

register = template.Library()


class StandingsLine(NamedTuple):
    """A line of the standings table as printed; the numbers as the page shows them."""

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


@register.simple_tag
def standings_lines(tournament: Tournament, rows: Sequence[StandingRow]) -> list[StandingsLine]:
    """The lines of ``rows``, each with the address of the player's page in ``tournament``."""
    # Entry pages' addresses differ only in the id at their end: resolve one, swap the id.
    head, _zero, tail = reverse("tournaments:entry", args=[tournament.slug, 0]).rpartition("0")
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
                spread=str(standing.spread),
                buchholz=str(standing.buchholz),
            )
        )
    return lines
