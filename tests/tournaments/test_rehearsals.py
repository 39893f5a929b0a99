"""A rehearsal never looks like the real thing (issue 33 §6).

Every list of tournaments marks a rehearsal ("Repetition — räknas inte på ratinglistan")
and an unrated tournament ("Räknas inte på ratinglistan") and shows the real ones first;
every page and PDF of theirs carries the mark; and a rehearsal with made-up players
touches no member's page, nor the register, the rating list or the lobby. The pages are
read as a visitor reads them (their text, tags left out), in Swedish (the default) and in
English.
"""

from __future__ import annotations

import datetime
import io
import json
import re
from dataclasses import dataclass
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from club.models import Player
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tests.tournaments.conftest import play_round, simulate
from tournaments.exchange import export_tournament, import_tournament
from tournaments.models import Game, Match, Round, Tournament
from tournaments.services import tournaments as services

pytestmark = pytest.mark.django_db

REHEARSAL = {"sv": "Repetition — räknas inte på ratinglistan", "en": "Rehearsal — not rated"}
UNRATED = {"sv": "Räknas inte på ratinglistan", "en": "Not rated"}
MEANING = {
    "sv": "Spelad av datorn för att prova webbplatsen",
    "en": "Played by the computer to try the site out",
}
MARKS = [*REHEARSAL.values(), *UNRATED.values()]
MEMBERS = ["Anna Berg", "Björn Åkesson", "Cecilia Ek", "David Lind"]
LANGUAGES = pytest.mark.parametrize("language", ["sv", "en"])


class VisibleText(HTMLParser):
    """A page's text as a reader sees it: no tags, scripts or styles; ``items`` the text
    of each element named ``item`` (a row, a list item), in page order."""

    def __init__(self, item: str = "") -> None:
        super().__init__()
        self.item, self.depth, self.skip = item, 0, 0
        self.parts: list[str] = []
        self.items: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        if tag == self.item:
            if self.depth == 0:
                self.items.append("")
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1
        if tag == self.item and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        self.parts.append(data)
        if self.depth:
            self.items[-1] += data

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.parts).split())


def read(client: Client, address: str, *, item: str = "") -> VisibleText:
    response = client.get(address, follow=True)
    assert response.status_code == 200, address
    page = VisibleText(item)
    page.feed(response.content.decode())
    page.items = [" ".join(text.split()) for text in page.items]
    return page


def visitor(language: str, user: User | None = None) -> Client:
    client = Client()
    if language != "sv":  # Swedish is the site's default: no cookie
        client.cookies["django_language"] = language
    if user is not None:
        client.force_login(user)
    return client


def slug_of(out: str) -> str:
    return out.strip().splitlines()[-1]


@dataclass
class Club:
    """Four members; a rated tournament of last year, an unrated one and two rehearsals
    of this year (one finished with a play-off, one with its second round in play)."""

    organiser: User
    anna: Player
    real: Tournament
    friendly: Tournament
    rehearsal: Tournament
    in_play: Tournament

    @property
    def in_order(self) -> list[str]:
        """The names as every list must show them: the real one, the unrated, rehearsals."""
        return [self.real.name, self.friendly.name, self.rehearsal.name, self.in_play.name]


@pytest.fixture
def club() -> Club:
    organiser = OrganiserFactory.create()
    members = [
        PlayerFactory.create(name=name, club="Uppsala", user=UserFactory.create())
        for name in MEMBERS
    ]
    real = services.tournament_create(
        name="Vårcupen",
        year=2025,
        starts_on=datetime.date(2025, 4, 5),
        ends_on=datetime.date(2025, 4, 5),
        swiss_rounds=2,
        seed=1,
    )
    friendly = services.tournament_create(
        name="Vänskapsturneringen",
        year=2026,
        starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 3, 1),
        rated=False,
        seed=2,
    )
    for tournament in (real, friendly):
        for member in members:
            services.entry_add(tournament=tournament, player=member, checked_in=True)
    play_round(real, organiser)
    shared = {"players": 4, "best_of": 1, "level": "easy", "year": 2026, "members": True}
    rehearsal = slug_of(simulate(name="Generalrepetitionen", rounds=1, playoff=2, seed=3, **shared))
    # Every member can log in, so round 2's matches are left for them to report: in play.
    in_play = slug_of(simulate(name="Repetition i spel", rounds=2, stop_after=1, seed=4, **shared))
    return Club(
        organiser,
        members[0],
        real,
        friendly,
        Tournament.objects.get(slug=rehearsal),
        Tournament.objects.get(slug=in_play),
    )


