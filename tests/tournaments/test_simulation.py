"""simulate_tournament: a rehearsal through the same services, games played by the engine."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournaments import bridge
from tournaments.models import Game, Match, ResultChange, Tournament

pytestmark = pytest.mark.django_db


def test_a_simulated_tournament_is_played_reported_confirmed_and_recorded() -> None:
    out = io.StringIO()
    call_command(
        "simulate_tournament",
        players=6,
        rounds=2,
        playoff=2,
        seed=3,
        level="easy",
        no_progress=True,
        stdout=out,
    )
    slug = out.getvalue().strip().splitlines()[-1]
    tournament = Tournament.objects.get(slug=slug)
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.champion_id
    assert (
        not Match.objects.filter(round__tournament=tournament)
        .exclude(status=Match.Status.FINAL)
        .exists()
    )
    games = Game.objects.filter(match__round__tournament=tournament)
    assert games.exists()
    assert not games.filter(record__isnull=True).exists()
    game = games.first()
    assert game is not None
    assert game.record is not None
    assert game.record["final_scores"][game.winner] == 121
    assert game.record["final_scores"][1 - game.winner] == game.loser_score
    actions = set(
        ResultChange.objects.filter(match__round__tournament=tournament).values_list(
            "action", flat=True
        )
    )
    assert actions == {"reported", "confirmed"}
    page = (
        Client()
        .get(reverse("tournaments:game_record", args=[slug, game.match_id, game.number]))
        .content.decode()
    )
    first_deal = game.record["deals"][0]
    assert first_deal["starter"] in page
    assert f"[{game.record['final_scores'][0]}–{game.record['final_scores'][1]}]" in page
    match_page = Client().get(reverse("tournaments:match", args=[slug, game.match_id])).content
    assert reverse("tournaments:game_record", args=[slug, game.match_id, 1]).encode() in match_page
    leader = bridge.standings(tournament)[0].entry.player.name
    assert leader[:28] in out.getvalue()


def test_the_same_seed_gives_the_same_tournament() -> None:
    standings = []
    for run in range(2):
        out = io.StringIO()
        call_command(
            "simulate_tournament",
            players=4,
            rounds=2,
            seed=5,
            level="easy",
            no_progress=True,
            name=f"Run {run}",
            stdout=out,
        )
        table = out.getvalue().split("standings", 1)[1].split("(")[0]
        standings.append(table)
    assert standings[0] == standings[1]


def test_stopping_partway_leaves_a_round_in_play() -> None:
    out = io.StringIO()
    call_command(
        "simulate_tournament",
        players=8,
        rounds=4,
        seed=2,
        level="easy",
        stop_after=2,
        no_progress=True,
        stdout=out,
    )
    tournament = Tournament.objects.get(slug=out.getvalue().strip().splitlines()[-1])
    current = tournament.rounds.order_by("-number").first()
    assert current is not None
    assert current.number == 3
    assert current.status == "playing"
