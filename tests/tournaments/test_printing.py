"""The printed documents: valid PDFs whose text has every name, in order, with the figures.

Tournaments are built through the services; the PDFs are fetched as readers do and
read back with pypdf. The QR codes are read back from the PDF's drawing operators
into modules, and compared with the code of the address they should carry.
"""

from __future__ import annotations

import datetime
import io
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any
from unittest import mock

import pytest
import segno
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PageObject, PdfReader
from pypdf.generic import ContentStream, DictionaryObject
from pytest_django import Settings

from printing import qr
from printing.documents import render_html, render_pdf
from tests.factories import PlayerFactory, UserFactory
from tests.tournaments.conftest import play_round
from tournaments import bridge, selectors, tiebreaks
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.printing import documents
from tournaments.printing.documents import name_key, standings_columns
from tournaments.printing.links import short_url
from tournaments.services import links, playoff, results, rounds
from tournaments.services import tournaments as services
from tournaments.tiebreaks import signed

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

pytestmark = pytest.mark.django_db

# Nine players, so every round has a bye; the accents must survive the PDF.
NAMES = {
    "Åsa Öberg": "Åre",
    "Émile Ängström": "Malmö",
    "Jürgen Müller": "Göteborg",
    "Zacharias Zetterlund": "Umeå",
    "Örjan Åkesson": "Luleå",
    "Bertil Andersson": "Uppsala",
    "Cecilia Ek": "Kiruna",
    "Dagny Lindén": "Örebro",
    "Ärla Björk": "Västerås",
}
SWEDISH_ORDER = [
    "Bertil Andersson",
    "Cecilia Ek",
    "Dagny Lindén",
    "Émile Ängström",
    "Jürgen Müller",
    "Zacharias Zetterlund",
    "Åsa Öberg",
    "Ärla Björk",
    "Örjan Åkesson",
]


def client(language: str = "en", user: User | None = None) -> Client:
    browser = Client()
    browser.cookies["django_language"] = language
    if user is not None:
        browser.force_login(user)
    return browser


def pages_of(response: TestResponse) -> list[str]:
    """The text of each page of a PDF response, after checking it is one."""
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    return [page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages]


def in_order(text: str, names: list[str]) -> bool:
    places = [text.find(name) for name in names]
    return -1 not in places and places == sorted(places)


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


def lines_start_in_order(text: str, names: list[str]) -> bool:
    """Whether the first lines starting with each of ``names`` come in that order."""
    lines = lines_of(text)
    places = [
        next((n for n, line in enumerate(lines) if line.startswith(name)), -1) for name in names
    ]
    return -1 not in places and places == sorted(places)


def tournament_of(names: dict[str, str], **fields: Any) -> Tournament:
    settings = {
        "name": "Höstturneringen",
        "year": 2026,
        "starts_on": datetime.date(2026, 9, 5),
        "ends_on": datetime.date(2026, 9, 6),
        "swiss_rounds": 3,
        "seed": 3,
        **fields,
    }
    tournament = services.tournament_create(**settings)
    for name, club in names.items():
        player = PlayerFactory.create(name=name, club=club)
        services.entry_add(tournament=tournament, player=player, checked_in=True)
    return tournament


def split_games(match: Match) -> list[tuple[int, int]]:
    """Seat 0 wins 2-1 at even tables, seat 1 wins 2-0 at odd ones (scores vary by table)."""
    table = match.table
    assert table is not None  # byes are not played
    if table % 2:
        return [(1, 40 + table), (1, 100)]
    return [(0, 70 + table), (1, 110), (0, 95)]


@pytest.fixture
def autumn(organiser: User) -> Tournament:
    """Round 1 closed, round 2 published and being played."""
    tournament = tournament_of(NAMES)
    play_round(tournament, organiser, split_games)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    return tournament


def url(name: str, tournament: Tournament, *args: int) -> str:
    return reverse(f"tournaments:{name}", args=[tournament.slug, *args])


