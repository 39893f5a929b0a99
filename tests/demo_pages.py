"""The pages of the demo data (``manage.py seed_demo``) that the page-by-page tests open,
and who opens them: a visitor, the demo player and the demo organiser."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.urls import reverse

from club.models import Player
from demo.club import DEMO_ORGANISER, DEMO_PLAYER
from play.models import Challenge, OnlineGame
from tournaments.models import Entry, Match, Round, Tournament


def public_pages() -> list[str]:
    """The demo's public pages: the register, both championships, their rounds and matches."""
    pages = [reverse(name) for name in ("home", "player_list", "tournaments:list", "login")]
    pages += [reverse(name) for name in ("play:index", "play:stats", "ratings:list")]
    player = Player.objects.filter(list_rating__isnull=False).order_by("pk").first()
    assert player is not None, "a demo member is rated (their page shows the chart)"
    pages.append(reverse("player_detail", args=[player.pk]))
    for tournament in Tournament.objects.order_by("year"):
        slug = tournament.slug
        pages += [reverse(f"tournaments:{name}", args=[slug]) for name in ("detail", "standings")]
        if tournament.playoff_size:
            pages.append(reverse("tournaments:playoff", args=[slug]))
        for round_ in tournament.rounds.exclude(status=Round.Status.PROPOSED):
            pages.append(reverse("tournaments:round", args=[slug, round_.number]))
        match = (
            Match.objects.filter(round__tournament=tournament, is_bye=False, games__isnull=False)
            .order_by("pk")
            .first()
        )
        assert match is not None
        pages.append(reverse("tournaments:match", args=[slug, match.pk]))
        pages.append(reverse("tournaments:game_record", args=[slug, match.pk, 1]))
        entry = Entry.objects.filter(tournament=tournament).order_by("pk").first()
        assert entry is not None
        pages.append(reverse("tournaments:entry", args=[slug, entry.pk]))
    watched = OnlineGame.objects.filter(match__isnull=False).order_by("pk").first()
    assert watched is not None, "the demo has a championship match played on the site"
    pages.append(reverse("play:online_game", args=[watched.pk]))  # a spectator's
    return pages


def organiser_pages() -> list[str]:
    championship = Tournament.objects.order_by("-year").first()
    assert championship is not None
    slug = championship.slug
    pages = [reverse(name) for name in ("player_add", "lockouts", "tournaments:create")]
    pages += [
        reverse(f"tournaments:{name}", args=[slug]) for name in ("edit", "entries", "private_links")
    ]
    return pages


READERS: tuple[tuple[str, str] | None, ...] = (None, DEMO_PLAYER, DEMO_ORGANISER)
"""A visitor (None), then the demo player's and the demo organiser's (username, password)."""


def player_pages() -> list[str]:
    """The demo player's games against another member (the lobby and each game's page) and
    her championship match with her proposal to play it on the site."""
    games = OnlineGame.objects.filter(seat_0__username=DEMO_PLAYER[0]).order_by("pk")
    assert games.exists()
    pages = [reverse("play:lobby")] + [reverse("play:online_game", args=[g.pk]) for g in games]
    proposed = (
        Challenge.objects.filter(challenger__username=DEMO_PLAYER[0], match__isnull=False)
        .select_related("match__round__tournament")
        .first()
    )
    assert proposed is not None, "Anna proposed to play her championship match on the site"
    match = proposed.match
    assert match is not None
    return [*pages, reverse("tournaments:match", args=[match.round.tournament.slug, match.pk])]


def pages_for(reader: tuple[str, str] | None) -> list[str]:
    """The pages ``reader`` reaches: the public ones, their account's, a player's online
    games, an organiser's."""
    pages = public_pages()
    if reader is not None:
        pages += [reverse("account"), reverse("password_change")]
    if reader == DEMO_PLAYER:
        pages += player_pages()
    if reader == DEMO_ORGANISER:
        pages += organiser_pages()
    return pages


def browser_tabs(
    browser: Any, base_url: str, *, language: str = "sv", **options: Any
) -> Iterator[tuple[str, Any, list[str]]]:
    """For each of ``READERS``: their name, a tab logged in as them and the pages they reach.

    ``options`` are the browser context's (a viewport, say); the tab closes after use.
    """
    for reader in READERS:
        context = browser.new_context(locale="sv-SE" if language == "sv" else "en-GB", **options)
        context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.base = base_url
        if reader is not None:
            log_in(page, reader[0])
        yield (reader[0] if reader else "visitor"), page, pages_for(reader)
        context.close()


def log_in(page: Any, username: str) -> None:
    """Logs ``page``'s browser context in as ``username`` by a session cookie.

    Not by the login form: a form filled, posted and redirected for every tab took
    seconds of each browser test (docs/benchmarks.md, "Fast feedback"), and the form is
    not what these tests are about; tests/club/test_accounts.py tests it, and the
    championship day's browser test logs in through it.
    """
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    session = Client()
    session.force_login(User.objects.get(username=username))
    cookie = session.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": page.base}]
    )
    # The account page answers a member (a visitor is sent to the login page).
    answer = page.context.request.get(page.base + reverse("account"), max_redirects=0)
    assert answer.status == 200, f"{username} is not logged in: {answer.status}"


def start_practice_game(page: Any) -> None:
    """Start a practice game from the play page's form; the tab is left on its page."""
    page.goto(page.base + reverse("play:index"))
    page.locator("form.start-form button[type=submit]").click()
    page.wait_for_url("**/play/*/")
    page.wait_for_load_state()
