"""export_tournament / import_tournament: the whole tournament as JSON, and back."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from tests.tournaments.conftest import make_tournament, play_round, seats
from tournaments.access import Actor
from tournaments.exchange import import_tournament
from tournaments.models import Game, Match, Tournament
from tournaments.services import results, rounds

pytestmark = pytest.mark.django_db


def export(slug: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("export_tournament", slug, stdout=out)
    return json.loads(out.getvalue())


@pytest.fixture
def played(organiser: Any) -> Tournament:
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


def test_an_imported_tournament_is_written_as_the_site_writes_one(organiser: Any) -> None:
    tournament = make_tournament(5, swiss_rounds=3)
    play_round(tournament, organiser, lambda m: [(0, 88), (1, 60), (0, 100)])
    play_round(tournament, organiser)
    third = rounds.round_propose(tournament=tournament)
    rounds.round_publish(round=third)
    match = third.matches.filter(is_bye=False).first()
    reporter = Actor(user=seats(match)[0].entry.player.user)
    results.match_report_result(match=match, by=reporter, first_dealer=1, games=[(0, 50)])
    copy = import_tournament(export(tournament.slug), slug="copy")
    assert written(copy) == written(tournament)
    assert Match.Status.IN_PLAY in {line[5] for line in written(copy)}
