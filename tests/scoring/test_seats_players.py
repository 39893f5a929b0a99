"""The computer at three and four seats: its lay-away of one card, its play for its side,
whole games at every level, the review and the hint (docs/rules.md §7)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scoring.players.crib_one import crib_one_means, one_card_points
from scoring.players.strategy import (
    LEVELS,
    ComputerPlayer,
    discard_options,
    judge_play,
    play_computers,
    table_position,
)
from scoring.players.tableplay import TablePosition, evaluate_table_play, rollout
from scoring.review import from_json, review_game
from scoring.rules.cards import DECK, Card, parse_cards
from scoring.rules.events import Phase
from scoring.rules.game import Game
from scoring.rules.replay import game_from_record

# ----------------------------------------------------------- the one card table


def test_a_five_laid_away_brings_the_crib_most_and_a_king_least() -> None:
    means, by_starter = crib_one_means()
    assert max(range(1, 14), key=lambda rank: means[rank]) == 5
    assert min(range(1, 14), key=lambda rank: means[rank]) == 13
    assert means[5] == pytest.approx(6.65, abs=0.01)
    assert by_starter[5, 5] > by_starter[5, 10] > by_starter[5, 1], "a five starter fills it"


@pytest.mark.slow
def test_the_shipped_one_card_table_is_the_exhaustive_count() -> None:
    shipped = crib_one_means()[1]
    for rank in (1, 5, 11):
        rows = one_card_points(rank)
        assert sum(cribs for _, cribs in rows) == 20825 * 48
        counted = np.array([total / cribs for total, cribs in rows])
        assert np.allclose(counted, shipped[rank, 1:])


# ----------------------------------------------------------------- the lay-away

# With three and four each seat lays one card away; seat 0 deals.
HANDS_FOUR = ("2C 3C 4D 7S 8S", "5C JH KD QS JC", "5H JS KC QH JD", "AD 9D 9H 6C TS")


def four_player_deal(dealer: int = 0) -> Game:
    hands = tuple(parse_cards(hand) for hand in HANDS_FOUR)
    return Game.new(seed=1, seats=4, first_dealer=dealer, stacked=[(hands, Card.parse("3H"))])


@pytest.mark.parametrize("level", ["standard", "expert"])
def test_a_five_goes_to_the_partners_crib_and_never_to_the_opponents(level: str) -> None:
    """The same hand of five: the dealer's partner (seat 2) lays the five away to the
    crib its partnership owns; an opponent (seat 1) keeps it and lays a king away."""
    game = four_player_deal()
    computer = ComputerPlayer(level, 1)
    assert computer.choose_discard(game, 2) == (Card.parse("5H"),)
    assert computer.choose_discard(game, 1) == (Card.parse("KD"),)
    partner, opponent = discard_options(game, 2, level=level), discard_options(game, 1)
    assert len(partner) == len(opponent) == 5
    assert partner[0].total_ev > partner[0].hand_ev, "its own crib adds"


def test_with_three_an_opponents_crib_counts_half_against() -> None:
    """Of three, a point in one opponent's crib is half a point against (the other
    opponent gains nothing): the lay-away of five JS KC QH JD lies between the two."""
    hands = ("5H JS KC QH JD", "2C 3C 4D 7S 8S", "AD 9D 9H 6C TS")
    dealt = tuple(parse_cards(hand) for hand in hands)
    own = Game.new(seed=1, seats=3, first_dealer=0, stacked=[(dealt, Card.parse("3H"), ())])
    other = Game.new(seed=1, seats=3, first_dealer=1, stacked=[(dealt, Card.parse("3H"), ())])
    computer = ComputerPlayer("expert", 1)
    assert computer.choose_discard(own, 0) == (Card.parse("5H"),)
    assert computer.choose_discard(other, 0) == (Card.parse("JS"),)
    options = {o.discard[0]: o for o in discard_options(other, 0)}
    king = options[Card.parse("KC")]
    assert king.total_ev == pytest.approx(king.hand_ev - king.crib_ev / 2, abs=0.05)


# ------------------------------------------------------------------- the play


def end_of_play(seats: int, mover_card: str) -> TablePosition:
    """Every seat holds one card; seat 0 leads the last count."""
    return TablePosition(
        mover=0,
        held=(Card.parse(mover_card),),
        sequence=(),
        laid=((),) * seats,
        holding=(1,) * seats,
        passed=frozenset(),
        floors=(0,) * seats,
        unseen=(),
        scores=(0,) * (2 if seats == 4 else seats),
        side_of=(0, 1, 0, 1) if seats == 4 else tuple(range(seats)),
        target=121,
    )


def test_the_partners_points_count_as_the_movers_own() -> None:
    """5 led, 4 by seat 1, 6 by the partner (fifteen and a run: 5), 9 by seat 3 (the last
    card: 1): the partnership nets 5 - 1."""
    world = ((5,), (4,), (6,), (9,))
    assert rollout(end_of_play(4, "5S"), world, 5) == pytest.approx(4.0)


def test_with_three_each_opponents_points_count_half_against() -> None:
    """5 led, 4 by seat 1 (nothing), 6 by seat 2 (fifteen and a run: 5, and the last
    card: 1): seat 0 nets -6 / 2."""
    world = ((5,), (4,), (6,))
    assert rollout(end_of_play(3, "5S"), world, 5) == pytest.approx(-3.0)


@pytest.mark.parametrize("seats", [3, 4])
def test_the_judge_takes_a_card_that_wins_for_its_side_at_once(seats: int) -> None:
    """At 13 the 2 makes fifteen, 121 for the mover's side (with four, the mover is seat
    2 and its partner pegged the 119); the 9 scores nothing."""
    mover = 2 if seats == 4 else 0
    position = TablePosition(
        mover=mover,
        held=tuple(parse_cards("9D 2C")),
        sequence=((mover - 1, Card.parse("KS")), ((mover + 1) % seats, Card.parse("3H"))),
        laid=((),) * seats,
        holding=(3,) * seats,
        passed=frozenset(),
        floors=(0,) * seats,
        unseen=tuple(c for c in DECK if c not in parse_cards("9D 2C KS 3H")),
        scores=(119, 0) if seats == 4 else (119, 0, 0),
        side_of=(0, 1, 0, 1) if seats == 4 else (0, 1, 2),
        target=121,
    )
    evaluation = evaluate_table_play(position)
    assert evaluation.wins == {2}
    assert evaluation.best == Card.parse("2C")
    assert set(evaluation.means) == {2, 9}


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("level", LEVELS)
def test_computers_of_every_level_play_whole_games_the_same_way_twice(
    seats: int, level: str
) -> None:
    def play() -> Game:
        game = Game.new(seed=seats * 7, seats=seats, target=61)
        play_computers(game, {seat: ComputerPlayer(level, seat) for seat in range(seats)})
        return game

    game = play()
    assert game.phase is Phase.DONE
    assert game.winner is not None
    assert game.scores[game.winner] == 61
    assert play().record() == game.record()
    assert game_from_record(json.loads(json.dumps(game.record()))).scores == game.scores


def test_a_seat_not_to_move_gets_no_card_from_the_computer() -> None:
    game = four_player_deal()
    for seat in range(4):
        game.discard(seat, [game.hand(seat)[0]])
    with pytest.raises(ValueError, match="not waiting"):
        ComputerPlayer("expert", 1).decide(game, 3)
    position = table_position(game, 1)
    assert position.unseen == tuple(
        c for c in position.unseen if c not in game.hand(1) and c != game.starter
    )
    assert len(position.unseen) == 52 - 5 - 1


# ----------------------------------------------------------------- the review


def test_a_four_seat_review_judges_every_seat_and_reads_back() -> None:
    game = Game.new(seed=4, seats=4, target=61)
    levels = ("expert", "easy", "standard", "easy")
    play_computers(game, {seat: ComputerPlayer(levels[seat], seat) for seat in range(4)})
    review = review_game(json.loads(json.dumps(game.record())))
    assert review.seats == 4
    assert {d.seat for d in review.decisions} == {0, 1, 2, 3}
    discards = review.of(0, "discard")
    assert discards
    assert all(len(d.hand) == 5 and len(d.options) == 5 for d in discards)
    assert all(d.lost == 0 for d in review.of(0)), "the expert is the judge"
    assert review.totals(1).accuracy < 100, "random lay-aways give points away"
    partner_cribs = [d for d in review.of(2, "discard") if d.dealer]
    dealers = [deal["dealer"] for deal in game.record()["deals"]]
    assert len(partner_cribs) == sum(dealer in (0, 2) for dealer in dealers)
    data = json.loads(json.dumps(review.as_json()))
    assert data["seats"] == 4
    assert len(data["totals"]) == 4
    assert from_json(data).as_json() == data


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_hint_is_the_experts_own_decision_at_every_table(seats: int) -> None:
    """The hint shows ``discard_options`` best first and ``judge_play``'s card: for every
    seat and every decision of a game, what the expert computer does."""
    game = Game.new(seed=seats, seats=seats, target=61)
    expert = ComputerPlayer("expert", 5)
    others = {seat: ComputerPlayer("standard", seat) for seat in range(seats)}
    checked = 0
    while game.phase is not Phase.DONE and checked < 60:
        seat = game.to_move
        assert seat is not None
        if game.phase is Phase.DISCARD:
            assert discard_options(game, seat)[0].discard == expert.choose_discard(game, seat)
        elif game.phase is Phase.PLAY:
            assert judge_play(game, seat).best == expert.choose_play(game, seat)
        checked += 1
        others[seat].decide(game, seat)
    assert checked == 60
