"""The two-player game's saved forms stay byte for byte what they were before the engine
learnt three and four seats (docs/game-record.md): the site keeps them in its database,
so an old game must load and a new one be written exactly as before.

Each case plays a two-player game from a seed (computers of every level, or random legal
decisions with self-counting and muggins) and compares digests of its ``to_json()``, its
``record()`` and, for one game, its review with the digests taken before the change.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from scoring.players.strategy import ComputerPlayer, finish_match, play_computers
from scoring.review import review_game
from scoring.rules.game import Game
from scoring.rules.match import Match
from tests.scoring.gameplay import play_randomly


def digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


def computer_game(levels: tuple[str, str], seed: int, first_dealer: int | None) -> Game:
    game = Game.new(seed=seed, players=levels, first_dealer=first_dealer, scores=(70, 70))
    play_computers(game, {0: ComputerPlayer(levels[0], seed), 1: ComputerPlayer(levels[1], 9)})
    return game


def random_game(seed: int, options: dict[str, Any]) -> Game:
    return play_randomly(Game.new(seed=seed, **options), random.Random(seed))


COMPUTER_CASES = [
    (("easy", "standard"), 1, None),
    (("standard", "expert"), 2, 0),
    (("expert", "easy"), 3, 1),
    (("expert", "expert"), 4, None),
]
RANDOM_CASES = [
    (5, {}),
    (6, {"self_count": frozenset({0}), "muggins": True}),
    (7, {"self_count": frozenset({0, 1}), "muggins": True, "callers": frozenset({0, 1})}),
    (8, {"self_count": frozenset({1}), "first_dealer": 1, "scores": (100, 3)}),
]
GOLDEN = {
    "computers easy standard 1": ("b3512c60e08df339", "6cd9d18b744092b1"),
    "computers standard expert 2": ("af4deaa73873a815", "dab3bf2c5b200705"),
    "computers expert easy 3": ("3d7ffbf2ae9f791d", "1dd9c99e0db1fe3e"),
    "computers expert expert 4": ("aaa06d7155f5aa0d", "23cd056e71223411"),
    "random 5": ("905f948c653370e7", "6951d8f96459abf7"),
    "random 6": ("8bb2cf4848af5588", "1c589702fa1dfa1e"),
    "random 7": ("4a335b9dbe124a05", "de642eab1f0bc678"),
    "random 8": ("53a68c9c612c3e1c", "7e183da0f82bec40"),
    "match": ("7aeda3abb2a09fe6", "00b46543b1f8fd7d"),
    "review": ("f404b0590f3829ed",),
}


@pytest.mark.parametrize(("levels", "seed", "first_dealer"), COMPUTER_CASES)
def test_a_computer_game_is_saved_and_recorded_as_before(
    levels: tuple[str, str], seed: int, first_dealer: int | None
) -> None:
    game = computer_game(levels, seed, first_dealer)
    key = f"computers {levels[0]} {levels[1]} {seed}"
    assert (digest(game.to_json()), digest(game.record())) == GOLDEN[key]
    assert Game.from_json(json.loads(json.dumps(game.to_json()))).to_json() == game.to_json()


@pytest.mark.parametrize(("seed", "options"), RANDOM_CASES)
def test_a_game_of_random_decisions_is_saved_and_recorded_as_before(
    seed: int, options: dict[str, Any]
) -> None:
    game = random_game(seed, options)
    assert (digest(game.to_json()), digest(game.record())) == GOLDEN[f"random {seed}"]


def test_a_match_is_saved_and_recorded_as_before() -> None:
    match = Match.new(seed=11, best_of=3, players=("standard", "easy"))
    finish_match(match, {0: ComputerPlayer("standard", 1), 1: ComputerPlayer("easy", 2)})
    assert (digest(match.to_json()), digest(match.record())) == GOLDEN["match"]


def test_a_review_is_written_as_before() -> None:
    game = computer_game(("standard", "expert"), 2, 0)
    assert digest(review_game(game.record()).as_json()) == GOLDEN["review"][0]