def test_pairings_list_the_tables_in_order_then_everyone_alphabetically(
    autumn: Tournament,
) -> None:
    response = client("sv").get(url("pairings_pdf", autumn, 2))
    pages = pages_of(response)
    assert response["Content-Disposition"] == (
        f'inline; filename="{autumn.slug}-round-2-pairings.pdf"'
    )
    round_ = autumn.rounds.get(number=2)
    records = selectors.records_before(autumn, 2)
    seated = [
        (seat.entry.player.name, records[seat.entry_id], seat.entry.player.club)
        for match in selectors.round_matches(round_)
        for seat in match.seats.all()
    ]
    assert len(pages) == 2  # the find-your-table list on a page of its own
    tables, finder = pages
    assert in_order(tables, [name for name, _record, _club in seated])
    assert in_order(tables, [f"{club} · {record}" for _name, record, club in seated])
    assert "frirond" in tables  # the bye, last
    assert tables.index("frirond") > tables.index(seated[-2][0])
    assert finder.startswith("Hitta ditt bord · Rond 2")
    assert lines_start_in_order(finder, SWEDISH_ORDER)


def printed_sizes(page: PageObject) -> dict[str, float]:
    """Each piece of text on ``page`` with the point size it is printed at."""
    sizes: dict[str, float] = {}

    def seen(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if text.strip():
            sizes[text.strip()] = round(size * tm[0] * cm[0], 1)

    page.extract_text(visitor_text=seen)
    return sizes


def test_the_wall_pairings_are_readable_from_two_metres(autumn: Tournament) -> None:
    response = client("en").get(url("pairings_pdf", autumn, 2))
    tables, finder = PdfReader(io.BytesIO(response.content)).pages
    round_ = autumn.rounds.get(number=2)
    names = [seat.entry.player.name for m in round_.matches.all() for seat in m.seats.all()]
    numbers = [str(m.table) for m in round_.matches.filter(is_bye=False)]
    for page in (tables, finder):
        sizes = printed_sizes(page)
        for name in names:
            assert min(size for text, size in sizes.items() if text.startswith(name)) >= 14, name
        assert all(sizes[number] >= 14 for number in numbers), sizes
    clubs, listed = printed_sizes(tables), printed_sizes(finder)
    for match in round_.matches.filter(is_bye=False):
        for seat in match.seats.all():  # the club tells two players of one name apart
            player = seat.entry.player
            assert any(text.startswith(f"{player.club} · ") for text in clubs), player
            assert f"{player.name} · {player.club}" in listed, player


def test_the_english_find_your_table_list_ignores_accents(autumn: Tournament) -> None:
    finder = pages_of(client("en").get(url("pairings_pdf", autumn, 2)))[-1]
    assert lines_start_in_order(finder, sorted(NAMES, key=lambda name: name_key(name, "en")))
    assert lines_start_in_order(
        finder, ["Ärla Björk", "Åsa Öberg", "Bertil Andersson", "Örjan Åkesson"]
    )


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("sv", ["Zetterlund", "Åberg", "Ärlig", "Öhman"]),
        ("sv", ["Ek", "Eklund", "Émile", "Eriksson"]),
        ("sv", ["Murén", "Mylius", "Müller", "Myrén"]),  # ü sorts as y in Swedish
        ("en", ["Müller", "Murén", "Mylius", "Myrén"]),
        ("en", ["Åberg", "Ärlig", "Öhman", "Zetterlund"]),
        ("en", ["Muller", "Müller", "Mullet"]),
    ],
)
def test_names_sort_in_the_readers_alphabet(language: str, names: list[str]) -> None:
    shuffled = names[2:] + names[:2]
    assert sorted(shuffled, key=lambda name: name_key(name, language)) == names


def test_the_pairings_and_sheets_of_a_published_round_are_final_documents(
    autumn: Tournament,
) -> None:
    english = client("en")
    for name in ("pairings_pdf", "scoresheets_pdf"):
        text = "\n".join(pages_of(english.get(url(name, autumn, 2))))  # round 2 is being played
        assert "reliminary" not in text, name
        assert "roposal" not in text, name


def test_a_proposed_round_prints_as_a_proposal_on_every_page_and_sheet(
    autumn: Tournament, organiser: User
) -> None:
    rounds.round_close(round=_settle_all(autumn.rounds.get(number=2), organiser))
    proposed = rounds.round_propose(tournament=autumn)
    english = client("en", organiser)
    pairings = pages_of(english.get(url("pairings_pdf", autumn, proposed.number)))
    assert "Pairings · Round 3 · proposal" in pairings[0]
    assert "Proposal: this round is not published yet" in pairings[0]
    assert all("proposal" in page for page in pairings)  # in every page's header
    assert not any("reliminary" in page for page in pairings)
    sheets = "\n".join(pages_of(english.get(url("scoresheets_pdf", autumn, proposed.number))))
    assert sheets.count("· proposal") >= 4  # on each of the four sheets
    swedish = pages_of(client("sv", organiser).get(url("pairings_pdf", autumn, proposed.number)))
    assert "Lottning · Rond 3 · förslag" in swedish[0]


