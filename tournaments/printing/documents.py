"""What each printed document of a tournament shows (rendered by ``printing``).

Terms: a *document* is one printable thing: the pairings of a round, its score
sheets, the standings after a round, the crosstable, the play-off bracket or the
login slips. The standings, the crosstable and the bracket are *preliminary*
while the round they show is not closed (results may still change); the pairings
and score sheets of a round not yet published are a *proposal* (its tables may
still change): either says so in its title, in a banner and on every page. The
pairings and sheets of a published round are final documents, stamped neither.
The *find your table* list is the pairings by player name, in the reader's
alphabetical order (in Swedish å, ä and ö come after z). A *record* is a
player's W-L before the round (``selectors.records_before``). A *login slip* is a
player's private link on a slip of paper of their own: the QR code and the short
link to type (``links``), cut apart and handed to that player alone. A score sheet
lies on the table both players share, so it carries no private link: only the
address and QR code of the match's public page.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from club.names import distinct_names
from printing import fonts, qr, stamps
from printing.documents import Document
from tournaments import selectors, tiebreaks
from tournaments.models import Match, Round, Tournament
from tournaments.printing import grids, links, sheets

SCORE_SHEETS_PER_PAGE = (2, 4)
SLIPS_PER_PAGE = 8
SLIP_CODE_SIZE = 26  # mm
SLIP_LINK_ROOM = 93  # mm: the slip's width less its padding
SLIP_LINK_PT = 15  # the short link's size on a slip, unless it must be smaller to fit
# The figures the printed standings show even when the tie-break chain lacks them.
ALWAYS_SHOWN = ("game_points", "spread")
# Swedish sorts å, ä, ö (and æ, ø as ä, ö) after z, ü as y; other accents fold away.
_SWEDISH_LETTERS = str.maketrans({"å": "{", "ä": "|", "æ": "|", "ö": "}", "ø": "}", "ü": "y"})


@dataclass(frozen=True)
class SeatLine:
    name: str
    club: str
    record: str


@dataclass(frozen=True)
class TableLine:
    """A table of the pairings: two seats, or one for the bye (``table`` None)."""

    table: int | None
    seats: tuple[SeatLine, ...]


@dataclass(frozen=True)
class FinderLine:
    """A line of the find-your-table list: where a player sits and against whom."""

    name: str
    club: str
    table: int | None
    opponent: SeatLine | None
    label: str = ""
    """The name told apart from another player's of the same name (``club.names``), or ""
    when the name is the only one of its kind (the list shows it with the club)."""
    opponent_label: str = ""
    """The opponent's name as the list tells it (told apart like ``label``)."""


@dataclass(frozen=True)
class ScoreSheet:
    """A table's sheet: its players and the blank form of its match (``sheets.form``).

    ``match_page`` is the public address of the match and its QR code, drawn under the
    signature captions (the element with the id ``spot``); None when the sheets are
    printed without a base URL. ``form_spot`` is the id of the box the form is drawn in.
    """

    table: int | None
    spot: str
    seats: tuple[SeatLine, ...]
    match_page: links.PrintedLink | None
    form: sheets.Form
    form_spot: str

    @property
    def form_html(self) -> str:
        return self.form.html(self.form_spot)


@dataclass(frozen=True)
class Slip:
    """A player's login slip: who they are and their private link (None: revoked)."""

    name: str
    club: str
    link: links.PrintedLink | None


def name_key(name: str, language: str | None = None) -> tuple[str, str]:
    """How names sort in the reader's language: "Zetterlund" < "Åberg" < "Öhman" in Swedish."""
    folded = name.casefold()
    if (language or get_language() or "").startswith("sv"):
        folded = folded.translate(_SWEDISH_LETTERS)
    decomposed = unicodedata.normalize("NFKD", folded)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)), name


def round_name(round_: Round) -> str:
    if round_.kind == Round.Kind.PLAYOFF:
        return _("Round %(n)s (play-off)") % {"n": round_.number}
    return _("Round %(n)s") % {"n": round_.number}


def _title(*parts: str, preliminary: bool = False, proposal: bool = False) -> str:
    stamp = _("preliminary") if preliminary else _("proposal") if proposal else ""
    return " · ".join([*parts, stamp] if stamp else parts)


