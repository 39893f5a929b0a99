"""The tournament's documents built from ids, as a render task receives them.

Registered with ``printing.builders`` by ``TournamentsConfig.ready`` as
``tournaments.<function>`` (its ``DOCUMENTS``); the views name them when they ask for a PDF.
"""

from __future__ import annotations

from printing.documents import Document
from tournaments import selectors
from tournaments.models import Round, Tournament
from tournaments.printing import documents


def _round(round_id: int) -> Round:
    return Round.objects.select_related("tournament").get(pk=round_id)


def pairings(*, round_id: int) -> Document:
    return documents.pairings(_round(round_id))


def scoresheets(*, round_id: int, per_page: int, base_url: str) -> Document:
    return documents.scoresheets(_round(round_id), per_page=per_page, base_url=base_url)


def standings(*, tournament_id: int, round_id: int | None) -> Document:
    tournament = Tournament.objects.get(pk=tournament_id)
    return documents.standings(tournament, None if round_id is None else _round(round_id))


def crosstable(*, tournament_id: int) -> Document:
    tournament = Tournament.objects.get(pk=tournament_id)
    return documents.crosstable(tournament, selectors.published_swiss_rounds(tournament))


def playoff(*, tournament_id: int) -> Document:
    return documents.playoff(Tournament.objects.get(pk=tournament_id))


def slips(*, tournament_id: int, base_url: str) -> Document:
    tournament = Tournament.objects.get(pk=tournament_id)
    return documents.slips(tournament, base_url=base_url)


PAIRINGS = "tournaments.pairings"
SCORESHEETS = "tournaments.scoresheets"
STANDINGS = "tournaments.standings"
CROSSTABLE = "tournaments.crosstable"
PLAYOFF = "tournaments.playoff"
SLIPS = "tournaments.slips"
