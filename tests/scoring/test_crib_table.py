"""The shipped tables: the crib table and the hand table agree with what they claim."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from scoring.players.crib_table import (
    KEEP_FLOOR,
    all_throws,
    crib_means,
    crib_points,
    hand_table,
    keep_weight,
    kept_hands,
    peg_value,
    rank_pair_means,
    suit_choices,
    throw_of,
)
from scoring.players.pegplay import _table_choice, simulate_play
from scoring.rules.cards import DECK, JACK, SUITS, Card
from scoring.rules.events import Phase
from scoring.rules.game import Game
from scoring.rules.hand import score_hand


def test_the_crib_table_has_every_throw_once() -> None:
    means = crib_means()
    assert sorted(means) == sorted(all_throws())
    assert len(means) == 91 + 78
    assert not any(suited for low, high, suited in means if low == high)
    assert all(0 < mean < 29 for mean in means.values())


@pytest.mark.parametrize("throw", [(5, 5, False), (1, 13, False), (3, 11, True)])
def test_shipped_rows_are_the_exhaustive_count(throw: tuple[int, int, bool]) -> None:
    total, cribs = crib_points(throw)
    assert cribs == 1225 * 48
    assert crib_means()[throw] == total / cribs


def sampled_crib_mean(mine: tuple[Card, Card], rng: random.Random, cribs: int) -> float:
    rest = [card for card in DECK if card not in mine]
    points = []
    for _ in range(cribs):
        theirs_and_starter = rng.sample(rest, 3)
        crib = (*mine, *theirs_and_starter[:2])
        points.append(score_hand(crib, theirs_and_starter[2], crib=True).total)
    return statistics.fmean(points)


@pytest.mark.parametrize(
    ("first", "second"), [("5H", "5S"), ("5C", "TD"), ("2H", "3H"), ("JS", "4D"), ("KC", "AC")]
)
def test_means_agree_with_a_brute_force_sample_in_any_suits(first: str, second: str) -> None:
    mine = (Card.parse(first), Card.parse(second))
    sample = sampled_crib_mean(mine, random.Random(first + second), 4000)
    # The crib's standard deviation is below 4.5 points: 4000 cribs give a standard
    # error under 0.075, so 0.3 is four of them.
    assert sample == pytest.approx(crib_means()[throw_of(*mine)], abs=0.3)


def test_a_throw_is_the_same_in_either_order_and_any_suits() -> None:
    pairs = [(a, b) for a in DECK for b in DECK if a != b]
    moved = {suit: SUITS[(i + 1) % 4] for i, suit in enumerate(SUITS)}
    for first, second in random.Random(3).sample(pairs, 200):
        assert throw_of(first, second) == throw_of(second, first)
        renamed = Card(first.rank, moved[first.suit]), Card(second.rank, moved[second.suit])
        assert throw_of(*renamed) == throw_of(first, second)
    assert all(low <= high for low, high in rank_pair_means())


def test_a_suited_throw_is_worth_more_than_the_same_ranks_unsuited() -> None:
    means = crib_means()
    for low, high, suited in means:
        if suited:
            assert means[low, high, True] > means[low, high, False]


def test_fives_and_five_spots_are_the_best_throws() -> None:
    means = rank_pair_means()
    best = max(means, key=means.__getitem__)
    assert best == (5, 5)
    assert means[5, 5] > means[5, JACK] > means[10, 13]


def test_the_hand_table_has_every_kept_hand() -> None:
    table = hand_table()
    assert sorted(table) == kept_hands()
    assert len(table) == 1820


@pytest.mark.parametrize("dealer", [True, False])
def test_keep_weights_are_relative_to_a_random_four(dealer: bool) -> None:
    total = sum(suit_choices(hand) for hand in kept_hands())
    raw = [(row.keep_dealer if dealer else row.keep_pone) for row in hand_table().values()]
    mean = sum(w * suit_choices(h) / total for w, h in zip(raw, hand_table(), strict=True))
    assert mean == pytest.approx(1.0, abs=1e-4)
    assert (
        keep_weight([5, 5, 11, 12], dealer=dealer) > 1 > keep_weight([2, 7, 9, 13], dealer=dealer)
    )
    assert keep_weight([2, 7, 9, 13], dealer=dealer) >= KEEP_FLOOR


def test_the_dealer_pegs_better_than_the_pone() -> None:
    rows = hand_table().values()
    assert statistics.fmean(row.peg_dealer for row in rows) > 0
    assert statistics.fmean(row.peg_pone for row in rows) < 0
    assert peg_value([1, 2, 3, 4], dealer=False) > peg_value([5, 5, 5, 5], dealer=False)


def test_a_peg_value_is_the_weighted_mean_of_its_simulated_plays() -> None:
    pone = (3, 4, 4, 10)
    net = weight_sum = 0.0
    for dealer in kept_hands():
        ways = suit_choices(dealer, Counter(pone))
        if ways:
            weight = ways * keep_weight(dealer, dealer=True)
            net += weight * simulate_play(pone, dealer)
            weight_sum += weight
    assert peg_value(pone, dealer=False) == pytest.approx(net / weight_sum, abs=1e-5)


def played_in_a_game(pone: list[Card], dealer: list[Card], rest: list[Card]) -> int:
    """The pone's net in the play of a real game, both laying as the table's player."""
    hands = [[*pone, *rest[:2]], [*dealer, *rest[2:4]]]
    game = Game.new(seed=1, first_dealer=1, stacked=[(hands, rest[4])])
    game.discard(0, rest[:2])
    game.discard(1, rest[2:4])
    while game.phase is Phase.PLAY:
        player = game.to_move
        assert player is not None
        held = tuple(sorted(card.rank for card in game.hand(player)))
        sequence = tuple(card.rank for _, card in game.sequence)
        passed = bool(game.sequence) and game.sequence[-1][0] == player
        rank = _table_choice(held, sequence, len(game.hand(1 - player)), passed)
        game.play(player, next(card for card in game.hand(player) if card.rank == rank))
    pegged = [0, 0]
    for event in game.events:
        if event.type in ("play", "go", "last") and event.points and event.player is not None:
            pegged[event.player] += event.points
    return pegged[0] - pegged[1]


def test_the_simulated_play_follows_the_rules_of_the_game() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 150:
        cards = rng.sample(DECK, 13)
        pone, dealer = cards[:4], cards[4:8]
        expected = played_in_a_game(pone, dealer, cards[8:])
        ranks = (tuple(sorted(c.rank for c in pone)), tuple(sorted(c.rank for c in dealer)))
        assert simulate_play(*ranks) == expected, ranks
        checked += 1
