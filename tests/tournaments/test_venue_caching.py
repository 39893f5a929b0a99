"""What a busy venue's pages keep between readers, and that none of it outlives a change."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from core.caching import computed_once
from tests.tournaments.conftest import make_tournament, play_round
from tournaments import selectors
from tournaments.models import Match, Tournament
from tournaments.services import results, rounds, tournaments

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(organiser: User) -> Tournament:
    """Rounds 1 and 2 closed, round 3 published and unreported."""
    tournament = make_tournament(8)
    play_round(tournament, organiser)
    play_round(tournament, organiser)
    rounds.round_publish(round=rounds.round_propose(tournament=tournament))
    return tournament


def versions(tournament: Tournament) -> dict[int, int]:
    return dict(tournament.rounds.values_list("number", "results_version"))


def test_a_result_moves_its_own_round_and_anything_else_moves_every_round(
    playing: Tournament, organiser: User
) -> None:
    before = versions(playing)
    match = Match.objects.get(round__tournament=playing, round__number=3, table=1)
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 80)] * 2)
    after_result = versions(playing)
    assert after_result == {**before, 3: before[3] + 1}

    entry = playing.entries.first()
    assert entry is not None
    tournaments.entry_withdraw(entry=entry)
    assert all(versions(playing)[n] > after_result[n] for n in (1, 2, 3))


def test_the_records_before_a_round_follow_a_corrected_earlier_result(
    playing: Tournament, organiser: User
) -> None:
    match = Match.objects.get(round__tournament=playing, round__number=2, table=1)
    winner, loser = (seat.entry_id for seat in sorted(match.seats.all(), key=lambda s: s.seat))
    kept = selectors.records_before(playing, 3)
    assert selectors.records_before(playing, 3) == kept  # read again from the cache

    # Round 3's results do not change the records before it: still the kept ones.
    other = Match.objects.get(round__tournament=playing, round__number=3, table=1)
    results.match_settle(match=other, organiser=organiser, first_dealer=0, games=[(0, 70)] * 2)
    assert selectors.records_before(playing, 3) == kept

    # An organiser turns round 2's table 1 around: both records change at once.
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(1, 70)] * 2)
    corrected = selectors.records_before(playing, 3)
    won, lost = (int(n) for n in kept[winner].split("-"))
    assert corrected[winner] == f"{won - 1}-{lost + 1}"
    won, lost = (int(n) for n in kept[loser].split("-"))
    assert corrected[loser] == f"{won + 1}-{lost - 1}"


def test_the_pairings_page_shows_a_corrected_earlier_result_in_the_records(
    playing: Tournament, organiser: User
) -> None:
    page = reverse("tournaments:round", args=[playing.slug, 3])
    client = Client()
    client.cookies["django_language"] = "en"
    match = Match.objects.get(round__tournament=playing, round__number=2, table=1)
    loser = next(seat for seat in match.seats.all() if seat.seat == 1).entry
    record = selectors.records_before(playing, 3)[loser.pk]
    assert f'{loser.player.name}</a> <span class="muted">({record})' in client.get(page).text

    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(1, 70)] * 2)
    won, lost = (int(n) for n in record.split("-"))
    text = client.get(page).text
    assert f'{loser.player.name}</a> <span class="muted">({won + 1}-{lost - 1})' in text


def test_readers_asking_at_once_wait_for_one_computation() -> None:
    computed: list[int] = []
    answers: list[object] = []

    def slow() -> str:
        computed.append(1)
        time.sleep(0.3)
        return "the table"

    def reader() -> None:
        answers.append(computed_once("venue:table", slow, timeout=60, wait=5))

    readers = [threading.Thread(target=reader) for _ in range(4)]
    for thread in readers:
        thread.start()
    for thread in readers:
        thread.join()
    assert computed == [1]
    assert answers == ["the table"] * 4


def test_nothing_is_kept_when_the_computation_answers_none() -> None:
    assert computed_once("venue:nothing", lambda: None, timeout=60, wait=1) is None
    assert cache.get("venue:nothing") is None
    assert computed_once("venue:nothing", lambda: "now", timeout=60, wait=1) == "now"


def test_the_cacheonce_tag_keeps_a_fragment_per_key() -> None:
    template = Template("{% load fragments %}{% cacheonce t n %}{{ text }}{% endcacheonce %}")
    assert template.render(Context({"n": 1, "text": "first"})) == "first"
    assert template.render(Context({"n": 1, "text": "second"})) == "first"
    assert template.render(Context({"n": 2, "text": "second"})) == "second"


def test_a_private_page_opened_again_writes_no_session(playing: Tournament) -> None:
    entry = playing.entries.first()
    assert entry is not None
    client = Client()
    first = client.get(reverse("private_link", args=[entry.private_key]))
    assert first.status_code == 200
    assert "sessionid" in first.cookies
    again = client.get(reverse("private_link", args=[entry.private_key]))
    assert again.status_code == 200
    assert "sessionid" not in again.cookies
