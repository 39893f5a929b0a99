"""Polls stay cheap while results flow: each page's ETag moves only with what it shows.

A report awaiting its confirmation changes its own row of the round's pairings and its
own match page; not the standings, not another table's page, not an earlier round. A
final result changes the standings too. A changed row is the only row drawn again, and
no page or re-rate costs a query per earlier round.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.models import ListRating, RatingList
from ratings.selectors import list_version
from ratings.services import ratings_rerate
from tests.tournaments.conftest import account, make_tournament, play_round, seats
from tournaments.access import Actor
from tournaments.models import Match, Tournament
from tournaments.services import results, rounds

pytestmark = pytest.mark.django_db

WON = [(0, 80), (0, 70)]


def spectator(language: str = "en") -> Client:
    browser = Client()
    browser.cookies["django_language"] = language
    browser.get(reverse("home"))  # the CSRF cookie a returning visitor holds
    return browser


def table(tournament: Tournament, number: int) -> Match:
    return Match.objects.get(round__tournament=tournament, round__number=2, table=number)


def report(match: Match) -> None:
    """Seat 0 reports a 2-0 win: the match awaits its confirmation."""
    by = Actor(user=account(seats(match)[0]))
    results.match_report_result(match=match, by=by, first_dealer=0, games=WON)


def confirm(match: Match) -> None:
    match.refresh_from_db()
    by = Actor(user=account(seats(match)[1]))
    results.match_confirm(match=match, by=by, version=match.report_version)


class Pages:
    """The pages a spectator keeps open, each with the ETag it was last given."""

    def __init__(self, tournament: Tournament) -> None:
        slug = tournament.slug
        self.browser = spectator()
        self.urls = {
            "round 2": reverse("tournaments:round", args=[slug, 2]),
            "round 1": reverse("tournaments:round", args=[slug, 1]),
            "standings": reverse("tournaments:standings", args=[slug]),
            "table 1": reverse("tournaments:match", args=[slug, table(tournament, 1).pk]),
            "table 3": reverse("tournaments:match", args=[slug, table(tournament, 3).pk]),
        }
        self.etags = {name: self.browser.get(url)["ETag"] for name, url in self.urls.items()}

    def polled(self) -> dict[str, int]:
        """Each page polled again with its ETag: 304 (unchanged) or 200 (the fresh page)."""
        answers = {}
        for name, url in self.urls.items():
            response = self.browser.get(url, headers={"If-None-Match": self.etags[name]})
            answers[name] = response.status_code
            self.etags[name] = response["ETag"]
        return answers


def test_between_two_changes_every_poll_is_a_304(playing: Tournament) -> None:
    pages = Pages(playing)
    assert set(pages.polled().values()) == {304}


def test_a_report_changes_its_round_and_its_match_not_the_standings_nor_another_table(
    playing: Tournament,
) -> None:
    pages = Pages(playing)
    report(table(playing, 3))
    assert pages.polled() == {
        "round 2": 200,  # its row says "reported, awaiting confirmation"
        "round 1": 304,
        "standings": 304,  # counts final results only
        "table 1": 304,
        "table 3": 200,
    }
    assert set(pages.polled().values()) == {304}


def test_a_final_result_changes_the_standings_too(playing: Tournament) -> None:
    report(table(playing, 3))
    pages = Pages(playing)
    confirm(table(playing, 3))
    assert pages.polled() == {
        "round 2": 200,
        "round 1": 304,
        "standings": 200,
        "table 1": 304,
        "table 3": 200,
    }


def test_the_polled_pairings_follow_a_report_at_once(playing: Tournament) -> None:
    browser = spectator()
    url = reverse("tournaments:round", args=[playing.slug, 2])
    poll = {"HX-Request": "true", "HX-Target": "pairings"}
    first = browser.get(url, headers=poll)
    assert "Reported, awaiting confirmation" not in first.text
    report(table(playing, 3))
    fresh = browser.get(url, headers={**poll, "If-None-Match": first["ETag"]})
    assert fresh.status_code == 200
    assert "Reported, awaiting confirmation" in fresh.text
    assert "Reported, awaiting confirmation" in browser.get(url).text  # the whole page agrees


def test_a_report_not_yet_confirmed_does_not_count_in_the_standings(
    playing: Tournament,
) -> None:
    match = table(playing, 3)
    winner = seats(match)[0].entry.player.name
    url = reverse("tournaments:standings", args=[playing.slug])
    before = spectator().get(url).text
    report(match)
    assert record_of(winner, spectator().get(url).text) == record_of(winner, before)
    confirm(match)
    won, lost = record_of(winner, before)
    assert record_of(winner, spectator().get(url).text) == (won + 1, lost)


def record_of(name: str, page: str) -> tuple[int, int]:
    """The W-L of ``name`` on the standings page."""

    line = re.search(rf">{re.escape(name)}</a>.*?</tr>", page, re.DOTALL)
    assert line is not None
    won, lost = re.findall(r'<td class="num">([^<]*)</td>', line.group(0))[0].split("-")
    return int(won), int(lost)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The matches whose rows the round page draws (not read back from the cache)."""
    from tournaments import pairing_table

    matches: list[int] = []
    lines = pairing_table.pairing_lines

    def counting(*args: Any, **kwargs: Any) -> list[pairing_table.PairingLine]:
        found = lines(*args, **kwargs)
        matches.extend(line.match_id for line in found)
        return found

    monkeypatch.setattr(pairing_table, "pairing_lines", counting)
    return matches


