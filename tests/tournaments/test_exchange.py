"""export_tournament / import_tournament: the whole tournament as JSON, and back."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command

from tests.tournaments.conftest import account, make_tournament, play_round, seats
from tournaments.access import Actor
from tournaments.exchange import import_tournament
from tournaments.models import Game, Match, Round, Tournament
from tournaments.services import playoff, results, rounds

pytestmark = pytest.mark.django_db


def export(slug: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("export_tournament", slug, stdout=out)
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


@pytest.fixture
def played(organiser: User) -> Tournament:
    tournament = make_tournament(5, swiss_rounds=2)
    play_round(tournament, organiser, lambda m: [(0, 88), (1, 60), (0, 100)])
    play_round(tournament, organiser)
    return tournament


def test_the_export_has_the_documented_shape(played: Tournament) -> None:
    data = export(played.slug)
    assert data["tournament"]["game_points"] == {"win": 2, "skunk": 3, "double_skunk": 4}
    assert data["tournament"]["best_of"] == 3
    assert data["tournament"]["tiebreaks"][0] == "match_wins"
    first = data["rounds"][0]
    assert len(first["byes"]) == 1
    assert len(first["matches"]) == 2
    match = first["matches"][0]
    # The loser deals next: game 1 dealt by seat 0, who won; game 2 by seat 1, who won;
    # game 3 by seat 0.
    assert [g["dealer"] for g in match["games"]] == [
        match["players"][0],
        match["players"][1],
        match["players"][0],
    ]
    assert match["winner"] == match["players"][0]
    assert {p["id"] for p in data["players"]} >= {p for m in first["matches"] for p in m["players"]}
    assert [s["rank"] for s in data["standings"]] == sorted(s["rank"] for s in data["standings"])


def test_export_then_import_gives_the_same_tournament(played: Tournament, tmp_path: Path) -> None:
    data = export(played.slug)
    file = tmp_path / "t.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    out = io.StringIO()
    call_command("import_tournament", str(file), slug="copy", stdout=out)
    assert out.getvalue().strip().splitlines()[-1] == "copy"
    again = export("copy")
    data["tournament"].pop("slug")
    again["tournament"].pop("slug")
    assert again == data


def test_an_impossible_import_saves_nothing(played: Tournament, tmp_path: Path) -> None:
    data = export(played.slug)
    data["rounds"][1]["matches"][0]["games"][0]["loser_score"] = 130
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    before = (Tournament.objects.count(), Game.objects.count())
    with pytest.raises(CommandError, match="120"):
        call_command("import_tournament", str(file), slug="bad")
    assert (Tournament.objects.count(), Game.objects.count()) == before
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_tournament", str(file))


def written(tournament: Tournament) -> list[tuple[Any, ...]]:
    """Every match of the tournament as it is stored, its seats and games, players by name."""
    matches = (
        Match.objects.filter(round__tournament=tournament)
        .select_related("round")
        .prefetch_related("seats__entry__player", "games")
    )
    lines = [
        (
            match.round.number,
            match.table,
            match.is_bye,
            match.best_of,
            match.bracket_slot,
            match.status,
            match.first_dealer,
            match.winner,
            tuple((seat.seat, seat.entry.player.name) for seat in match.seats.all()),
            tuple(
                (game.number, game.dealer, game.winner, game.loser_score)
                for game in match.games.all()
            ),
        )
        for match in matches
    ]
    return sorted(lines, key=repr)


def test_an_imported_tournament_is_written_as_the_site_writes_one(organiser: User) -> None:
    tournament = make_tournament(5, swiss_rounds=3)
    play_round(tournament, organiser, lambda m: [(0, 88), (1, 60), (0, 100)])
    play_round(tournament, organiser)
    third = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=third)
    match = third.matches.filter(is_bye=False).first()
    assert match is not None
    reporter = Actor(user=account(seats(match)[0]))
    results.match_report_result(match=match, by=reporter, first_dealer=1, games=[(0, 50)])
    copy = import_tournament(export(tournament.slug), slug="copy")
    assert written(copy) == written(tournament)
    assert Match.Status.IN_PLAY in {line[5] for line in written(copy)}


def test_a_play_off_with_byes_is_exported_and_imported_whole(organiser: User) -> None:
    tournament = make_tournament(7, swiss_rounds=1, playoff_size=6)
    play_round(tournament, organiser)
    first = playoff.playoff_start(tournament=tournament)
    decided, undecided = first.matches.filter(is_bye=False).order_by("bracket_slot")
    results.match_settle(match=decided, organiser=organiser, first_dealer=0, games=[(1, 9)] * 2)
    data = export(tournament.slug)
    top = [row["player"] for row in data["standings"][:6]]
    seeds = {player["id"]: player.get("playoff_seed") for player in data["players"]}
    assert [seeds[player] for player in top] == [1, 2, 3, 4, 5, 6]
    assert data["rounds"][1]["byes"] == [
        {"player": top[0], "bracket_slot": 0},
        {"player": top[1], "bracket_slot": 2},
    ]
    copy = import_tournament(data, slug="copy")
    again = export("copy")
    data["tournament"].pop("slug")
    again["tournament"].pop("slug")
    assert again == data
    assert written(copy) == written(tournament)
    # The copy's play-off goes on as the original's does.
    for each in (tournament, copy):
        round_ = each.rounds.get(kind=Round.Kind.PLAYOFF)
        match = round_.matches.get(bracket_slot=undecided.bracket_slot)
        results.match_settle(match=match, organiser=organiser, first_dealer=0, games=[(0, 9)] * 2)
        rounds.round_close(round=round_)
    assert written(copy) == written(tournament)
    assert copy.rounds.get(number=3).matches.count() == 2