def test_the_standings_print_the_last_closed_round_unless_asked_for_the_round_in_play(
    autumn: Tournament,
) -> None:
    wall = "\n".join(pages_of(client("en").get(url("standings_pdf", autumn))))
    assert "Standings · After round 1" in wall
    assert "reliminary" not in wall
    swedish = pages_of(client("sv").get(url("standings_pdf", autumn) + "?round=2"))
    assert "Ställning · Efter rond 2 · preliminär" in swedish[0]
    assert "Preliminär: ronden spelas fortfarande." in swedish[0]


def test_no_standings_are_printed_before_a_round_is_closed(organiser: User) -> None:
    tournament = tournament_of(NAMES)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    text = "\n".join(pages_of(client("en").get(url("standings_pdf", tournament))))
    assert "The standings are printed once the first round is closed." in text
    assert "Bertil Andersson" not in text


def test_the_standings_page_links_the_wall_copy_and_the_preliminary_one(
    autumn: Tournament,
) -> None:
    page = client("en").get(reverse("tournaments:standings", args=[autumn.slug]))
    html = page.content.decode()
    assert f'href="{url("standings_pdf", autumn)}"' in html
    assert f'href="{url("standings_pdf", autumn)}?round=2">Preliminary standings (PDF)' in html


def test_score_sheets_print_a_sheet_per_table_two_or_four_to_a_page(autumn: Tournament) -> None:
    round_ = autumn.rounds.get(number=2)
    matches = [m for m in selectors.round_matches(round_) if not m.is_bye]
    english = client("en")
    for per_page in (2, 4):
        address = url("scoresheets_pdf", autumn, 2) + f"?per_page={per_page}"
        response = english.get(address)
        pages = pages_of(response)
        assert len(pages) == math.ceil(len(matches) / per_page)
        text = "\n".join(pages)
        for match in matches:
            assert f"Table {match.table}" in text
            first, second = (seat.entry.player.name for seat in match.seats.all())
            assert in_order(text[text.index(f"Table {match.table}") :], [first, second])
        assert text.count("Signature A") == len(matches)
        assert "Höstturneringen · Round 2" in text
    assert response["Content-Disposition"] == (
        f'inline; filename="{autumn.slug}-round-2-scoresheets.pdf"'
    )
    assert english.get(url("scoresheets_pdf", autumn, 2) + "?per_page=3").status_code == 404


def test_standings_show_every_figure_in_standings_order(organiser: User) -> None:
    tournament = tournament_of(NAMES, tiebreaks=["match_wins", "buchholz", "spread"])
    play_round(tournament, organiser, split_games)
    play_round(tournament, organiser, split_games)
    response = client("en").get(url("standings_pdf", tournament))
    assert response["Content-Disposition"] == (
        f'inline; filename="{tournament.slug}-round-2-standings.pdf"'
    )
    text = "\n".join(pages_of(response))
    rows = bridge.standings(tournament)
    assert in_order(text, [row.entry.player.name for row in rows])
    lines = lines_of(text)
    for row in rows:
        s = row.standing
        spread = signed(s.spread)  # +12, −12 (the minus sign), 0
        place = f"{s.rank}{'=' if s.shared else ''}"
        club = row.entry.player.club
        # The chain's columns first (Buchholz, spread), then game points.
        expected = f"{place} {row.entry.player.name} {club} {s.record} {s.buchholz} {spread} "
        assert any(line == expected + str(s.game_points) for line in lines), expected
    assert standings_columns(tournament.tiebreaks) == ["buchholz", "spread", "game_points"]
    assert "Buchholz: the sum of the match wins" in text
    assert "Players still tied share the place (shown with =)." in text
    assert "Head to head" not in text  # not in this chain


def test_tied_players_share_their_place(organiser: User) -> None:
    tournament = tournament_of(NAMES)
    play_round(tournament, organiser)  # every table 121-100, 121-95 to seat 0
    text = "\n".join(pages_of(client("en").get(url("standings_pdf", tournament))))
    rows = bridge.standings(tournament)
    lines = lines_of(text)
    winners = [row for row in rows if row.standing.rank == 1]
    losers = [row for row in rows if row.standing.match_losses]
    assert len(winners) == len(losers) == 4
    for row in winners:
        assert f"1= {row.entry.player.name} {row.entry.player.club} 1-0 4 +47 0" in lines
    for row in losers:
        assert f"6= {row.entry.player.name} {row.entry.player.club} 0-1 0 \u221247 1" in lines


