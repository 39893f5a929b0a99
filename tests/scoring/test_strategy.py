"""The computer players: legal, deterministic, blind to hidden cards, and sensible."""

from __future__ import annotations

import random

import pytest

from scoring.players.pegplay import (
    PegPosition,
    easy_play,
    expert_play,
    opponent_hands,
    standard_play,
)
from scoring.players.strategy import (
    LEVELS,
    ComputerPlayer,
    finish_match,
    peg_position,
    play_computers,
)
from scoring.rules.cards import DECK, Card, parse_cards
from scoring.rules.events import Phase
from scoring.rules.game import Game
from scoring.rules.match import Match
from tests.scoring.gameplay import stacked_game


def play_checked(game: Game, players: tuple[ComputerPlayer, ComputerPlayer]) -> int:
    """Play to the end, checking every decision is among the legal ones; the decisions taken."""
    decisions = 0
    while game.phase is not Phase.DONE:
        player = game.to_move
        assert player is not None
        computer = players[player]
        if game.phase is Phase.DISCARD:
            discard = computer.choose_discard(game, player)
            assert set(discard) in [set(legal) for legal in game.legal_discards(player)]
            game.discard(player, discard)
        else:
            card = computer.choose_play(game, player)
            assert card in game.legal_plays(player)
            game.play(player, card)
        decisions += 1
    return decisions


@pytest.mark.parametrize(
    ("levels", "games", "scores"),
    [
        (("easy", "easy"), 12, (0, 0)),
        (("standard", "easy"), 8, (0, 0)),
        (("expert", "standard"), 2, (0, 0)),
        (("expert", "expert"), 6, (95, 95)),
    ],
)
def test_every_level_only_makes_legal_decisions(
    levels: tuple[str, str], games: int, scores: tuple[int, int]
) -> None:
    for seed in range(games):
        game = Game.new(seed=seed, first_dealer=seed % 2, scores=scores)
        players = (ComputerPlayer(levels[0], seed), ComputerPlayer(levels[1], seed + 1))
        assert play_checked(game, players) > 0
        assert game.winner in (0, 1)


def test_decide_takes_whatever_decision_is_due() -> None:
    game = Game.new(seed=4, first_dealer=0, self_count=frozenset({0, 1}))
    computer = ComputerPlayer("standard", 1)
    while game.phase is not Phase.DONE:
        player = game.to_move
        assert player is not None
        computer.decide(game, player)
    with pytest.raises(ValueError, match="not waiting"):
        computer.decide(game, 0)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="easy, standard, expert"):
        ComputerPlayer("grandmaster", 1)


def first_lead(seed: int) -> Game:
    game = Game.new(seed=seed, first_dealer=1)
    game.discard(0, game.legal_discards(0)[0])
    game.discard(1, game.legal_discards(1)[0])
    return game


@pytest.mark.parametrize("level", LEVELS)
def test_a_decision_is_the_same_for_the_same_seed_and_state(level: str) -> None:
    for seed in range(3):
        game = first_lead(seed)
        if game.phase is not Phase.PLAY:
            continue
        reloaded = Game.from_json(game.to_json())
        first = ComputerPlayer(level, 99).choose_play(game, 0)
        assert ComputerPlayer(level, 99).choose_play(reloaded, 0) == first
        assert ComputerPlayer(level, 99).choose_play(game.copy(), 0) == first
        fresh = Game.new(seed=seed, first_dealer=1)
        discard = ComputerPlayer(level, 5).choose_discard(fresh, 1)
        assert ComputerPlayer(level, 5).choose_discard(fresh.copy(), 1) == discard


def test_the_expert_samples_the_same_opponent_hands_for_the_same_seed() -> None:
    position = peg_position(first_lead(2), 0)
    assert opponent_hands(position, random.Random(1)) == opponent_hands(position, random.Random(1))


OTHER_SIXES = ["2C 3C 4C 9H TH QH", "5S 5D JS KD 8S 7D", "AH AD 6C 6D KS QC"]


@pytest.mark.parametrize("level", LEVELS)
def test_the_discard_does_not_depend_on_the_opponents_hidden_cards(level: str) -> None:
    mine = "5H 6H 9C JD 2S KC"
    chosen = set()
    for other in OTHER_SIXES:
        game = stacked_game(other, mine, "AS")
        chosen.add(ComputerPlayer(level, 3).choose_discard(game, 1))
    assert len(chosen) == 1