def test_a_report_draws_its_own_row_again_and_reads_the_others_back(
    playing: Tournament, drawn: list[int]
) -> None:
    url = reverse("tournaments:round", args=[playing.slug, 2])
    spectator().get(url)
    assert len(drawn) == 4
    drawn.clear()
    report(table(playing, 3))
    assert "Reported, awaiting confirmation" in spectator().get(url).text
    assert drawn == [table(playing, 3).pk]


def test_organisers_players_and_languages_each_get_their_own_rows(
    playing: Tournament, organiser: User, drawn: list[int]
) -> None:
    url = reverse("tournaments:round", args=[playing.slug, 2])
    assert 'class="mine' not in spectator().get(url).text
    drawn.clear()

    player = spectator()
    mine = table(playing, 1)
    player.force_login(account(seats(mine)[0]))
    assert 'class="mine"' in player.get(url).text
    assert drawn == [mine.pk]  # their own row, marked; the others are the spectators'
    assert 'class="mine' not in spectator().get(url).text

    drawn.clear()
    desk = spectator()
    desk.force_login(organiser)
    assert desk.get(url).status_code == 200
    assert len(drawn) == 4  # never a spectator's rows

    swedish = spectator("sv").get(url).text
    assert "Ej rapporterad" in swedish


def _queries(action: object) -> int:
    with CaptureQueriesContext(connection) as queries:
        action()  # type: ignore[operator]
    return len(queries)


def _costs(organiser: User, played: int) -> dict[str, int]:
    """The queries of the round page, the standings and a re-rate after ``played`` rounds
    (the next one published), each read with nothing cached."""
    tournament = make_tournament(12, swiss_rounds=10, name=f"Open {played}")
    for _number in range(played):
        last = play_round(tournament, organiser)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    slug = tournament.slug
    costs = {}
    for name, url in {
        "round page": reverse("tournaments:round", args=[slug, played + 1]),
        "standings": reverse("tournaments:standings", args=[slug]),
    }.items():
        cache.clear()
        browser = spectator()
        costs[name] = _queries(lambda url=url, browser=browser: browser.get(url))
    costs["re-rate"] = _queries(lambda: ratings_rerate(round=last))
    return costs


def test_no_query_per_earlier_round(organiser: User) -> None:
    # Three rounds more: a query a round would show as 3 more.
    assert _costs(organiser, 2) == _costs(organiser, 5)


def test_after_a_final_result_is_rated_the_next_report_draws_only_the_rows_it_changed(
    playing: Tournament, drawn: list[int]
) -> None:
    """The re-rate after a final result moves the list's version, not what the other
    unplayed tables show: the next report draws its own row (and the confirmed one, not
    drawn since), never the whole round's."""
    url = reverse("tournaments:round", args=[playing.slug, 2])
    first, second = table(playing, 1), table(playing, 2)
    spectator().get(url)
    report(first)
    spectator().get(url)
    listed = list_version()
    confirm(first)  # and its re-rate (the tests' tasks run when they are queued)
    assert list_version() != listed
    drawn.clear()
    report(second)
    assert "Reported, awaiting confirmation" in spectator().get(url).text
    assert sorted(drawn) == sorted([first.pk, second.pk])


def test_a_change_of_the_list_that_moves_an_expected_score_shows_at_once(
    playing: Tournament,
) -> None:
    """The expected scores follow the list: a poll after the list moved gets the new
    figures, neither a 304 nor the table kept from before."""
    url = reverse("tournaments:round", args=[playing.slug, 2])
    browser = spectator()
    before = browser.get(url)
    match = table(playing, 4)
    shown = re.compile(
        rf'expected (\d+)–(\d+) %</span></td>\s*<td[^>]*><a href="[^"]*/match/{match.pk}/"'
    )
    figures = shown.search(before.text)
    assert figures is not None
    # As a re-rate writes it (a rated game of table 4's first player elsewhere, say): their
    # line on the list much higher, the list's version moved.
    player = seats(match)[0].entry.player
    ListRating.objects.filter(player=player).update(rating=F("rating") + 400)
    RatingList.objects.filter(pk=1).update(version=F("version") + 1)
    after = browser.get(url, headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    moved = shown.search(after.text)
    assert moved is not None
    assert int(moved.group(1)) > int(figures.group(1))