def test_head_to_head_is_explained_but_has_no_column(autumn: Tournament) -> None:
    text = "\n".join(pages_of(client("en").get(url("standings_pdf", autumn) + "?round=1")))
    header = next(line for line in lines_of(text) if line.startswith("# Player"))
    assert "Head" not in header
    assert "Head to head: match wins in the matches between the players still tied." in text
    assert "After round 1" in text


def test_standings_of_an_unknown_or_unpublished_round_are_not_found(
    autumn: Tournament, organiser: User
) -> None:
    rounds.round_close(round=_settle_all(autumn.rounds.get(number=2), organiser))
    rounds.round_propose(tournament=autumn)
    english = client("en", organiser)
    for wanted in ("3", "9", "x"):
        address = url("standings_pdf", autumn) + f"?round={wanted}"
        assert english.get(address).status_code == 404, wanted


def _settle_all(round_: Round, organiser: User) -> Round:
    for match in round_.matches.filter(is_bye=False):
        results.match_settle(
            match=match, organiser=organiser, first_dealer=0, games=split_games(match)
        )
    return round_


def test_a_proposed_round_is_only_for_organisers(autumn: Tournament, organiser: User) -> None:
    rounds.round_close(round=_settle_all(autumn.rounds.get(number=2), organiser))
    proposed = rounds.round_propose(tournament=autumn)
    for name in ("pairings_pdf", "scoresheets_pdf"):
        address = url(name, autumn, proposed.number)
        assert client("en").get(address).status_code == 404
        assert pages_of(client("en", organiser).get(address))


def test_the_crosstable_shows_who_played_whom(organiser: User) -> None:
    tournament = tournament_of(NAMES)
    for _ in range(3):
        play_round(tournament, organiser, split_games)
    response = client("en").get(url("crosstable_pdf", tournament))
    assert response["Content-Disposition"] == (
        f'inline; filename="{tournament.slug}-crosstable.pdf"'
    )
    text = "\n".join(pages_of(response))
    rows = bridge.standings(tournament)
    assert in_order(text, [row.entry.player.name for row in rows])
    rank = {row.entry.pk: row.standing.rank for row in rows}
    round_ = tournament.rounds.get(number=1)
    match = next(m for m in selectors.round_matches(round_) if m.table == 1)
    loser, winner = (seat.entry for seat in match.seats.all())  # odd table: seat 1 won
    assert f"W 2-0 · {rank[loser.pk]} {loser.player.name.split()[-1]}" in text
    assert f"L 0-2 · {rank[winner.pk]} {winner.player.name.split()[-1]}" in text
    assert "W · bye" in text


def test_the_bracket_shows_the_play_off(organiser: User) -> None:
    names = dict(list(NAMES.items())[:6])
    tournament = tournament_of(names, swiss_rounds=1, playoff_size=4)
    play_round(tournament, organiser, split_games)
    first = playoff.playoff_start(tournament=tournament)
    rows = bridge.standings(tournament)
    seeds = [row.entry.player.name for row in rows[:4]]
    english = client("en")
    text = "\n".join(pages_of(english.get(url("playoff_pdf", tournament))))
    assert "Play-off · preliminary" in text
    assert "Semi-finals" in text
    assert "Final" in text
    assert all(name in text for name in seeds)
    rounds.round_close(round=_settle_all(first, organiser))
    final = tournament.rounds.get(number=3)
    rounds.round_close(round=_settle_all(final, organiser))
    tournament.refresh_from_db()
    text = "\n".join(pages_of(english.get(url("playoff_pdf", tournament))))
    assert tournament.champion is not None
    assert f"Winner: {tournament.champion.player.name}" in text
    assert "preliminary" not in text
    assert (
        english.get(url("playoff_pdf", tournament_of({}, name="Utan slutspel"))).status_code == 404
    )


