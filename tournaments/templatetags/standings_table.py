"""The standings table, a line of plain strings per player, made in one pass (a round's
pairings are made the same way: ``tournaments.pairing_table``).

For a field of 256 the table's template lookups were most of the page's time
(docs/benchmarks.md, "Championship pages"): ``row.entry.player.name`` is three
attribute lookups, each after a failed dictionary lookup, every number is
localized, and ``{% url %}`` resolves the entry page's address again for each
line. A ``StandingsLine`` unpacked by the template's loop is one lookup a cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from django import template
from django.urls import reverse

from tournaments import tiebreaks

if TYPE_CHECKING:
    from tournaments.bridge import StandingRow
    from tournaments.models import Tournament

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


def _addressed(name: str, tournament: Tournament) -> tuple[str, str, str]:
    """A page's address split around its id, to be joined with any id (one reverse a table)."""
    return reverse(name, args=[tournament.slug, 0]).rpartition("0")
