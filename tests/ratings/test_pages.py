"""The rating list's pages: the list with its filter and printed copy, a member's rating
(chart, table, best wins), the expected scores of a round's unplayed matches and the
favourites' record of a finished tournament."""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.models import Player
from printing.documents import render_html
from ratings.glicko import Rating, expected_score, idle
from ratings.models import ListRating, PeriodRating, RatingPeriod
from ratings.printing import rating_list_document
from tests.tournaments.conftest import make_tournament, play_round, seats
from tournaments.models import Match, Tournament
from tournaments.services import playoff, rounds
from tournaments.services import tournaments as tournament_services
from tournaments.tiebreaks import MINUS

pytestmark = pytest.mark.django_db


def english() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


CELL = r"<td[^>]*>(.*?)</td>"


def rows_of(html: str) -> list[list[str]]:
    """The list's rows as the text of their cells."""
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in re.findall(CELL, row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


def name_in(cell: str) -> str:
    return cell.removesuffix(" provisional").removesuffix(" provisorisk")


def played(
    organiser: User,
    players: int = 6,
    rounds_: int = 3,
    result: Callable[[Match], list[tuple[int, int]]] | None = None,
    **fields: Any,
) -> Tournament:
    """A tournament of ``players`` with ``rounds_`` rounds played (``fields``: its own)."""
    tournament = make_tournament(players, **{"swiss_rounds": rounds_, **fields})
    for _ in range(rounds_):
        play_round(tournament, organiser, result)
    return tournament


def upsets(match: Match) -> list[tuple[int, int]]:
    """Seat 0 wins 2-0, but at table 2 seat 1 wins 2-1: the ratings part unevenly."""
    return [(0, 100), (1, 90), (1, 80)] if match.table == 2 else [(0, 100), (0, 95)]


def test_the_list_shows_each_member_best_first_with_the_margin_and_marks(organiser: User) -> None:
    played(organiser)
    html = english().get(reverse("ratings:list")).content.decode()
    listed = ListRating.objects.select_related("player").order_by("-rating")
    shown = rows_of(html)
    assert [name_in(row[1]) for row in shown] == [r.player.name for r in listed]
    top = listed[0]
    assert shown[0][0] == "1"
    assert shown[0][3] == f"{round(top.rating)} ± {round(2 * top.deviation)}"
    assert all("provisional" in row[1] for row in shown)  # three matches say little yet
    assert all(row[5] == "new" for row in shown)  # all first rated in this tournament
    assert "Rating list (PDF)" in html


def test_the_change_is_what_the_latest_tournament_moved_each_rating(organiser: User) -> None:
    spring = played(organiser, players=6)
    autumn = tournament_services.tournament_create(
        name="Autumn Open", year=2026, starts_on=datetime.date(2026, 9, 5),
        ends_on=datetime.date(2026, 9, 5), swiss_rounds=2, seed=12,
    )  # fmt: skip
    for entry in spring.entries.select_related("player")[:4]:  # two of them stay at home
        tournament_services.entry_add(tournament=autumn, player=entry.player, checked_in=True)
    for _ in range(2):
        play_round(autumn, organiser)
    html = english().get(reverse("ratings:list")).content.decode()
    first = RatingPeriod.objects.filter(round__tournament=autumn).order_by("position")[0].position
    shown = rows_of(html)
    assert sum(row[5] == "" for row in shown) == 2
    for row in shown:
        if row[5] == "":
            continue
        player = spring.entries.get(player__name=name_in(row[1])).player
        history = PeriodRating.objects.filter(player=player).order_by("period__position")
        before = [r.rating for r in history if r.period.position < first][-1]
        change = round(history.last().rating - before)  # type: ignore[union-attr]
        sign = "+" if change > 0 else MINUS if change < 0 else ""
        assert row[5] == f"{sign}{abs(change)}", row


def test_a_club_shows_its_members_with_their_rank_on_the_whole_list(organiser: User) -> None:
    played(organiser)
    listed = list(ListRating.objects.select_related("player").order_by("-rating"))
    Player.objects.filter(pk__in=[listed[1].player_id, listed[4].player_id]).update(club="Lund")
    html = english().get(reverse("ratings:list"), {"club": "Lund"}).content.decode()
    assert [(row[0], name_in(row[1])) for row in rows_of(html)] == [
        ("2", listed[1].player.name),
        ("5", listed[4].player.name),
    ]
    everyone = english().get(reverse("ratings:list"), {"club": "Nowhere"}).content.decode()
    assert len(rows_of(everyone)) == len(listed)


def test_before_any_result_the_list_says_so(db: None) -> None:
    html = english().get(reverse("ratings:list")).content.decode()
    assert "No member is rated yet" in html


def test_the_printed_list_has_every_member_in_the_list_order(organiser: User) -> None:
    played(organiser)
    response = english().get(reverse("ratings:pdf"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    printed = render_html(rating_list_document())
    names = [r.player.name for r in ListRating.objects.select_related("player").order_by("-rating")]
    assert re.findall(r"<td>(Player \d\d)", printed) == names
    assert "Swedish Cribbage Club" in printed


BEST_WIN = r'<li><a href="/club/players/\d+/">(Player \d\d)</a> \((\d+|not yet rated)\)'


def test_a_members_page_shows_the_rating_its_history_and_best_wins(organiser: User) -> None:
    played(organiser)
    best = ListRating.objects.select_related("player").order_by("-rating")[0]
    html = english().get(reverse("player_detail", args=[best.player_id])).content.decode()
    history = PeriodRating.objects.filter(player_id=best.player_id).order_by("period__position")
    assert f"<strong>{round(best.rating)}</strong> ± {round(2 * best.deviation)}" in html
    line = re.search(r'<polyline class="line" points="([^"]+)"', html)
    assert line is not None
    assert len(line.group(1).split()) == history.count() == 3
    table = html.split('class="rating-history"', 1)[1].split("</table>", 1)[0]
    assert [cells[3] for cells in rows_of(table)] == [
        f"{round(r.rating)} ± {round(2 * r.deviation)}" for r in reversed(history)
    ]
    wins = re.findall(
        r'<li><a href="/club/players/\d+/">(Player \d\d)</a> \((\d+|not yet rated)\)', html
    )
    assert len(wins) == PeriodRating.objects.get(player_id=best.player_id, period__position=3).wins
    ratings = [0 if r == "not yet rated" else int(r) for _name, r in wins]
    assert ratings == sorted(ratings, reverse=True)


def test_an_unrated_members_page_says_so(db: None) -> None:
    player = Player.objects.create(name="Nils Ny", club="Lund", search_key="nils ny lund")
    html = english().get(reverse("player_detail", args=[player.pk])).content.decode()
    assert "Not rated yet" in html


def test_an_unplayed_match_shows_each_players_expected_score(organiser: User) -> None:
    spring = played(organiser, players=8, rounds_=2, result=upsets)
    tournament = tournament_services.tournament_create(
        name="Autumn Open", year=2026, starts_on=datetime.date(2026, 9, 5),
        ends_on=datetime.date(2026, 9, 5), swiss_rounds=2, seed=12,
    )  # fmt: skip
    for entry in spring.entries.select_related("player"):
        tournament_services.entry_add(tournament=tournament, player=entry.player, checked_in=True)
    round_ = rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    html = english().get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    uneven = 0
    for match in Match.objects.filter(round=round_, is_bye=False):
        first, second = (ListRating.objects.get(player=seat.entry.player) for seat in seats(match))
        now = [
            idle(Rating(r.rating, r.deviation, r.volatility), 2 - r.period.position)
            for r in (first, second)
        ]
        chance = round(100 * expected_score(now[0], now[1]))
        assert f"expected {chance}–{100 - chance} %" in html
        uneven += chance != 50
    assert uneven, "a match with a favourite, so that the seats' order shows"


def test_a_finished_tournament_says_how_often_the_favourite_won(organiser: User) -> None:
    tournament = played(organiser, players=8, rounds_=4, result=upsets)
    playoff.tournament_finish(tournament=tournament)
    won = of = 0
    for period in RatingPeriod.objects.filter(round__tournament=tournament).order_by("position"):
        for match in Match.objects.filter(round=period.round, is_bye=False):
            winner, loser = (seats(match)[match.winner or 0], seats(match)[1 - (match.winner or 0)])
            before = [_before(seat.entry.player_id, period.position) for seat in (winner, loser)]
            chance = expected_score(before[0], before[1])
            if chance != 0.5:
                of += 1
                won += chance > 0.5
    assert of > 0
    html = english().get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert f"The favourite by the ratings won {won} of {of} matches." in html


def _before(player: int, position: int) -> Rating:
    earlier = PeriodRating.objects.filter(player=player, period__position__lt=position)
    last = earlier.order_by("period__position").last()
    if last is None:
        return Rating()
    rating = Rating(last.rating, last.deviation, last.volatility)
    return idle(rating, position - 1 - last.period.position)


@pytest.mark.parametrize("language", ["sv", "en"])
def test_two_members_of_one_name_are_two_on_the_list_on_a_phone_too(
    organiser: User, language: str
) -> None:
    """A phone hides the club column: the name itself tells namesakes apart."""
    played(organiser)
    first, second, *_others = ListRating.objects.select_related("player").order_by("-rating")
    for line, club in ((first, "Uppsala"), (second, "Luleå")):
        Player.objects.filter(pk=line.player_id).update(name="Johan Andersson", club=club)
    client = Client()
    client.cookies["django_language"] = language
    shown = rows_of(client.get(reverse("ratings:list")).content.decode())
    assert name_in(shown[0][1]) == "Johan Andersson (Uppsala)"
    assert name_in(shown[1][1]) == "Johan Andersson (Luleå)"
    assert all("(" not in name_in(row[1]) for row in shown[2:])  # a name of its own stands alone