def _is_preliminary(round_: Round | None) -> bool:
    return round_ is not None and round_.status != Round.Status.CLOSED


def _is_proposal(round_: Round) -> bool:
    return round_.status == Round.Status.PROPOSED


def _round_document(
    round_: Round,
    kind: str,
    name: str,
    context: dict[str, Any],
    *,
    codes: tuple[qr.Code, ...] = (),
    marks: tuple[stamps.Stamp, ...] = (),
) -> Document:
    """A document of a round's tables (its pairings, its score sheets): never preliminary
    (it prints no result), a proposal while the round is one."""
    proposal = _is_proposal(round_)
    return Document(
        kind=kind,
        title=_title(name, round_name(round_), proposal=proposal),
        filename=f"{round_.tournament.slug}-round-{round_.number}-{kind}.pdf",
        preliminary=False,
        proposal=proposal,
        context={
            "tournament": round_.tournament,
            "round": round_,
            "round_name": round_name(round_),
            **context,
        },
        codes=codes,
        marks=marks,
    )


def _seat_lines(match: Match, records: dict[int, str]) -> tuple[SeatLine, ...]:
    return tuple(
        SeatLine(seat.entry.player.name, seat.entry.player.club, records.get(seat.entry_id, "0-0"))
        for seat in match.seats.all()
    )


def _codes(printed: Sequence[links.PrintedLink | None]) -> tuple[qr.Code, ...]:
    return tuple(link.code for link in printed if link is not None)


def pairings(round_: Round) -> Document:
    """The tables of a round in order, the bye last, then the find-your-table list."""
    tournament = round_.tournament
    records = selectors.records_before(tournament, round_.number)
    matches = selectors.round_matches(round_)
    tables = [
        TableLine(None if match.is_bye else match.table, _seat_lines(match, records))
        for match in matches
    ]
    players = [[seat.entry.player for seat in match.seats.all()] for match in matches]
    names = distinct_names(player for seated in players for player in seated)
    finder = []
    for line, seated in zip(tables, players, strict=True):
        for index, (seat, player) in enumerate(zip(line.seats, seated, strict=True)):
            across = next((i for i in range(len(seated)) if i != index), None)
            told = names[player.pk]
            finder.append(
                FinderLine(
                    seat.name,
                    seat.club,
                    line.table,
                    None if across is None else line.seats[across],
                    label=told if told != player.name else "",
                    opponent_label="" if across is None else names[seated[across].pk],
                )
            )
    finder.sort(key=lambda line: name_key(line.name))
    return _round_document(round_, "pairings", _("Pairings"), {"tables": tables, "finder": finder})


def sheet_spot(match: Match) -> str:
    """The id of a sheet's signature captions, under which the match page's code is drawn."""
    return f"links-{match.pk}"


def _match_page(
    match: Match, slug: str, base_url: str | None, layout: sheets.Layout
) -> links.PrintedLink | None:
    if base_url is None:
        return None
    return links.printed_match_page(match, slug, base_url, spot=sheet_spot(match), size=layout.code)


def scoresheets(round_: Round, *, per_page: int = 2, base_url: str | None) -> Document:
    """One sheet per table (the bye has none), ``per_page`` (2 or 4) to an A4 page.

    A sheet lies on the table both players share: it never carries a private link
    (either player could then report and confirm as the other). With a ``base_url``
    (scheme and host) it carries the address and QR code of the match's public page,
    where a player logged in or with their own link reports; with None, no address.
    """
    if per_page not in SCORE_SHEETS_PER_PAGE:
        raise ValueError(f"score sheets print 2 or 4 to a page, not {per_page}")
    tournament = round_.tournament
    records = selectors.records_before(tournament, round_.number)
    matches = [match for match in selectors.round_matches(round_) if not match.is_bye]
    forms = {
        best_of: sheets.form(tournament, best_of=best_of, per_page=per_page)
        for best_of in sorted({match.best_of for match in matches})
    }
    layout = sheets.LAYOUTS[per_page]
    printed = [
        ScoreSheet(
            match.table,
            sheet_spot(match),
            _seat_lines(match, records),
            _match_page(match, tournament.slug, base_url, layout),
            forms[match.best_of],
            f"sheet-form-{match.pk}",
        )
        for match in matches
    ]
    return _round_document(
        round_,
        "scoresheets",
        _("Score sheets"),
        {
            "forms": list(forms.values()),
            "pages": [printed[i : i + per_page] for i in range(0, len(printed), per_page)],
            "per_page": per_page,
            "layout": layout,
            "with_codes": base_url is not None,
        },
        codes=_codes([sheet.match_page for sheet in printed]),
        marks=tuple(stamps.Stamp(sheet.form.master, sheet.form_spot) for sheet in printed),
    )


