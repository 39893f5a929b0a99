"""``manage.py player_links``: each player's name, a tab and their private link, one a line."""

from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from tests.factories import PlayerFactory
from tournaments.models import Entry, Tournament
from tournaments.services import links
from tournaments.services import tournaments as services

pytestmark = pytest.mark.django_db

NAMES = {
    "Åsa Öberg": "Åre",
    "Bertil Andersson": "Uppsala",
    "Cecilia Ek": "Kiruna",
    "Zacharias Zetterlund": "Umeå",
    "Dagny Lindén": "Örebro",
}


@pytest.fixture
def spring() -> Tournament:
    tournament = services.tournament_create(
        name="Vårturneringen",
        year=2026,
        starts_on=datetime.date(2026, 4, 18),
        ends_on=datetime.date(2026, 4, 18),
        swiss_rounds=3,
        seed=5,
    )
    for name, club in NAMES.items():
        player = PlayerFactory.create(name=name, club=club)
        services.entry_add(tournament=tournament, player=player, checked_in=True)
    return tournament


def player_links(*args: str) -> tuple[list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("player_links", *args, stdout=out, stderr=err)
    return out.getvalue().splitlines(), err.getvalue()


def entry_of(tournament: Tournament, name: str) -> Entry:
    return tournament.entries.get(player__name=name)


def keys(tournament: Tournament) -> dict[str, str | None]:
    return {entry.player.name: entry.private_key for entry in tournament.entries.all()}


def test_one_line_per_player_name_tab_link_in_swedish_order(spring: Tournament) -> None:
    key = keys(spring)
    with translation.override("sv"):
        lines, err = player_links(spring.slug, "--base-url", "https://cribbage.example.se")
    order = ["Bertil Andersson", "Cecilia Ek", "Dagny Lindén", "Zacharias Zetterlund", "Åsa Öberg"]
    assert lines == [f"{name}\thttps://cribbage.example.se/p/{key[name]}/" for name in order]
    assert err == ""


def test_the_default_base_url_and_a_trailing_slash(spring: Tournament) -> None:
    key = keys(spring)["Cecilia Ek"]
    default, _err = player_links(spring.slug)
    assert f"Cecilia Ek\thttp://127.0.0.1:8000/p/{key}/" in default
    slashed, _err = player_links(spring.slug, "--base-url", "http://localhost:8000/")
    assert f"Cecilia Ek\thttp://localhost:8000/p/{key}/" in slashed


def test_withdrawn_players_and_revoked_links_are_left_out(spring: Tournament) -> None:
    services.entry_withdraw(entry=entry_of(spring, "Zacharias Zetterlund"))
    links.entry_link_revoke(entry=entry_of(spring, "Dagny Lindén"))
    lines, err = player_links(spring.slug)
    assert [line.split("\t")[0] for line in lines] == [
        "Åsa Öberg",  # English order in the tests: accents are ignored
        "Bertil Andersson",
        "Cecilia Ek",
    ]
    assert "1 player's link is revoked and not listed." in err


def test_an_unknown_tournament_is_a_clear_error() -> None:
    with pytest.raises(CommandError, match="No tournament has the address 'no-such-cup'"):
        player_links("no-such-cup")


@pytest.mark.parametrize("base_url", ["cribbage.example.se", "ftp://example.se", "https://x.se/t/"])
def test_a_base_url_must_be_a_scheme_and_host(spring: Tournament, base_url: str) -> None:
    with pytest.raises(CommandError, match="--base-url must be a scheme and host"):
        player_links(spring.slug, "--base-url", base_url)
