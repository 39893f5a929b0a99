"""The pairing rule of docs/rules.md §4.4, end to end: a championship played by the simulator,
exported, and every Swiss round checked from the export alone.

The check does not use ``competition.matching``: the best float differences of a
round come from a small exact method written here (a weighted matching whose
weights order pairings by their win differences, largest first), and the
standings before each round are counted from the exported results.
"""

from __future__ import annotations

import html
import io
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import rustworkx as rx
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.conftest import make_tournament, play_round
from tournaments.exchange import export_tournament
from tournaments.explain import explanation_lines
from tournaments.models import Tournament
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


@dataclass
class Before:
    """What the export says about the players before a round."""

    wins: Counter[int] = field(default_factory=Counter)
    byes: Counter[int] = field(default_factory=Counter)
    met: set[frozenset[int]] = field(default_factory=set)


def swiss_rounds(export: dict[str, Any]) -> Iterator[tuple[dict[str, Any], Before]]:
    """Each Swiss round of the export with the records before it."""
    before = Before()
    swiss = sorted((r for r in export["rounds"] if r["kind"] == "swiss"), key=lambda r: r["number"])
    for round_ in swiss:
        yield round_, before
        before = Before(before.wins.copy(), before.byes.copy(), set(before.met))
        for player in round_["byes"]:
            before.wins[player] += 1
            before.byes[player] += 1
        for match in round_["matches"]:
            if len(match["players"]) == 2:
                before.met.add(frozenset(match["players"]))
            if match["winner"] is not None and len(match["players"]) == 2:
                before.wins[match["winner"]] += 1


def best_differences(
    players: list[int], wins: Counter[int], illegal: set[frozenset[int]]
) -> tuple[int, ...]:
    """The least win differences, largest first, of any legal pairing of ``players``.

    A pair ``d`` wins apart costs ``(pairs + 1) ** (d - 1)`` (nothing at 0): more
    pairs at one difference than a pairing has cannot outweigh one pair at the
    next, so the least total is the least multiset compared largest first.
    """
    radix = len(players) // 2 + 1
    largest = max(wins[p] for p in players) - min(wins[p] for p in players)
    top = radix ** (largest + 1)
    graph = rx.PyGraph()
    graph.add_nodes_from(players)
    for a in range(len(players)):
        for b in range(a + 1, len(players)):
            if frozenset((players[a], players[b])) not in illegal:
                gap = abs(wins[players[a]] - wins[players[b]])
                graph.add_edge(a, b, top - (radix ** (gap - 1) if gap else 0))
    mates = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    assert 2 * len(mates) == len(players), "no legal pairing at all"
    return differences([(players[a], players[b]) for a, b in mates], wins)


def differences(pairs: list[tuple[int, int]], wins: Counter[int]) -> tuple[int, ...]:
    gaps = (abs(wins[a] - wins[b]) for a, b in pairs)
    return tuple(sorted((gap for gap in gaps if gap), reverse=True))


def check_round(round_: dict[str, Any], before: Before, forbidden: set[frozenset[int]]) -> None:
    pairs = _pairs(round_)
    seated = [p for pair in pairs for p in pair]
    active = seated + round_["byes"]
    assert len(active) == len(set(active)), f"round {round_['number']}: a player twice"
    for pair in pairs:
        assert frozenset(pair) not in before.met, f"round {round_['number']}: rematch {pair}"
        assert frozenset(pair) not in forbidden, f"round {round_['number']}: forbidden {pair}"
    for player in round_["byes"]:
        assert before.byes[player] == min(before.byes[p] for p in active)
    found = differences(pairs, before.wins)
    best = best_differences(sorted(seated), before.wins, before.met | forbidden)
    assert found == best, f"round {round_['number']}: {found}, but {best} was possible"


def test_every_swiss_round_of_a_simulated_championship_obeys_the_rule() -> None:
    out = io.StringIO()
    call_command(
        "simulate_tournament",
        players=40,
        rounds=6,
        seed=7,
        level="easy",
        best_of=1,  # the pairings read match wins only: one game a match decides as well
        no_progress=True,
        stdout=out,
    )
    tournament = Tournament.objects.get(slug=out.getvalue().strip().splitlines()[-1])
    export = json.loads(json.dumps(export_tournament(tournament)))
    forbidden = {frozenset(pair) for pair in export["forbidden_pairs"]}
    floated = []
    for round_, before in swiss_rounds(export):
        check_round(round_, before, forbidden)
        floated.append(differences(_pairs(round_), before.wins))
    assert len(floated) == 6
    # Rounds 4-6 (at least) had players to float: the optimality check had work to do.
    assert sum(1 for found in floated if found) >= 3


def _pairs(round_: dict[str, Any]) -> list[tuple[int, int]]:
    return [(m["players"][0], m["players"][1]) for m in round_["matches"] if len(m["players"]) == 2]


def test_the_check_catches_a_pairing_against_the_rule() -> None:
    # docs/rules.md §4.4's example paired the wrong way: 2 v 0 and 1 v 1.
    wins = Counter({1: 2, 2: 1, 3: 1, 4: 0})
    round_ = {
        "number": 3,
        "byes": [],
        "matches": [{"players": [1, 4], "winner": 1}, {"players": [2, 3], "winner": 2}],
    }
    with pytest.raises(AssertionError, match=r"\(2,\), but \(1, 1\) was possible"):
        check_round(round_, Before(wins=wins), set())
    round_["matches"] = [{"players": [1, 2], "winner": 1}, {"players": [3, 4], "winner": 3}]
    check_round(round_, Before(wins=wins), set())


def test_the_proposal_page_shows_the_explanation(organiser: User) -> None:
    tournament = make_tournament(7)
    play_round(tournament, organiser)
    round_ = rounds.round_propose(tournament=tournament)
    client = Client()
    client.cookies["django_language"] = "en"
    client.force_login(organiser)
    page = client.get(reverse("tournaments:round", args=[tournament.slug, round_.number]))
    text = page.content.decode()
    names = {e.pk: str(e.player) for e in tournament.entries.select_related("player")}
    with translation.override("en"):
        lines = explanation_lines(round_.explanation, names)
    assert any("has the bye" in line for line in lines)
    for line in lines:
        assert f"<li>{html.escape(line)}</li>" in text
