"""Migrations that move data: what a database made before them holds after them, and back."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0008_playoff_seed")]
AFTER = [("tournaments", "0009_playoff_seeds_out_of_explanations")]


@pytest.fixture
def executor() -> Iterator[MigrationExecutor]:
    """Migrates the test database wherever a test asks, and back to the latest afterwards."""
    yield MigrationExecutor(connection)
    latest = MigrationExecutor(connection)
    latest.migrate(latest.loader.graph.leaf_nodes())


def models_at(executor: MigrationExecutor, target: list[tuple[str, str]]) -> Any:
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_play_off_seeds_move_from_the_rounds_explanations_to_the_entries_and_back(
    executor: MigrationExecutor,
) -> None:
    apps = models_at(executor, BEFORE)
    Player, Tournament = (
        apps.get_model("club", "Player"),
        apps.get_model("tournaments", "Tournament"),
    )
    Entry, Round = apps.get_model("tournaments", "Entry"), apps.get_model("tournaments", "Round")
    day = datetime.date(2025, 5, 1)
    tournament = Tournament.objects.create(
        name="SM 2025", slug="sm-2025", year=2025, starts_on=day, ends_on=day, seed=1
    )
    entries = [
        Entry.objects.create(
            tournament=tournament, player=Player.objects.create(name=f"P{n}", club="Umeå")
        )
        for n in range(3)
    ]
    seeds = {str(entries[2].pk): 1, str(entries[0].pk): 2}
    swiss = Round.objects.create(
        tournament=tournament, number=1, seed=1, explanation={"method": "random_draw"}
    )
    for number in (2, 3):
        Round.objects.create(
            tournament=tournament, number=number, kind="playoff", seed=1,
            explanation={"seeds": seeds},
        )  # fmt: skip

    apps = models_at(executor, AFTER)
    Entry, Round = apps.get_model("tournaments", "Entry"), apps.get_model("tournaments", "Round")
    seeded = Entry.objects.filter(tournament_id=tournament.pk).order_by("pk")
    assert [entry.playoff_seed for entry in seeded] == [2, None, 1]
    explanations = Round.objects.filter(tournament_id=tournament.pk).order_by("number")
    assert [r.explanation for r in explanations] == [{"method": "random_draw"}, {}, {}]

    apps = models_at(executor, BEFORE)
    Round = apps.get_model("tournaments", "Round")
    explanations = Round.objects.filter(tournament_id=tournament.pk).order_by("number")
    assert [r.explanation for r in explanations] == [
        swiss.explanation,
        {"seeds": seeds},
        {"seeds": seeds},
    ]