def mark_of(text: str) -> str:
    """The mark a row or page carries ("" for none)."""
    return next((mark for mark in MARKS if mark in text), "")


def assert_listed_in_order_with_marks(items: list[str], club: Club, language: str) -> None:
    rows = {name: next(row for row in items if name in row) for name in club.in_order}
    assert sorted(rows, key=lambda name: items.index(rows[name])) == club.in_order
    assert [mark_of(rows[name]) for name in club.in_order] == [
        "",
        UNRATED[language],
        REHEARSAL[language],
        REHEARSAL[language],
    ]


@LANGUAGES
def test_the_list_of_tournaments_marks_them_and_shows_the_real_ones_first(
    club: Club, language: str
) -> None:
    page = read(visitor(language), reverse("tournaments:list"), item="tr")
    assert_listed_in_order_with_marks(page.items, club, language)


@LANGUAGES
def test_a_members_page_marks_them_and_shows_the_real_ones_first(club: Club, language: str) -> None:
    page = read(visitor(language), reverse("player_detail", args=[club.anna.pk]), item="li")
    assert_listed_in_order_with_marks(page.items, club, language)


@LANGUAGES
def test_the_home_page_marks_a_members_match_now_in_a_rehearsal(club: Club, language: str) -> None:
    assert club.anna.user is not None
    page = read(visitor(language, club.anna.user), reverse("home"), item="h2")
    heading = next(h for h in page.items if club.in_play.name in h)
    assert REHEARSAL[language] in heading


@LANGUAGES
def test_the_championship_panels_mark_an_unrated_championship(language: str) -> None:
    day = datetime.date(2026, 6, 1)
    services.tournament_create(
        name="SM 2026", year=2026, starts_on=day, ends_on=day, is_championship=True, rated=False
    )
    for address in (reverse("home"), reverse("tournaments:list")):
        heading = next(h for h in read(visitor(language), address, item="h2").items if "SM" in h)
        assert UNRATED[language] in heading, address


def pages_of(club: Club) -> list[str]:
    """Every page a visitor reaches of the finished rehearsal."""
    slug = club.rehearsal.slug
    match = Match.objects.filter(round__tournament=club.rehearsal, is_bye=False).first()
    assert match is not None
    entry = club.rehearsal.entries.first()
    assert entry is not None
    assert Game.objects.filter(match=match, record__isnull=False).exists()
    return [
        reverse("tournaments:detail", args=[slug]),
        reverse("tournaments:round", args=[slug, 1]),
        reverse("tournaments:round", args=[slug, 2]),
        reverse("tournaments:match", args=[slug, match.pk]),
        reverse("tournaments:game_record", args=[slug, match.pk, 1]),
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:entry", args=[slug, entry.pk]),
        reverse("tournaments:playoff", args=[slug]),
        reverse("private_link", args=[entry.private_key]),
    ]


def organisers_pages_of(club: Club) -> list[str]:
    """The organisers' desk and forms of the rehearsals."""
    slug = club.rehearsal.slug
    return [
        reverse("tournaments:detail", args=[slug]),
        reverse("tournaments:entries", args=[slug]),
        reverse("tournaments:private_links", args=[slug]),
        reverse("tournaments:edit", args=[slug]),
        reverse("tournaments:round", args=[club.in_play.slug, 2]),
    ]


@LANGUAGES
def test_every_page_of_a_rehearsal_says_it_is_one(club: Club, language: str) -> None:
    for address in pages_of(club):
        text = read(visitor(language), address).text
        assert REHEARSAL[language] in text, address
        assert MEANING[language] in text, address
    for address in organisers_pages_of(club):
        assert REHEARSAL[language] in read(visitor(language, club.organiser), address).text


