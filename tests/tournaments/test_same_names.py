"""Two players with the same name are told apart on the organiser's desk (the round's
"needs attention" list), the round's table of pairings and the pairings' find-your-table
list (``club.names.distinct_names``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from club.models import Player
from tests.tournaments.conftest import make_tournament
from tournaments.printing import documents
from tournaments.services import rounds

pytestmark = pytest.mark.django_db
TOLD_APART = ("Johan Andersson (Uppsala)", "Johan Andersson (Luleå)")


def test_two_johan_andersson_are_told_apart_by_club(organiser: User) -> None:
    tournament = make_tournament(4, accounts=False)
    players = list(Player.objects.order_by("pk"))
    for player, club in zip(players[:2], ("Uppsala", "Luleå"), strict=True):
        player.name, player.club = "Johan Andersson", club
        player.save(update_fields=["name", "club"])
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    client = Client()
    client.cookies["django_language"] = "en"
    client.force_login(organiser)
    page = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    attention = page[page.index('id="attention"') : page.index('id="pairings"')]
    table = page[page.index('id="pairings"') :]
    for told in TOLD_APART:
        assert told in attention
        assert told in table
    finder = documents.pairings(round_).context["finder"]
    johans = [line for line in finder if line.name == "Johan Andersson"]
    assert sorted(line.label for line in johans) == sorted(TOLD_APART)
    opponents = {line.opponent_label for line in finder if line.opponent is not None}
    assert set(TOLD_APART) <= opponents
    others = [line for line in finder if line.name != "Johan Andersson"]
    assert all(line.label == "" for line in others)  # a name of its own is shown with its club


@pytest.mark.parametrize("language", ["sv", "en"])
def test_a_match_of_a_johan_andersson_names_which_one_in_its_heading(
    organiser: User, language: str
) -> None:
    tournament = make_tournament(4, accounts=False)
    players = list(Player.objects.order_by("pk"))
    for player, club in zip(players[:2], ("Uppsala", "Luleå"), strict=True):
        player.name, player.club = "Johan Andersson", club
        player.save(update_fields=["name", "club"])
    round_ = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=round_)
    client = Client()
    client.cookies["django_language"] = language
    for match in round_.matches.filter(is_bye=False):
        page = client.get(reverse("tournaments:match", args=[tournament.slug, match.pk]))
        heading = page.content.decode().split("<h1>", 1)[1].split("</h1>", 1)[0]
        for seat in match.seats.select_related("entry__player"):
            player = seat.entry.player
            shown = f"{player.name} ({player.club})" if player in players[:2] else player.name
            assert shown in heading
