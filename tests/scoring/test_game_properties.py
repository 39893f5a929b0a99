"""Properties of whole games: random legal decisions on random deals, from random seeds."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.cards import DECK
from scoring.rules.events import WINNING_SCORE, EventType, Phase
from scoring.rules.game import Game
from scoring.rules.replay import RecordError, game_from_record, replay
from tests.profiles import examples
from tests.scoring.gameplay import play_randomly, random_decision

seeds = st.integers(min_value=0, max_value=2**32)
options = st.fixed_dictionaries(
    {
        "self_count": st.sets(st.sampled_from([0, 1])).map(frozenset),
        "muggins": st.booleans(),
        "callers": st.sets(st.sampled_from([0, 1])).map(frozenset),
        "first_dealer": st.sampled_from([None, 0, 1]),
    }
).map(lambda chosen: {**chosen, "callers": chosen["callers"] if chosen["muggins"] else frozenset()})
FAST = settings(max_examples=examples(50), deadline=None)


def random_game(seed: int, decisions: int, game_options: dict[str, Any]) -> Game:
    return play_randomly(Game.new(seed=seed, **game_options), random.Random(decisions))


@FAST
@given(seed=seeds, decisions=seeds, game_options=options)
def test_no_count_passes_31_and_only_legal_cards_are_offered(
    seed: int, decisions: int, game_options: dict[str, Any]
) -> None:
    game = Game.new(seed=seed, **game_options)
    rng = random.Random(decisions)
    while game.phase is not Phase.DONE:
        if game.phase is Phase.PLAY:
            player = game.to_move
            assert player is not None
            legal = game.legal_plays(player)
            assert legal, "a player to move always has a card to lay"
            assert all(game.count + card.value <= 31 for card in legal)
            assert set(legal) == {c for c in game.hand(player) if game.count + c.value <= 31}
            assert game.legal_plays(1 - player) == []
        for event in random_decision(game, rng):
            if event.type == "play":
                assert event.count is not None
                assert 0 < event.count <= 31
        assert 0 <= game.count <= 31


@FAST
@given(seed=seeds, decisions=seeds, game_options=options)
def test_every_deal_plays_all_eight_kept_cards_unless_the_game_ended(
    seed: int, decisions: int, game_options: dict[str, Any]
) -> None:
    game = random_game(seed, decisions, game_options)
    deals = game.record()["deals"]
    for number, deal in enumerate(deals, start=1):
        played = [(e["player"], e["card"]) for e in deal["events"] if e["type"] == "play"]
        kept = {
            (player, card)
            for player in (0, 1)
            for card in deal["hands"][player]
            if card not in deal["discards"][player]
        }
        assert len(set(played)) == len(played)
        assert set(played) <= kept
        if number < len(deals):
            assert len(played) == 8
            assert [e["what"] for e in deal["events"] if e["type"] == "show"] == [
                "hand",
                "hand",
                "crib",
            ]


@FAST
@given(seed=seeds, decisions=seeds, game_options=options)
def test_scores_are_the_sum_of_the_events_and_stop_at_121(
    seed: int, decisions: int, game_options: dict[str, Any]
) -> None:
    game = random_game(seed, decisions, game_options)
    running = [0, 0]
    unclaimed: list[int] | None = None  # the scores before a claim pegged provisionally
    won = False
    for event in game.events:
        assert not won or event.type == "win", "nothing happens after the winning points"
        if event.type == "claim":
            unclaimed = list(running)
        elif event.type == "show" and unclaimed is not None:  # the call settles the claim
            running, unclaimed = unclaimed, None
        if event.points:
            assert event.player is not None
            running[event.player] = min(WINNING_SCORE, running[event.player] + event.points)
            won = running[event.player] == WINNING_SCORE and event.type != "claim"
        if event.scores is not None:
            assert list(event.scores) == running
    assert list(game.scores) == running
    assert sorted(score >= WINNING_SCORE for score in game.scores) == [False, True]
    winner = game.winner
    assert winner is not None
    assert game.scores[winner] == WINNING_SCORE
    assert game.events[-1].type == "win"
    assert game.events[-1].player == winner
    assert [e.type for e in game.events].count(EventType.WIN) == 1
    record = game.record()
    assert record["final_scores"] == list(game.scores)
    totals = [0, 0]
    for deal in record["deals"]:
        for event in deal["events"]:
            totals[event["player"]] += event.get("points", 0)
    assert totals[1 - winner] == game.scores[1 - winner]
    assert totals[winner] >= WINNING_SCORE


@FAST
@given(seed=seeds, decisions=seeds, game_options=options, steps=st.integers(0, 200))
def test_a_game_saved_at_any_point_plays_on_identically(
    seed: int, decisions: int, game_options: dict[str, Any], steps: int
) -> None:
    game = play_randomly(Game.new(seed=seed, **game_options), random.Random(decisions), steps)
    loaded = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert loaded.events == game.events
    assert loaded.to_json() == game.to_json()
    finish = random.Random(decisions + 1)
    play_randomly(loaded, random.Random(decisions + 1))
    play_randomly(game, finish)
    assert loaded.events == game.events
    assert loaded.record() == game.record()


@FAST
@given(seed=seeds, decisions=seeds, game_options=options)
def test_the_same_seed_and_decisions_give_the_same_game(
    seed: int, decisions: int, game_options: dict[str, Any]
) -> None:
    first = random_game(seed, decisions, game_options)
    second = random_game(seed, decisions, game_options)
    assert first.events == second.events
    assert json.dumps(first.record()) == json.dumps(second.record())


@FAST
@given(seed=seeds, decisions=seeds, game_options=options)
def test_the_record_replays_to_the_same_game(
    seed: int, decisions: int, game_options: dict[str, Any]
) -> None:
    game = random_game(seed, decisions, game_options)
    record = json.loads(json.dumps(game.record()))
    steps = list(replay(record))
    final = steps[-1].game
    assert final.scores == game.scores
    assert final.winner == game.winner
    # The record holds no cut and not which player laid away first.
    replayed = [e for step in steps for e in step.events if e.type != "discard"]
    assert replayed == [e for e in game.events if e.type not in ("cut", "discard")]
    # The replay deals from the recorded first dealer; the cut itself is not replayed.
    assert {**game_from_record(record).record(), "cut": record["cut"]} == record


def scoring_events(record: dict[str, Any]) -> list[tuple[int, int]]:
    """(deal index, event index) of each event the engine scored by itself.

    A self-counted show and a call of muggins by one of the ``callers`` are left out: they
    are decisions, and claiming or taking another number is a different legal game.
    """
    decided_by = {"show": set(record["self_count"]), "muggins": set(record.get("callers", []))}
    return [
        (d, e)
        for d, deal in enumerate(record["deals"])
        for e, event in enumerate(deal["events"])
        if "points" in event and event["player"] not in decided_by.get(event["type"], set())
    ]


@FAST
@given(seed=seeds, decisions=seeds, game_options=options, data=st.data())
def test_a_record_with_changed_points_is_rejected(
    seed: int, decisions: int, game_options: dict[str, Any], data: st.DataObject
) -> None:
    record = random_game(seed, decisions, game_options).record()
    d, e = data.draw(st.sampled_from(scoring_events(record)))
    tampered = copy.deepcopy(record)
    tampered["deals"][d]["events"][e]["points"] += data.draw(st.sampled_from([-1, 1, 2]))
    with pytest.raises(RecordError):
        list(replay(tampered))


@FAST
@given(seed=seeds, decisions=seeds, game_options=options, data=st.data())
def test_a_record_with_a_changed_card_is_rejected(
    seed: int, decisions: int, game_options: dict[str, Any], data: st.DataObject
) -> None:
    record = random_game(seed, decisions, game_options).record()
    plays = [
        (d, e)
        for d, deal in enumerate(record["deals"])
        for e, event in enumerate(deal["events"])
        if event["type"] == "play"
    ]
    d, e = data.draw(st.sampled_from(plays))
    deal = record["deals"][d]
    event = deal["events"][e]
    # Any card that player did not keep: the starter, a discard, the opponent's
    # cards, or one nobody was dealt.
    kept = {c for c in deal["hands"][event["player"]] if c not in deal["discards"][event["player"]]}
    other = data.draw(
        st.sampled_from([str(c) for c in DECK if str(c) not in kept]),
        label="changed card",
    )
    tampered = copy.deepcopy(record)
    tampered["deals"][d]["events"][e]["card"] = other
    with pytest.raises(RecordError):
        list(replay(tampered))


@FAST
@given(seed=seeds, decisions=seeds, data=st.data())
def test_a_record_with_a_changed_dealt_card_is_rejected(
    seed: int, decisions: int, data: st.DataObject
) -> None:
    record = random_game(seed, decisions, {}).record()
    # A card laid in the play: one never laid nor shown could be any card. The first deal
    # always has cards laid by both players (no one reaches 121 before it is played).
    laid = [
        (d, player)
        for d, deal in enumerate(record["deals"])
        for player in (0, 1)
        if any(e["type"] == "play" and e["player"] == player for e in deal["events"])
    ]
    d, player = data.draw(st.sampled_from(laid))
    deal = record["deals"][d]
    dealt = {card for hand in deal["hands"] for card in hand} | {deal["starter"]}
    played = [e["card"] for e in deal["events"] if e["type"] == "play" and e["player"] == player]
    old = data.draw(st.sampled_from(played))
    new = data.draw(st.sampled_from([str(c) for c in DECK if str(c) not in dealt]))
    tampered = copy.deepcopy(record)
    hand = tampered["deals"][d]["hands"][player]
    hand[hand.index(old)] = new
    with pytest.raises(RecordError):
        list(replay(tampered))