@LANGUAGES
def test_an_unrated_tournaments_page_says_so_and_a_real_ones_says_nothing(
    club: Club, language: str
) -> None:
    friendly = read(visitor(language), reverse("tournaments:detail", args=[club.friendly.slug]))
    assert UNRATED[language] in friendly.text
    real = read(visitor(language), reverse("tournaments:detail", args=[club.real.slug]))
    assert not mark_of(real.text)


def pdf_pages(client: Client, address: str) -> list[str]:
    response = client.get(address)
    assert response.status_code == 200, address
    assert response["Content-Type"] == "application/pdf", address
    return [
        " ".join(page.extract_text().split())
        for page in PdfReader(io.BytesIO(response.content)).pages
    ]


@LANGUAGES
def test_every_document_of_a_rehearsal_says_it_is_one(club: Club, language: str) -> None:
    slug = club.rehearsal.slug
    documents = [
        reverse("tournaments:pairings_pdf", args=[slug, 1]),
        reverse("tournaments:scoresheets_pdf", args=[slug, 1]),
        reverse("tournaments:standings_pdf", args=[slug]),
        reverse("tournaments:crosstable_pdf", args=[slug]),
        reverse("tournaments:playoff_pdf", args=[slug]),
        reverse("tournaments:slips_pdf", args=[slug]),
    ]
    client = visitor(language, club.organiser)  # organisers are never made to wait
    for address in documents:
        for number, text in enumerate(pdf_pages(client, address), start=1):
            assert REHEARSAL[language] in text, f"{address}, page {number}: {text[:300]}"
    real = pdf_pages(client, reverse("tournaments:standings_pdf", args=[club.real.slug]))
    assert not any(mark_of(text) for text in real)


def member_pages(client: Client) -> dict[str, str]:
    """What a visitor reads of every member's page, the register and the rating list."""
    addresses = [reverse("player_list"), reverse("ratings:list")] + [
        reverse("player_detail", args=[pk])
        for pk in Player.objects.filter(fictional=False).values_list("pk", flat=True)
    ]
    return {address: read(client, address).text for address in addresses}


@LANGUAGES
def test_a_rehearsal_with_made_up_players_touches_no_members_page(language: str) -> None:
    organiser = OrganiserFactory.create()
    members = [
        PlayerFactory.create(name=name, club="Uppsala", user=UserFactory.create())
        for name in MEMBERS
    ]
    real = services.tournament_create(
        name="Vårcupen",
        year=2025,
        starts_on=datetime.date(2025, 4, 5),
        ends_on=datetime.date(2025, 4, 5),
        seed=1,
    )
    for member in members:
        services.entry_add(tournament=real, player=member, checked_in=True)
    play_round(real, organiser)  # the members are on the rating list
    before = member_pages(visitor(language))
    slug = slug_of(simulate(players=6, rounds=2, best_of=1, level="easy", seed=5, fictional=True))
    rehearsal = Tournament.objects.get(slug=slug)
    made_up = [entry.player for entry in rehearsal.entries.select_related("player")]
    assert len(made_up) == 6
    assert all(player.fictional and player.user is None for player in made_up)
    assert not {player.name for player in made_up} & set(MEMBERS)
    assert member_pages(visitor(language)) == before
    # The lobby offers members to challenge: the made-up players have no account to be one.
    assert members[0].user is not None
    lobby = read(visitor(language, members[0].user), reverse("play:lobby")).text
    for player in made_up:
        assert player.name not in lobby
        assert visitor(language).get(reverse("player_detail", args=[player.pk])).status_code == 404
    entry = rehearsal.entries.select_related("player").first()
    assert entry is not None
    page = read(visitor(language), reverse("tournaments:entry", args=[slug, entry.pk])).text
    assert {"sv": "påhittad spelare", "en": "made-up player"}[language] in page
    assert reverse("player_detail", args=[entry.player.pk]) not in page


