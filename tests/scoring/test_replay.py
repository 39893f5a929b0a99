"""Replaying a game record step by step through the rules (``scoring.rules.replay``)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from scoring.rules.events import Phase
from scoring.rules.game import Game
from scoring.rules.replay import RecordError, game_from_record, replay
from tests.scoring.gameplay import discard_both, lay, play_randomly, stacked_game

KINGS = ("KH KS 2H 2C 3C 4C", "9S 8D 7C 6D TC QC", "AD")
KINGS_PLAY = "KH 6D KS 2H 2C 8D 7C 9S"


def kings_record(**options: Any) -> dict[str, Any]:
    """One deal (001's example round) and the pone going out in the show."""
    game = stacked_game(*KINGS, scores=(112, 113), **options)
    discard_both(game, "3C 4C", "TC QC")
    lay(game, KINGS_PLAY)
    assert game.winner == 0
    record: dict[str, Any] = json.loads(json.dumps(game.record()))
    return record


def test_a_recorded_deal_replays_decision_by_decision() -> None:
    steps = list(replay(kings_record()))
    decisions = [step.decision for step in steps]
    assert decisions == [
        None,
        {"player": 0, "discard": ["3C", "4C"]},
        {"player": 1, "discard": ["TC", "QC"]},
        *(
            {"player": player, "play": card}
            for player, card in zip(
                [0, 1, 0, 0, 0, 1, 1, 1],
                KINGS_PLAY.split(),
                strict=True,
            )
        ),
    ]
    assert [step.game.scores for step in steps] == [
        *[(112, 113)] * 7,  # the start, both discards (an ace starter), KH 6D KS 2H
        (115, 113),  # 2C: the pair of twos and the last card
        (115, 113),  # 8D
        (115, 115),  # 7C: fifteen two
        (121, 119),  # 9S: run of three and the last card; then the pone's 8 goes out
    ]
    assert steps[-1].game.winner == 0
    assert steps[-1].game.phase is Phase.DONE
    assert [e.type for e in steps[-1].events][-3:] == ["last", "show", "win"]


def test_each_step_holds_its_own_game() -> None:
    steps = list(replay(kings_record()))
    assert steps[3].game.count == 10
    assert steps[4].game.count == 16
    assert steps[3].game is not steps[4].game
    assert len(steps[1].game.hand(0)) == 4
    assert len(steps[1].game.hand(1)) == 6


@pytest.mark.parametrize(("seed", "callers"), [(3, set()), (4, set()), (5, set()), (6, {0, 1})])
def test_a_whole_game_replays_to_its_final_scores(seed: int, callers: set[int]) -> None:
    game = play_randomly(
        Game.new(
            seed=seed,
            self_count=frozenset({0, 1} if callers else {1}),
            muggins=True,
            callers=frozenset(callers),
        ),
        random.Random(seed),
    )
    record = json.loads(json.dumps(game.record()))
    steps = list(replay(record))
    assert steps[-1].game.scores == game.scores == tuple(record["final_scores"])
    assert steps[-1].game.winner == record["winner"]
    assert steps[0].decision is None
    assert len(steps) == 1 + len(game.to_json()["decisions"])
    assert game_from_record(record).scores == game.scores


def test_a_game_in_progress_replays_to_where_it_stands() -> None:
    game = Game.new(seed=12)
    play_randomly(game, random.Random(12), steps=40)
    record = json.loads(json.dumps(game.record()))
    last = list(replay(record))[-1].game
    assert (last.scores, last.deal_number, last.phase) == (
        game.scores,
        game.deal_number,
        game.phase,
    )
    assert last.hand(0) == game.hand(0)
    assert last.hand(1) == game.hand(1)


def tampered(change: Any) -> dict[str, Any]:
    record = copy.deepcopy(kings_record())
    change(record)
    return record


def set_event(index: int, **fields: Any) -> Any:
    return lambda record: record["deals"][0]["events"][index].update(fields)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (set_event(4, points=1), "the record says"),  # the pair of twos worth 1
        (set_event(-1, points=9), "the record says"),  # the pone's hand worth 9
        (set_event(0, card="QH"), "not in your hand"),  # a card the pone never held
        (set_event(0, card="KS"), "KS is not in your hand"),  # KS laid twice
        (set_event(0, card="3C"), "not in your hand"),  # a card laid away
        (set_event(0, card="XX"), "not a card"),
        (set_event(0, type="show"), "the rules wait for a play"),
        (set_event(3, type="last"), "the rules give {'type': 'go'"),
        (lambda r: r["deals"][0]["events"].pop(3), "the record says"),  # the go left out
        (lambda r: r["deals"][0]["events"].append(dict(r["deals"][0]["events"][-1])),
         "goes on after the rules stop"),
        (lambda r: r.update(winner=1), "winner"),
        (lambda r: r.update(final_scores=[121, 118]), "the record ends"),
        (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "9S"), "dealt twice"),
        (lambda r: r["deals"][0]["hands"][0].pop(), "six cards"),
        (lambda r: r["deals"][0]["discards"].__setitem__(0, ["KH", "9S"]), "not in your hand"),
        (lambda r: r["deals"][0].update(starter="ZZ"), "not a card"),
        (lambda r: r["deals"][0].update(starter="JD"), "the rules give"),  # heels unrecorded
    ],
)  # fmt: skip
def test_a_tampered_record_is_rejected(change: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        list(replay(tampered(change)))


def test_the_untampered_record_replays() -> None:
    assert list(replay(tampered(lambda record: None)))[-1].game.winner == 0
