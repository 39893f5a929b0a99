"""A spectator's browser polls the round with its ETag: unchanged, a 304; after a result, news."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import OrganiserFactory
from tests.tournaments.conftest import make_tournament
from tournaments.services import results, rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_polled_pairings_are_revalidated(page: Any, live_server: Any) -> None:
    from playwright.sync_api import expect

    tournament = make_tournament(4, swiss_rounds=2)
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    url = f"{live_server.url}/t/{tournament.slug}/round/1/"
    page.goto(url)
    # Bytes of body each poll brought over the network: none when the server said 304
    # (the browser then hands htmx the copy it kept).
    bodies: list[int] = []
    page.on("requestfinished", lambda request: bodies.append(request.sizes()["responseBodySize"]))

    def poll() -> None:
        # What the section's every-15-s trigger does, without the wait.
        page.evaluate(
            "htmx.ajax('GET', location.pathname, {target: '#pairings', swap: 'outerHTML'})"
        )
        page.wait_for_timeout(500)

    poll()  # the first poll of the fragment: fetched and kept
    poll()
    assert bodies[-2] > 0
    assert bodies[-1] == 0
    match = round_.matches.get(table=1)
    organiser = OrganiserFactory.create(username="organiser")
    results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 66), (0, 77)])
    poll()
    assert bodies[-1] > 0
    expect(page.locator("#pairings")).to_contain_text("121–66")