def test_without_members_a_rehearsal_makes_up_its_players_and_with_them_asks_which() -> None:
    slug = slug_of(simulate(players=4, rounds=1, best_of=1, level="easy", seed=1))
    rehearsal = Tournament.objects.get(slug=slug)
    assert rehearsal.rehearsal
    assert not rehearsal.rated
    assert not Player.objects.filter(fictional=False).exists()
    PlayerFactory.create(name="Anna Berg", club="Uppsala")
    with pytest.raises(CommandError, match="--fictional .* or --members"):
        simulate(players=4, rounds=1, best_of=1, level="easy", seed=2)
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        ({"fictional": True, "rated": True}, "Made-up players are never rated"),
        ({"championship": True}, "A rehearsal is never the year's championship"),
    ],
)
def test_simulate_tournament_refuses_what_a_rehearsal_never_is(
    options: dict[str, bool], refusal: str
) -> None:
    with pytest.raises(CommandError, match=re.escape(refusal)):
        simulate(players=4, rounds=1, seed=1, **options)
    assert not Tournament.objects.exists()
    assert not Player.objects.exists()


def test_a_rehearsal_is_never_rated_nor_made_a_championship() -> None:
    slug = slug_of(simulate(players=4, rounds=1, best_of=1, level="easy", seed=1))
    rehearsal = Tournament.objects.get(slug=slug)
    with pytest.raises(CommandError, match="a rehearsal is never rated"):
        call_command("set_tournament_rated", slug, "--rated", stdout=io.StringIO())
    for change in ({"rated": True}, {"is_championship": True}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Tournament.objects.filter(pk=rehearsal.pk).update(**change)
    rehearsal.refresh_from_db()
    assert (rehearsal.rehearsal, rehearsal.rated, rehearsal.is_championship) == (True, False, False)


def test_a_made_up_player_plays_in_rehearsals_only() -> None:
    slug = slug_of(simulate(players=4, rounds=1, best_of=1, level="easy", seed=1))
    rehearsal = Tournament.objects.get(slug=slug)
    made_up = Player.objects.filter(fictional=True).first()
    assert made_up is not None
    day = datetime.date(2026, 6, 1)
    real = services.tournament_create(name="Cupen", year=2026, starts_on=day, ends_on=day)
    with pytest.raises(Exception, match="made up for a rehearsal"):
        services.entry_add(tournament=real, player=made_up)
    # An import of the rehearsal's export is no rehearsal: it takes none of its players.
    data = json.loads(json.dumps(export_tournament(rehearsal)))
    copy = import_tournament(data, slug="copy")
    assert not copy.entries.filter(player__fictional=True).exists()
    assert copy.entries.count() == 4


def test_the_admin_shows_which_tournament_is_a_rehearsal() -> None:
    slug = slug_of(simulate(players=4, rounds=1, best_of=1, level="easy", seed=1))
    rehearsal = Tournament.objects.get(slug=slug)
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    client = visitor("en", admin)
    listing = read(client, reverse("admin:tournaments_tournament_changelist")).text
    assert "Rehearsal" in listing
    change = read(client, reverse("admin:tournaments_tournament_change", args=[rehearsal.pk]))
    assert "Rehearsal" in change.text
    form = client.get(reverse("admin:tournaments_tournament_change", args=[rehearsal.pk]))
    assert 'name="rehearsal"' not in form.content.decode()  # shown, not changed here
    assert Round.objects.filter(tournament=rehearsal).exists()


def test_the_admin_refuses_a_made_up_player_in_a_real_tournament() -> None:
    slug = slug_of(simulate(players=4, rounds=1, best_of=1, level="easy", seed=1))
    made_up = Player.objects.filter(fictional=True).first()
    assert made_up is not None
    day = datetime.date(2026, 6, 1)
    real = services.tournament_create(name="Cupen", year=2026, starts_on=day, ends_on=day)
    admin = UserFactory.create(is_staff=True, is_superuser=True)
    client = visitor("en", admin)
    add = reverse("admin:tournaments_entry_add")
    form = {"player": made_up.pk, "first_round": 1}
    refused = client.post(add, {**form, "tournament": real.pk})
    assert refused.status_code == 200
    assert "made up for a rehearsal and plays in rehearsals only" in refused.content.decode()
    assert not real.entries.exists()
    # In another rehearsal they may play (as simulate_tournament never does: its own are new).
    other = services.tournament_create(
        name="Repetition", year=2026, starts_on=day, ends_on=day, rated=False, rehearsal=True
    )
    assert client.post(add, {**form, "tournament": other.pk}).status_code == 302
    assert other.entries.get().player == made_up
    assert Tournament.objects.get(slug=slug).entries.filter(player=made_up).exists()
