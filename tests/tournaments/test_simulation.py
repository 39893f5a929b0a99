"""simulate_tournament: a rehearsal through the same services, games played by the engine."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from club.models import Player
from tests.tournaments.conftest import levels_played, simulate
from tournaments import bridge
from tournaments.models import Game, Match, ResultChange, Tournament
from tournaments.simulation import play_match

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


def test_levels_spread_the_players_in_turn_and_members_keep_theirs() -> None:
    first = levels_played(
        simulate(players=6, rounds=2, seed=3, levels="easy,standard", members=True)
    )
    members = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    assert [first[pk] for pk in members] == ["easy", "standard"] * 3
    again = levels_played(
        simulate(players=6, rounds=2, seed=4, levels="easy,standard", members=True)
    )
    assert again == first


def test_without_levels_every_player_plays_at_the_one_level() -> None:
    played = levels_played(simulate(players=4, rounds=1, seed=3, level="easy"))
    assert set(played.values()) == {"easy"}
    assert set(levels_played(simulate(players=4, rounds=1, seed=3)).values()) == {"standard"}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"levels": "easy,hard"}, "Unknown level 'hard' in --levels; the levels are easy, "),
        ({"levels": "easy,"}, "Unknown level '' in --levels; the levels are easy, standard, "),
        ({"levels": "easy,easy"}, "--levels names a level twice"),
        ({"levels": "easy,expert", "level": "easy"}, "Give --level (every player at one "),
    ],
)
def test_levels_the_engine_does_not_have_are_refused(options: dict[str, str], message: str) -> None:
    with pytest.raises(CommandError, match="^" + re.escape(message)):
        simulate(players=4, rounds=1, **options)
    assert not Tournament.objects.exists()


def test_each_seat_plays_at_its_own_level() -> None:
    # Standard beats easy in 98% of games (docs/engine-strength.md): in a best of 7,
    # whichever seat it has.
    for levels, standard in [(("easy", "standard"), 1), (("standard", "easy"), 0)]:
        played = play_match(seed=5, best_of=7, names=("A", "B"), levels=levels)
        assert [winner for winner, _ in played.games].count(standard) == 4