def test_two_hundred_players_break_cleanly_over_pages(organiser: User) -> None:
    players = {f"Spelare {n:03d} Sjöström": "Jönköping" for n in range(200)}
    tournament = tournament_of(players, swiss_rounds=2)
    play_round(tournament, organiser)
    english = client("en")
    standings = pages_of(english.get(url("standings_pdf", tournament)))
    assert len(standings) >= 4
    assert all(page.count("Player") >= 1 and "Club" in page for page in standings)
    rows = bridge.standings(tournament)
    text = "\n".join(standings)
    assert in_order(text, [row.entry.player.name for row in rows])
    assert all(text.count(name) == 1 for name in players)
    assert all(f"page {n} of {len(standings)}" in page for n, page in enumerate(standings, 1))
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    pairings = pages_of(english.get(url("pairings_pdf", tournament, 2)))
    finder = next(n for n, page in enumerate(pairings) if "Find your table" in page)
    assert finder >= 2
    assert all("Table Player Opponent" in page for page in pairings[:finder])
    assert all("Player Table Opponent" in page for page in pairings[finder:])
    text = "\n".join(pairings)
    assert all(text.count(name) == 3 for name in players)  # at a table, found, as opponent


def test_documents_speak_the_readers_language(autumn: Tournament) -> None:
    address = url("standings_pdf", autumn)
    swedish = "\n".join(pages_of(client("sv").get(address)))
    english = "\n".join(pages_of(client("en").get(address)))
    assert "Svenska Cribbageklubben" in swedish
    assert "Ställning" in swedish
    assert "Swedish Cribbage Club" in english
    assert "Standings" in english
    assert "Ställning" not in english
    assert all(name in swedish for name in NAMES)
    assert all(name in english for name in NAMES)


def fonts_of(page: PageObject) -> DictionaryObject:
    """A PDF page's fonts, by their resource names."""
    resources = page["/Resources"]
    assert isinstance(resources, DictionaryObject)
    fonts = resources["/Font"]
    assert isinstance(fonts, DictionaryObject)
    return fonts


def test_fonts_are_embedded(autumn: Tournament) -> None:
    response = client("sv").get(url("pairings_pdf", autumn, 2))
    for page in PdfReader(io.BytesIO(response.content)).pages:
        for font in fonts_of(page).values():
            font = font.get_object()
            descriptor = (
                font.get("/FontDescriptor")
                or font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            )
            assert "DejaVu" in font["/BaseFont"]
            assert "/FontFile2" in descriptor.get_object()