@pytest.mark.parametrize("level", LEVELS)
def test_a_card_in_the_play_does_not_depend_on_the_opponents_hidden_cards(level: str) -> None:
    # The pone leads the 4D with three different cards behind it; the dealer answers.
    chosen = set()
    for pone in ("4D 2C 3C 9H TH QH", "4D 5S 5D JS KD 8S", "4D AH 6C 6D KS QC"):
        game = stacked_game(pone, "5H 6H 9C JD 7S KC", "AS")
        game.discard(0, parse_cards(pone)[4:])
        game.discard(1, parse_cards("9C JD"))
        game.play(0, Card.parse("4D"))
        chosen.add(ComputerPlayer(level, 3).choose_play(game, 1))
    assert len(chosen) == 1


def position(held: str, sequence: str = "", **options: object) -> PegPosition:
    seen = {*parse_cards(held), *parse_cards(sequence)}
    fields: dict[str, object] = {
        "held": tuple(parse_cards(held)),
        "sequence": tuple(parse_cards(sequence)),
        "opponent_passed": False,
        "opponent_held": 4,
        "opponent_floor": 0,
        "unseen": tuple(card for card in DECK if card not in seen),
        "scores": (0, 0),
    }
    fields.update(options)
    return PegPosition(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("held", ["5H 4C 9D KS", "5H 3C 8D QS", "5C 2D 7H JH"])
def test_standard_does_not_lead_a_five_when_it_has_another_card(held: str) -> None:
    for seed in range(5):
        assert standard_play(position(held), random.Random(seed)).rank != 5


def test_standard_does_not_leave_a_count_of_21_for_a_ten_card_to_make_31() -> None:
    for seed in range(5):
        assert standard_play(position("9C 8D", "QH 2S"), random.Random(seed)) == Card.parse("8D")


def test_standard_and_expert_take_a_fifteen_and_a_thirty_one() -> None:
    for play in (standard_play, expert_play):
        assert play(position("5C 2D 9S", "KH"), random.Random(0)) == Card.parse("5C")
        assert play(position("9C 8D 3S", "KH QS 2D"), random.Random(0)) == Card.parse("9C")


def test_expert_pegs_out_when_a_card_reaches_121() -> None:
    near = position("7C KD", "8H", scores=(119, 100))
    assert expert_play(near, random.Random(0)) == Card.parse("7C")


def test_easy_takes_points_when_a_card_scores() -> None:
    assert easy_play(position("5C 2D 9S", "KH"), random.Random(0)) == Card.parse("5C")


# ------------------------------------------------------------- the play loop


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_play_loop_decides_only_for_computer_seats_and_stops_at_the_person(seed: int) -> None:
    game = Game.new(seed=seed, self_count=frozenset({0}))
    computer = ComputerPlayer("standard", seed)
    person = ComputerPlayer("easy", seed + 100)  # stands in for the person at seat 0
    turns = 0
    while game.phase is not Phase.DONE:
        before = len(game.events)
        events = play_computers(game, {1: computer})
        assert list(game.events[before:]) == events
        assert all(event.player != 0 or event.type.value in ("go", "last") for event in events)
        if game.winner is not None:  # the game is over
            break
        assert game.awaiting == frozenset({0}), "stops only when the person alone must decide"
        person.decide(game, 0)
        turns += 1
    assert max(game.scores) == 121
    assert turns > 10


def test_two_computer_seats_play_a_game_as_the_seat_to_move_decides() -> None:
    loop = Game.new(seed=9)
    by_hand = Game.new(seed=9)
    players = (ComputerPlayer("expert", 18), ComputerPlayer("standard", 19))
    play_computers(loop, dict(enumerate(players)))
    while by_hand.phase is not Phase.DONE:
        seat = by_hand.to_move
        assert seat is not None
        players[seat].decide(by_hand, seat)
    assert loop.to_json() == by_hand.to_json()


def test_a_match_is_finished_only_by_two_computer_seats() -> None:
    match = Match.new(seed=4, best_of=3)
    with pytest.raises(ValueError, match="two computer seats"):
        finish_match(match, {1: ComputerPlayer("easy", 1)})
    finish_match(match, {0: ComputerPlayer("easy", 1), 1: ComputerPlayer("standard", 2)})
    assert match.winner is not None
    losers = [1 - game.winner for game in match.games[:-1] if game.winner is not None]
    assert len(losers) == len(match.games) - 1 >= 1
    assert [game.first_dealer for game in match.games[1:]] == losers  # the loser deals next
