"""The standings page's table: a line per player with the figures of ``bridge.standings``."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import make_tournament, play_round
from tournaments import bridge
from tournaments.services import tournaments as services
from tournaments.tiebreaks import signed

pytestmark = pytest.mark.django_db

ROW = re.compile(r"<tr( class=\"mine\")?>\s*(.*?)\s*</tr>", re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)


def table_lines(page: str) -> list[tuple[bool, list[str]]]:
    """Each line of the standings table: whether it is marked as mine, and its cells."""
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    return [(bool(mine), CELL.findall(row)) for mine, row in ROW.findall(body)]


def test_each_line_has_the_place_the_players_page_and_the_figures(organiser: User) -> None:
    # Every winner of round 1 won 2-0 against 100 and 95: they share first place.
    tournament = make_tournament(9)
    play_round(tournament, organiser)
    withdrawn = tournament.entries.select_related("player").get(player__name="Player 04")
    services.entry_withdraw(entry=withdrawn)
    me = tournament.entries.select_related("player__user").get(player__name="Player 07")
    client = Client()
    client.cookies["django_language"] = "en"
    assert me.player.user is not None
    client.force_login(me.player.user)
    page = client.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    rows = bridge.standings(tournament)
    assert any(row.standing.shared for row in rows)
    lines = table_lines(page)
    assert len(lines) == len(rows) == 9
    for (mine, cells), row in zip(lines, rows, strict=True):
        s, entry = row.standing, row.entry
        address = reverse("tournaments:entry", args=[tournament.slug, entry.pk])
        name = f'<a href="{address}">{entry.player.name}</a>'
        if entry.withdrawn:
            name += ' <span class="tag">withdrawn</span>'
        place = f"{s.rank}=" if s.shared else str(s.rank)
        expected = [place, name, entry.player.club, s.record]
        assert cells == [*expected, str(s.game_points), signed(s.spread), str(s.buchholz)]
        assert mine == (entry == me)
    assert sum(mine for mine, _cells in lines) == 1
    assert sum("withdrawn" in cells[1] for _mine, cells in lines) == 1