def test_render_document_writes_the_pdf_and_its_pages(
    autumn: Tournament, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "pairings.pdf"
    call_command(
        "render_document", autumn.slug, "pairings", "--round", "2", "--output", str(output),
        "--png", str(tmp_path / "png"), "--language", "en",
    )  # fmt: skip
    written = capsys.readouterr().out.split()
    assert written[0] == str(output)
    assert len(PdfReader(output).pages) == 2
    assert [Path(path).suffix for path in written[1:]] == [".png", ".png"]
    assert all(Path(path).stat().st_size > 1000 for path in written[1:])


def test_the_pages_link_to_their_documents(autumn: Tournament) -> None:
    english = client("en")
    round_page = english.get(url("round", autumn, 2)).content.decode()
    assert url("pairings_pdf", autumn, 2) in round_page
    assert url("scoresheets_pdf", autumn, 2) + "?per_page=4" in round_page
    standings_page = english.get(url("standings", autumn) + "?round=1").content.decode()
    assert url("standings_pdf", autumn) + "?round=1" in standings_page
    assert url("crosstable_pdf", autumn) in english.get(url("detail", autumn)).content.decode()


# Private links: on the score sheets and the login slips, as text and as QR codes.


def link_of(entry: Entry, host: str = "testserver") -> str:
    """The short link of ``entry`` as printed for a reader of ``host`` (the test client's)."""
    return f"{host}{reverse('private_link', kwargs={'key': entry.private_key})}"


def codes_of(content: bytes) -> list[list[list[bool]]]:
    """Each QR code drawn on a PDF page, as rows of modules (True: dark), in drawing order.

    A code is a matrix scaling one unit to a module (``cm``), whole-module rectangles
    (``re``) and a fill (``f``); the codes are drawn after the page's own content.
    """
    reader = PdfReader(io.BytesIO(content))
    found = []
    for page in reader.pages:
        contents = page["/Contents"]
        if not isinstance(contents, list) or len(contents) < 3:
            continue
        rectangles: list[list[int]] = []
        for operands, operator in ContentStream(contents[-1].get_object(), reader).operations:
            if operator == b"cm":
                rectangles = []
            elif operator == b"re":
                rectangles.append([int(value) for value in operands])
            elif operator == b"f":
                found.append(_modules(rectangles))
    return found


def code_of(url: str) -> list[list[bool]]:
    """The modules of segno's code of ``url``, made as the documents make theirs."""
    symbol = segno.make_qr(url, error=qr.ERROR_CORRECTION, mask=qr.MASK)
    return [[bool(module) for module in row] for row in symbol.matrix]


def _modules(rectangles: list[list[int]]) -> list[list[bool]]:
    side = max(x + width for x, _y, width, _height in rectangles)
    rows = [[False] * side for _ in range(side)]
    for x, y, width, height in rectangles:
        assert height == 1
        for column in range(x, x + width):
            rows[y][column] = True
    return rows


def seated_entries(round_: Round) -> list[Entry]:
    """The entries at the round's tables in the order the sheets print them (no bye)."""
    return [
        seat.entry
        for match in selectors.round_matches(round_)
        if not match.is_bye
        for seat in match.seats.all()
    ]


def match_page_of(match: Match, host: str = "testserver") -> str:
    """The short address of ``match``'s public page for a reader of ``host``."""
    return f"{host}{reverse('tournaments:match', args=[match.round.tournament.slug, match.pk])}"


def tables_of(round_: Round) -> list[Match]:
    """The round's matches at a table, in the order the sheets print them (no bye)."""
    return [match for match in selectors.round_matches(round_) if not match.is_bye]


def private_codes(tournament: Tournament, host: str = "testserver") -> list[list[list[bool]]]:
    """The code of every private link of ``tournament``, in either scheme."""
    return [
        code_of(f"{scheme}://{link_of(entry, host)}")
        for entry in tournament.entries.exclude(private_key=None)
        for scheme in ("http", "https")
    ]


@pytest.mark.parametrize("per_page", [2, 4])
@pytest.mark.parametrize("reader", ["organiser", "player", "visitor"])
def test_no_score_sheet_carries_a_private_link_in_text_or_code(
    autumn: Tournament, organiser: User, reader: str, per_page: int
) -> None:
    """Both players share a sheet: with either's link on it, one could report and then
    confirm as the other. Whoever prints it, it has the match page's address and code."""
    round_ = autumn.rounds.get(number=2)
    user = {"organiser": organiser, "player": UserFactory.create(), "visitor": None}[reader]
    address = url("scoresheets_pdf", autumn, 2) + f"?per_page={per_page}"
    response = client("en", user).get(address)
    text = "\n".join(pages_of(response))
    entries = list(autumn.entries.all())
    assert all(entry.private_key and entry.private_key not in text for entry in entries)
    assert "/p/" not in text
    drawn = codes_of(response.content)
    assert not any(code in private_codes(autumn) for code in drawn)
    matches = tables_of(round_)
    assert drawn == [code_of(f"http://{match_page_of(match)}") for match in matches]
    for match in matches:
        assert f"Match page: {match_page_of(match)}" in text
    assert text.count("To report the result: log in, or scan your own login slip.") == len(matches)
    # Vectors and text: the document has no image.
    assert all(not page.images for page in PdfReader(io.BytesIO(response.content)).pages)


def test_the_sheets_document_holds_no_private_link(autumn: Tournament) -> None:
    """What the code puts on the sheets, before it is drawn: no private key anywhere."""
    with translation.override("en"):
        document = documents.scoresheets(
            autumn.rounds.get(number=2), per_page=2, base_url="https://club.example"
        )
        html = render_html(document)
    keys = [entry.private_key for entry in autumn.entries.all()]
    assert all(key and key not in html for key in keys)
    assert all(key not in code.url for code in document.codes for key in keys if key)
    assert all("/p/" not in code.url for code in document.codes)
    assert [code.url for code in document.codes] == [
        f"https://{match_page_of(match, 'club.example')}"
        for match in tables_of(autumn.rounds.get(number=2))
    ]


def test_a_revoked_link_changes_nothing_on_the_score_sheets(
    autumn: Tournament, organiser: User
) -> None:
    printed = timezone.now()  # the same "Printed" time on both, were a minute to turn between
    with mock.patch("printing.documents.timezone.now", return_value=printed):
        before = pages_of(client("en", organiser).get(url("scoresheets_pdf", autumn, 2)))
        links.entry_link_revoke(entry=seated_entries(autumn.rounds.get(number=2))[1])
        after = pages_of(client("en", organiser).get(url("scoresheets_pdf", autumn, 2)))
    assert after == before
    assert "No private link" not in "\n".join(after)


def test_the_addresses_take_the_readers_scheme_and_host(
    autumn: Tournament, organiser: User, settings: Settings
) -> None:
    settings.ALLOWED_HOSTS = ["cribbage.example.se"]
    host = "cribbage.example.se"
    match = tables_of(autumn.rounds.get(number=2))[0]
    address = url("scoresheets_pdf", autumn, 2)
    sheets = client("en").get(address, HTTP_HOST=host, secure=True)
    assert match_page_of(match, host) in "\n".join(pages_of(sheets))
    assert codes_of(sheets.content)[0] == code_of(f"https://{match_page_of(match, host)}")
    slips = client("en", organiser).get(url("slips_pdf", autumn), HTTP_HOST=host, secure=True)
    entry = seated_entries(autumn.rounds.get(number=2))[0]
    assert code_of(f"https://{link_of(entry, host)}") in codes_of(slips.content)


SLIP = re.compile(
    r'<div class="slip(?: revoked)?">(?:<div class="slip-code" id="(?P<spot>[^"]+)"></div>)?'
    r'<p class="slip-name">(?P<name>[^<]+)</p>(?P<rest>.*?)</div>',
    re.DOTALL,
)


def test_each_slip_carries_its_own_players_link_only(autumn: Tournament) -> None:
    """The slips are cut apart and handed out one to a player: on each, that player's
    link and code, and no one else's key."""
    entries = {entry.player.name: entry for entry in autumn.entries.select_related("player")}
    links.entry_link_revoke(entry=entries["Cecilia Ek"])
    for entry in entries.values():
        entry.refresh_from_db()
    with translation.override("en"):
        document = documents.slips(autumn, base_url="https://club.example")
        html = render_html(document)
    codes = {code.spot: code.url for code in document.codes}
    slips = list(SLIP.finditer(html))
    assert sorted(slip["name"] for slip in slips) == sorted(entries)
    keys = {name: entry.private_key for name, entry in entries.items() if entry.private_key}
    for slip in slips:
        own = keys.get(slip["name"])
        others = [key for name, key in keys.items() if name != slip["name"]]
        assert not any(key in slip.group(0) for key in others)
        if own is None:  # revoked: no code, no link
            assert slip["spot"] is None
            assert "was revoked" in slip["rest"]
            continue
        assert link_of(entries[slip["name"]], "club.example") in slip["rest"]
        assert (
            codes.pop(slip["spot"]) == f"https://{link_of(entries[slip['name']], 'club.example')}"
        )
    assert codes == {}  # no code drawn anywhere but on its own player's slip


@pytest.mark.parametrize("per_page", [2, 4])
def test_score_sheets_printed_without_a_base_url_carry_no_address(
    autumn: Tournament, per_page: int
) -> None:
    """Without a base URL a sheet has no address and no code, and no room kept for one."""
    entries = seated_entries(autumn.rounds.get(number=2))
    with translation.override("en"):
        document = documents.scoresheets(
            autumn.rounds.get(number=2), per_page=per_page, base_url=None
        )
        content = render_pdf(document)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    assert "/p/" not in text
    assert "Match page" not in text
    assert not document.codes
    assert codes_of(content) == []
    assert text.count("Signature A") == len(entries) // 2
    assert all(entry.player.name in text for entry in entries)


def test_login_slips_are_for_organisers_only(autumn: Tournament, organiser: User) -> None:
    address = url("slips_pdf", autumn)
    anonymous = client("en").get(address)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login"))
    assert client("en", UserFactory.create()).get(address).status_code == 403
    response = client("en", organiser).get(address)
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{autumn.slug}-slips.pdf"'
    assert pages_of(response)


def test_a_login_slip_for_each_player_not_withdrawn_by_name(
    autumn: Tournament, organiser: User
) -> None:
    entries = {entry.player.name: entry for entry in autumn.entries.select_related("player")}
    withdrawn = services.entry_withdraw(entry=entries["Jürgen Müller"])
    revoked = links.entry_link_revoke(entry=entries["Cecilia Ek"])
    response = client("sv", organiser).get(url("slips_pdf", autumn))
    pages = pages_of(response)
    text = "\n".join(pages)
    assert len(pages) == 1  # 8 slips to a page
    active = [name for name in SWEDISH_ORDER if name != "Jürgen Müller"]
    assert lines_start_in_order(text, active)
    assert "Jürgen Müller" not in text
    assert link_of(withdrawn) not in text
    with_links = [entries[name] for name in active if name != "Cecilia Ek"]
    for entry in with_links:
        assert link_of(entry) in text
        assert entry.player.club in text
    assert text.count("Höstturneringen") == len(active) + len(pages)  # each slip, each header
    assert codes_of(response.content) == [
        code_of(f"http://{link_of(entry)}") for entry in with_links
    ]
    assert all(not page.images for page in PdfReader(io.BytesIO(response.content)).pages)
    english = "\n".join(pages_of(client("en", organiser).get(url("slips_pdf", autumn))))
    assert english.count("keep this slip to yourself") == len(with_links)
    assert english.count("was revoked") == 1
    assert revoked.private_key is None


def test_the_short_link_is_printed_in_a_monospaced_font(
    autumn: Tournament, organiser: User
) -> None:
    response = client("en", organiser).get(url("slips_pdf", autumn))
    fonts = {
        str(font.get_object()["/BaseFont"])
        for page in PdfReader(io.BytesIO(response.content)).pages
        for font in fonts_of(page).values()
    }
    assert any("DejaVu-Sans-Mono" in font for font in fonts)


def test_render_document_prints_the_addresses_under_the_base_url(
    autumn: Tournament, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The slips carry the private links; the score sheets the match pages only, whatever
    ``--base-url`` says."""
    entry = seated_entries(autumn.rounds.get(number=2))[0]
    match = tables_of(autumn.rounds.get(number=2))[0]
    output = tmp_path / "slips.pdf"
    call_command(
        "render_document", autumn.slug, "slips", "--output", str(output),
        "--base-url", "https://club.example/", "--language", "en",
    )  # fmt: skip
    text = "\n".join(page.extract_text() for page in PdfReader(output).pages)
    assert link_of(entry, "club.example") in text
    assert codes_of(output.read_bytes())
    for per_page in ("2", "4"):
        output = tmp_path / f"sheets-{per_page}.pdf"
        call_command(
            "render_document", autumn.slug, "scoresheets", "--round", "2", "--output",
            str(output), "--per-page", per_page, "--base-url", "https://club.example/",
            "--language", "en",
        )  # fmt: skip
        text = "\n".join(page.extract_text() for page in PdfReader(output).pages)
        assert match_page_of(match, "club.example") in text
        assert all(
            key and key not in text for key in autumn.entries.values_list("private_key", flat=True)
        )
        drawn = codes_of(output.read_bytes())
        assert drawn[0] == code_of(f"https://{match_page_of(match, 'club.example')}")
        assert not any(code in private_codes(autumn, "club.example") for code in drawn)
    call_command("render_document", autumn.slug, "slips", "--output", str(output))
    text = "\n".join(page.extract_text() for page in PdfReader(output).pages)
    assert link_of(entry, "127.0.0.1:8000") in text  # the default base URL


def test_render_document_refuses_a_base_url_with_a_path(autumn: Tournament) -> None:
    with pytest.raises(CommandError, match="--base-url must be a scheme and host"):
        call_command("render_document", autumn.slug, "slips", "--base-url", "club.example/x")


@pytest.mark.parametrize(
    ("url", "short"),
    [
        ("https://cribbage.example.se/p/abc/", "cribbage.example.se/p/abc/"),
        ("http://127.0.0.1:8000/p/abc/", "127.0.0.1:8000/p/abc/"),
    ],
)
def test_the_short_link_is_the_address_without_its_scheme(url: str, short: str) -> None:
    assert short_url(url) == short


@pytest.mark.parametrize("language", ["sv", "en"])
def test_no_column_heading_is_split_inside_a_word(organiser: User, language: str) -> None:
    tournament = tournament_of(NAMES, tiebreaks=["match_wins", "game_points", "spread", "buchholz"])
    play_round(tournament, organiser, split_games)
    for name, keys in (("standings_pdf", ("game_points", "spread")), ("crosstable_pdf", ())):
        text = "\n".join(pages_of(client(language).get(url(name, tournament))))
        assert "-\n" not in text.replace("W-L", "").replace("V-F", ""), name  # no word-break
        with translation.override(language):
            headings = [str(tiebreaks.label(key)) for key in ("game_points", *keys)]
        for heading in headings:
            for word in heading.split():
                assert word in text, (name, word)
