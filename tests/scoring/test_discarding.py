"""The discard analysis: exact hand EV, the crib and peg terms, and the best discard."""

from __future__ import annotations

import random

import pytest

from scoring.players.crib_table import crib_means, peg_value, rank_pair_means, throw_of
from scoring.players.discarding import STARTERS, analyse_discards, hand_points, show_points
from scoring.rules.cards import DECK, Card, parse_cards
from scoring.rules.hand import score_hand

LEVELS = ("easy", "standard", "expert")


def brute_force_hand_ev(kept: tuple[Card, ...], six: list[Card]) -> float:
    starters = [card for card in DECK if card not in six]
    assert len(starters) == STARTERS
    return sum(score_hand(kept, starter).total for starter in starters) / len(starters)


@pytest.mark.parametrize("seed", range(8))
def test_hand_ev_is_the_mean_over_the_46_unseen_starters(seed: int) -> None:
    six = random.Random(seed).sample(DECK, 6)
    options = analyse_discards(six, dealer=bool(seed % 2))
    assert len(options) == 15
    assert len({frozenset(option.discard) for option in options}) == 15
    for option in options:
        assert set(option.kept) | set(option.discard) == set(six)
        assert option.hand_ev == pytest.approx(brute_force_hand_ev(option.kept, six), abs=1e-12)


def test_show_points_gives_each_starter_once() -> None:
    six = parse_cards("5H 5C 5S JD 2C 8H")
    shows = show_points(six)
    totals = hand_points(six)
    for throw, row in shows.items():
        assert row.shape == (STARTERS,)
        assert int(row.sum()) == totals[throw]
    jack_kept = shows[parse_cards("2C")[0], parse_cards("8H")[0]]
    assert jack_kept.max() == 29  # with the 5D: the best hand there is


@pytest.mark.parametrize("level", ["standard", "expert"])
@pytest.mark.parametrize("dealer", [True, False])
@pytest.mark.parametrize(
    ("six", "keep"),
    [
        ("5H 5C 5S JD 2C 8H", "5H 5C 5S JD"),
        ("4C 5D 6H 6S KC 9D", "4C 5D 6H 6S"),
        ("7H 8H 8C 9S AC QD", "7H 8H 8C 9S"),
    ],
)
def test_the_best_discard_of_a_clear_six(level: str, dealer: bool, six: str, keep: str) -> None:
    best = analyse_discards(parse_cards(six), dealer=dealer, level=level)[0]
    assert set(best.kept) == set(parse_cards(keep))


def test_the_total_adds_the_crib_for_the_dealer_and_takes_it_away_for_the_pone() -> None:
    six = parse_cards("5H 5C 5S JD 2C 8H")
    for dealer, sign in ((True, 1), (False, -1)):
        for option in analyse_discards(six, dealer=dealer, level="expert"):
            peg = peg_value([card.rank for card in option.kept], dealer=dealer)
            assert option.crib_ev == crib_means()[throw_of(*option.discard)]
            assert option.peg_ev == peg
            assert option.total_ev == pytest.approx(option.hand_ev + sign * option.crib_ev + peg)


def test_levels_know_the_crib_differently() -> None:
    six = parse_cards("5H 6H 9C JD 2S KC")
    throw = (Card.parse("5H"), Card.parse("6H"))
    by_level = {
        level: next(
            o for o in analyse_discards(six, dealer=True, level=level) if o.discard == throw
        )
        for level in LEVELS
    }
    assert by_level["easy"].crib_ev == 0
    assert by_level["standard"].crib_ev == rank_pair_means()[5, 6]
    assert by_level["expert"].crib_ev == crib_means()[5, 6, True]
    assert by_level["standard"].peg_ev == 0 == by_level["easy"].peg_ev
    assert by_level["expert"].crib_ev > by_level["standard"].crib_ev  # suited: flush chances


@pytest.mark.parametrize("level", LEVELS)
def test_options_come_best_first(level: str) -> None:
    six = random.Random(11).sample(DECK, 6)
    totals = [option.total_ev for option in analyse_discards(six, dealer=False, level=level)]
    assert totals == sorted(totals, reverse=True)


@pytest.mark.parametrize("cards", ["5H 5C 5S JD 2C", "5H 5C 5S JD 2C 2C"])
def test_a_discard_is_chosen_from_six_different_cards(cards: str) -> None:
    with pytest.raises(ValueError, match="six different cards"):
        analyse_discards(parse_cards(cards), dealer=True)
