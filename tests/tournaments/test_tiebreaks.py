"""The one table of tie-breaks: the model, the form, the standings page and the PDF agree."""

from __future__ import annotations

import datetime
import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from competition import standings
from tests.tournaments.conftest import make_tournament, play_round
from tournaments import tiebreaks
from tournaments.errors import TournamentError
from tournaments.forms import TournamentForm
from tournaments.services import tournaments as services

HEADING = re.compile(r'<th scope="col" class="num(?: secondary)?">([^<]+)</th>')
LEGEND = re.compile(r'<section class="panel" aria-labelledby="legend-heading">.*?</section>', re.S)


def words(text: str) -> str:
    """The text with its line breaks and runs of spaces as single spaces, words unhyphenated."""
    return " ".join(re.sub(r"\u2010\s+", "", text).split())


def test_the_table_names_every_key_the_standings_compute() -> None:
    assert [t.key for t in tiebreaks.TIEBREAKS] == list(tiebreaks.BY_KEY)
    assert set(tiebreaks.BY_KEY) == set(standings.TIEBREAKS)
    assert set(tiebreaks.DEFAULT_CHAIN) <= set(tiebreaks.BY_KEY)


@pytest.mark.parametrize(
    ("chain", "code"),
    [
        ([], "blank"),
        (["match_wins", "coin_toss"], "unknown"),
        ("match_wins", "unknown"),
        (["spread", "spread"], "twice"),
    ],
)
@pytest.mark.django_db
def test_a_tournament_keeps_only_a_chain_of_known_tie_breaks(chain: object, code: str) -> None:
    with pytest.raises(TournamentError) as refused:
        services.tournament_create(
            name="Vårturneringen",
            year=2026,
            starts_on=datetime.date(2026, 4, 1),
            ends_on=datetime.date(2026, 4, 1),
            tiebreaks=chain,
        )
    assert refused.value.code == code


@pytest.mark.django_db
def test_the_form_offers_every_tie_break_and_starts_from_the_default_chain() -> None:
    form = TournamentForm()
    slots = [form.fields[f"tiebreak_{slot}"] for slot in range(len(tiebreaks.TIEBREAKS))]
    choices: list[tuple[str, Any]] = list(slots[0].widget.choices)
    offered = [(key, str(label)) for key, label in choices if key]
    assert offered == [(t.key, str(t.label)) for t in tiebreaks.TIEBREAKS]
    chain = [field.initial for field in slots if field.initial]
    assert chain == list(tiebreaks.DEFAULT_CHAIN)


@pytest.mark.django_db
def test_the_page_and_the_pdf_name_and_explain_the_tie_breaks_alike(organiser: User) -> None:
    chain = ["match_wins", "games_won", "spread"]
    tournament = make_tournament(5, swiss_rounds=1, tiebreaks=chain)
    play_round(tournament, organiser)
    reader = Client()
    reader.cookies["django_language"] = "sv"
    with translation.override("sv"):
        label = {t.key: tiebreaks.label(t.key) for t in tiebreaks.TIEBREAKS}
        legend = tiebreaks.legend(chain)
    assert label["spread"] == "Poängskillnad"  # the labels are the Swedish ones
    page = reader.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    assert HEADING.findall(page) == [label["game_points"], label["spread"], label["buchholz"]]
    explained = LEGEND.search(page)
    assert explained is not None
    assert re.findall(r"<li>(.*?)</li>", explained.group())[:3] == legend
    response = reader.get(reverse("tournaments:standings_pdf", args=[tournament.slug]))
    printed = words(
        "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    )
    # The chain's columns in its order, then game points, which every printed standings shows.
    assert f"{label['games_won']} {label['spread']} {label['game_points']}" in printed
    assert all(words(line) in printed for line in legend)


@pytest.mark.parametrize(("value", "shown"), [(12, "+12"), (-12, "\u221212"), (0, "0")])
def test_a_difference_is_shown_with_one_minus_sign(value: int, shown: str) -> None:
    assert tiebreaks.signed(value) == shown
    assert tiebreaks.shown("spread", value) == shown
    assert tiebreaks.shown("buchholz", 12) == "12"