def slips(tournament: Tournament, *, base_url: str) -> Document:
    """A login slip per entry not withdrawn, by name in the reader's alphabet, 8 to a page.

    The short link is as large as fits the slip's width, up to ``SLIP_LINK_PT``: all
    of a tournament's links have the same length, in a font whose letters all have
    the same width.
    """
    entries = tournament.entries.filter(withdrawn=False).select_related("player")
    printed = sorted(
        (
            Slip(
                entry.player.name,
                entry.player.club,
                links.printed_link(entry, base_url, spot=f"code-{entry.pk}", size=SLIP_CODE_SIZE),
            )
            for entry in entries
        ),
        key=lambda slip: name_key(slip.name),
    )
    longest = max((len(slip.link.short) for slip in printed if slip.link), default=1)
    fits = SLIP_LINK_ROOM * qr.POINTS_PER_MM / (longest * fonts.MONO_ADVANCE)
    return Document(
        kind="slips",
        title=_("Login slips"),
        filename=f"{tournament.slug}-slips.pdf",
        preliminary=False,
        context={
            "tournament": tournament,
            "pages": [
                printed[i : i + SLIPS_PER_PAGE] for i in range(0, len(printed), SLIPS_PER_PAGE)
            ],
            "code_size": SLIP_CODE_SIZE,
            "link_pt": min(SLIP_LINK_PT, fits),
        },
        codes=_codes([slip.link for slip in printed]),
    )


def standings_columns(chain: Sequence[str]) -> list[str]:
    """The number columns after W-L: the chain's, in its order, then game points and spread."""
    return tiebreaks.columns(chain, always=ALWAYS_SHOWN)


def standings(tournament: Tournament, round_: Round | None) -> Document:
    """The standings after ``round_`` (None: no round published yet), with the legend."""
    rows = selectors.standings(tournament, through_round=round_.number) if round_ else []
    columns = standings_columns(tournament.tiebreaks)
    lines = [
        {
            "row": row,
            "values": [tiebreaks.shown(key, getattr(row.standing, key)) for key in columns],
        }
        for row in rows
    ]
    preliminary = _is_preliminary(round_)
    after = _("After round %(n)s") % {"n": round_.number} if round_ else ""
    return Document(
        kind="standings",
        title=_title(*filter(None, [_("Standings"), after]), preliminary=preliminary),
        filename=f"{tournament.slug}-{f'round-{round_.number}-' if round_ else ''}standings.pdf",
        preliminary=preliminary,
        context={
            "tournament": tournament,
            "round": round_,
            "columns": [(key, tiebreaks.label(key)) for key in columns],
            "lines": lines,
            "legend": tiebreaks.legend(tournament.tiebreaks),
        },
    )


def crosstable(tournament: Tournament, rounds: Sequence[Round]) -> Document:
    """Who played whom in the published Swiss ``rounds``, rows in standings order."""
    latest = rounds[-1] if rounds else None
    preliminary = _is_preliminary(latest)
    return Document(
        kind="crosstable",
        title=_title(_("Crosstable"), preliminary=preliminary),
        filename=f"{tournament.slug}-crosstable.pdf",
        preliminary=preliminary,
        context={
            "tournament": tournament,
            "round": latest,
            "rounds": [round_.number for round_ in rounds],
            "rows": grids.crosstable(tournament, [round_.number for round_ in rounds]),
        },
        landscape=True,
    )


def playoff(tournament: Tournament) -> Document:
    """The play-off bracket as far as it is played, later rounds as empty boxes."""
    bracket = grids.bracket(tournament)
    preliminary = tournament.status == Tournament.Status.PLAYOFF
    return Document(
        kind="playoff",
        title=_title(_("Play-off"), preliminary=preliminary),
        filename=f"{tournament.slug}-playoff.pdf",
        preliminary=preliminary,
        context={"tournament": tournament, "bracket": bracket},
        landscape=True,
    )
