"""The show (docs/rules.md §2.6): every worked example of the rule sources, the classic
hands, the spoken count, and the fast scorer against a slow reference."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import timedelta
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.cards import JACK, SUITS, Card, parse_cards
from scoring.rules.hand import HandScore, InvalidHandError, hand_total, rank_points, score_hand
from tests.profiles import examples


def naive_rank_points(cards: Sequence[Card]) -> int:
    """Fifteens, pairs and runs as docs/rules.md §2.6 reads: every combination, one by one."""
    points = sum(
        2
        for size in range(2, 6)
        for combo in combinations(cards, size)
        if sum(card.value for card in combo) == 15
    )
    points += sum(2 for one, other in combinations(cards, 2) if one.rank == other.rank)
    for size in (5, 4, 3):
        runs = [combo for combo in combinations(cards, size) if is_run(combo)]
        if runs:
            return points + size * len(runs)
    return points


def is_run(cards: Sequence[Card]) -> bool:
    ranks = sorted(card.rank for card in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def naive_total(hand: Sequence[Card], starter: Card, *, crib: bool) -> int:
    points = naive_rank_points([*hand, starter])
    if len({card.suit for card in hand}) == 1:
        if starter.suit == hand[0].suit:
            points += 5
        elif not crib:
            points += 4
    return points + sum(1 for card in hand if card.rank == JACK and card.suit == starter.suit)


def show(hand: str, starter: str, *, crib: bool = False) -> HandScore:
    return score_hand(parse_cards(hand), Card.parse(starter), crib=crib)


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "total"),
    [
        # 000: "hj5-sp5-kl10-hjK fyra femton ... totalt 10 poäng" (the starter adds nothing)
        ("5H 5S TC KH", "8D", False, 10),
        # 000: 2-3-4-5 is one run of four; 2-3-4-4 two runs of three and a pair, more
        ("2C 3D 4H 5S", "KC", False, 8),
        ("2C 3D 4H 4S", "KC", False, 10),
        # 000: three fours are three pairs, 6
        ("4C 4D 4H KS", "9D", False, 6),
        # 000: four spades in the crib and a heart starter: no flush; a spade starter: 5
        ("2S 4S 8S QS", "KH", True, 0),
        ("2S 4S 8S QS", "KS", True, 5),
        ("2S 4S 8S QS", "KH", False, 4),
        ("2S 4S 8S QS", "KS", False, 5),
        # 000: three hand cards and the starter of a suit are no flush
        ("2S 4S 8S QH", "KS", False, 0),
        # 000: 10-10 and Q-Q are pairs, 10-Q is not
        ("TC TD QH QS", "AC", False, 4),
        # 000: 9-10-J and J-Q-K are runs, 8-9-Q is not; Q-K-A is not (the ace is low)
        ("9C TD JH 2S", "AC", False, 3),
        ("JC QD KH 2S", "AD", False, 3),
        ("8C 9D QH 2S", "AC", False, 0),
        ("QC KD AH 7S", "6C", False, 0),
        # 001/004: K, J, 5, 5 with an 8 starter: four fifteens and a pair, 10
        ("5H 5C JD KS", "8H", False, 10),
        # 001/004: 6-7-7-8: two runs of three, two fifteens and a pair, 12
        ("6C 7D 7H 8S", "KC", False, 12),
        # 001/004: a run of four (9-10-J-Q) is 4, not two runs of three; five cards 5
        ("9C TD JH QS", "2C", False, 4),
        ("9C TD JH QS", "KD", False, 5),
        # 001: ace-2-3 is a run of three (here with 2-3-K for fifteen)
        ("AC 2D 3H 8S", "KC", False, 5),
        # 002/004: a king and a jack are no pair (6-9 is the only fifteen)
        ("KC JD 4H 6S", "9C", False, 2),
        # 001: 7 8 8 K with a 9 starter: fifteen 2, 4, a pair 6, a run 9, a run 12
        ("7C 8C 8D KS", "9H", False, 12),
        # 003: "10, 10, 9, 8 blir 8 poäng" (a double run of three)
        ("TC TD 9H 8S", "KC", False, 8),
        # 003: 7, 7, 8, 8 are four fifteens and two pairs; a 9 starter adds four runs
        # of three, 12 (003 says 16: it adds the pairs, already counted, twice)
        ("7C 7D 8H 8S", "KC", False, 12),
        ("7C 7D 8H 8S", "9C", False, 24),
        # Classic hands: 29, the maximum; 24; 20
        ("5C 5D 5H JS", "5S", False, 29),
        ("5C 5D 5H 5S", "JS", False, 28),
        ("4C 4D 5H 5S", "6C", False, 24),
        ("7C 7D 7H 8S", "8C", False, 20),
        # Nobs in hand and crib; a jack starter is never nobs, nor a jack beside it
        ("JC 2D 4H 8S", "KC", False, 1),
        ("JC 2D 4H 8S", "KC", True, 1),
        ("2C 4D 6H 8S", "JC", False, 0),
        ("JD 2C 4H 8S", "JC", False, 2),
        # A crib flush with nobs: five clubs, 5, and the jack of clubs, 1
        ("JC 2C 4C 8C", "KC", True, 6),
    ],
)
def test_worked_examples(hand: str, starter: str, crib: bool, total: int) -> None:
    score = show(hand, starter, crib=crib)
    assert score.total == total
    assert sum(item.points for item in score.items) == total


@pytest.mark.parametrize(
    ("hand", "starter", "pairs_and_runs"),
    [
        # 003: double run of three 8, double run of four 10, triple run of three 15,
        # quadruple run of three 16 (runs with their pairs)
        ("3C 3D 4H 5S", "9C", 8),
        ("3C 3D 4H 5S", "6C", 10),
        ("3C 3D 3H 4S", "5C", 15),
        ("3C 3D 4H 4S", "5C", 16),
        # 001/003: pair royal 6, double pair royal 12
        ("9C 9D 9H 2S", "KC", 6),
        ("9C 9D 9H 9S", "KC", 12),
    ],
)
def test_runs_with_pairs(hand: str, starter: str, pairs_and_runs: int) -> None:
    items = show(hand, starter).items
    assert sum(item.points for item in items if item.kind in ("pair", "run")) == pairs_and_runs


def test_a_run_counts_at_its_full_length_only() -> None:
    runs = [item for item in show("2C 3D 4H 5S", "KC").items if item.kind == "run"]
    assert [(len(item.cards), item.points) for item in runs] == [(4, 4)]


def test_double_run_lists_each_run_and_one_pair() -> None:
    items = show("2C 3D 4H 4S", "KC").items
    assert [(item.kind, item.points) for item in items] == [
        ("fifteen", 2),
        ("pair", 2),
        ("run", 3),
        ("run", 3),
    ]
    assert {format(item.cards[2]) for item in items if item.kind == "run"} == {"4H", "4S"}


def test_the_29_hand_breakdown() -> None:
    items = show("5C 5D 5H JS", "5S").items
    assert [item.kind for item in items] == ["fifteen"] * 8 + ["pair", "nobs"]
    assert items[-2].points == 12
    assert items[-1].cards == (Card.parse("JS"),)


@pytest.mark.parametrize(
    ("hand", "starter", "english", "swedish"),
    [
        (
            "5H 5C JD KS",
            "8H",
            "fifteen two, fifteen four, fifteen six, fifteen eight and a pair is ten",
            "femton två, femton fyra, femton sex, femton åtta och ett par blir tio",
        ),
        (
            "7C 8C 8D KS",
            "9H",
            "fifteen two, fifteen four, a pair is six, a run of three is nine"
            " and a run of three is twelve",
            "femton två, femton fyra, ett par blir sex, en följd på tre blir nio"
            " och en följd på tre blir tolv",
        ),
        (
            "5C 5D 5H JS",
            "5S",
            "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve,"
            " fifteen fourteen, fifteen sixteen, a double pair royal is twenty-eight"
            " and nobs is twenty-nine",
            "femton två, femton fyra, femton sex, femton åtta, femton tio, femton tolv,"
            " femton fjorton, femton sexton, fyrtal blir tjugoåtta och knekten blir tjugonio",
        ),
        (
            "7C 8D 8H KS",
            "2C",
            "fifteen two, fifteen four and a pair is six",
            "femton två, femton fyra och ett par blir sex",
        ),
        ("QC KD AH 7S", "6C", "no points", "inga poäng"),
        ("JC 2D 4H 8S", "KC", "one for his nob", "knekten ger ett"),
        ("2S 4S 8S QS", "KH", "a flush for four", "flush ger fyra"),
        (
            "TC TD QH QS",
            "AC",
            "a pair for two and a pair is four",
            "ett par ger två och ett par blir fyra",
        ),
        ("4C 4D 4H KS", "9D", "a pair royal for six", "triss ger sex"),
        ("9C TD JH QS", "2C", "a run of four", "en följd på fyra"),
        (
            "JC 2C 4C 8C",
            "KC",
            "a flush for five and nobs is six",
            "flush ger fem och knekten blir sex",
        ),
    ],
)
def test_the_count_aloud(hand: str, starter: str, english: str, swedish: str) -> None:
    score = show(hand, starter)
    assert str(score) == english
    assert score.say("en") == english
    assert score.say("sv") == swedish


def test_a_language_without_words_is_refused() -> None:
    with pytest.raises(ValueError, match="language 'de'"):
        show("5H 5C JD KS", "8H").say("de")


@pytest.mark.parametrize(
    ("hand", "starter"),
    [
        ("5H 5C JD", "8H"),  # three cards
        ("5H 5C JD KS 2C", "8H"),  # five cards
        ("5H 5H JD KS", "8H"),  # a card twice
        ("5H 5C JD KS", "5C"),  # the starter is in the hand
    ],
)
def test_a_hand_is_four_different_cards_and_another_starter(hand: str, starter: str) -> None:
    with pytest.raises(InvalidHandError, match="four different cards"):
        show(hand, starter)


@pytest.mark.parametrize("stranger", [Card(14, "H"), Card(0, "H"), Card(5, "X")])
def test_a_card_outside_the_deck_is_refused(stranger: Card) -> None:
    with pytest.raises(ValueError, match="four different cards"):
        score_hand(parse_cards("2C 4D 6H 8S"), stranger)
    with pytest.raises(ValueError, match="four different cards"):
        score_hand([stranger, *parse_cards("2C 4D 6H")], Card.parse("8S"))


def test_a_hand_score_is_an_immutable_value() -> None:
    score = show("5H 5C JD KS", "8H")
    assert score == score_hand(tuple(parse_cards("5H 5C JD KS")), Card.parse("8H"))
    assert eval(repr(score), {"Card": Card, "HandScore": HandScore}) == score
    with pytest.raises(dataclasses.FrozenInstanceError):
        score.total = 29  # type: ignore[misc]


def representative_cards(ranks: tuple[int, ...]) -> list[Card]:
    """Five cards of these ranks: the n-th card of a rank takes the n-th suit."""
    return [Card(rank, SUITS[ranks[:index].count(rank)]) for index, rank in enumerate(ranks)]


def test_the_rank_table_matches_the_reference_for_every_five_ranks() -> None:
    checked = 0
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if ranks[0] == ranks[4]:
            continue
        *hand, starter = representative_cards(ranks)
        score = score_hand(hand, starter)
        expected = naive_total(hand, starter, crib=False)
        assert (score.total, sum(item.points for item in score.items)) == (expected, expected)
        assert rank_points(reversed(ranks)) == naive_rank_points([*hand, starter])
        checked += 1
    assert checked == 6175


ranks = st.one_of(st.integers(1, 13), st.just(JACK), st.integers(3, 7))
suits = st.one_of(st.sampled_from(SUITS), st.just("H"))
five_cards = st.lists(st.builds(Card, ranks, suits), min_size=5, max_size=5, unique=True)


# A few milliseconds per example; the explicit deadline allows for a loaded machine.
@settings(max_examples=examples(500), deadline=timedelta(seconds=1))
@given(cards=five_cards, crib=st.booleans())
def test_fast_scorer_matches_the_reference(cards: list[Card], crib: bool) -> None:
    *hand, starter = cards
    score = score_hand(hand, starter, crib=crib)
    assert score.total == naive_total(hand, starter, crib=crib)
    assert sum(item.points for item in score.items) == score.total
    assert hand_total(hand, starter, crib=crib) == score.total


@settings(deadline=timedelta(seconds=1))
@given(cards=five_cards)
def test_the_fifteens_are_every_combination_worth_15_in_order(cards: list[Card]) -> None:
    *hand, starter = cards
    fifteens = [item.cards for item in score_hand(hand, starter).items if item.kind == "fifteen"]
    assert fifteens == [
        combo
        for size in range(2, 6)
        for combo in combinations((*hand, starter), size)
        if sum(card.value for card in combo) == 15
    ]
