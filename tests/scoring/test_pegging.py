"""The play (docs/rules.md §2.5): what a card scores when it is laid on the sequence.

Every worked example of the rule sources, card by card; then ``score_play``
against a reference written straight from the rule, for every sequence of up to
four cards and for random longer ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.cards import DECK, SUITS, Card, parse_cards
from scoring.rules.pegging import InvalidSequenceError, score_play
from tests.profiles import examples


def points_per_card(cards: str) -> list[int]:
    """What each card of ``cards`` scores as it is laid, in order."""
    laid = parse_cards(cards)
    return [score_play(laid[: index + 1]).total for index in range(len(laid))]


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        # docs/rules.md §2.5: 4-2-3-5-6 scores 3, 4 and 5 for the 3, the 5 and the 6
        ("4C 2D 3H 5S 6C", [0, 0, 3, 4, 5]),
        # docs/rules.md §2.5: 4-2-3-4-3: 3 for the first 3, 3 for the second 4,
        # nothing for the last 3 (4-3-4-3 is no run, 3 after 4 no pair)
        ("4C 2D 3H 4S 3D", [0, 0, 3, 3, 0]),
        # 001, 004: 4-2-6-5-3: nothing until the 3 makes a run of five
        ("4C 2D 6H 5S 3D", [0, 0, 0, 0, 5]),
        # 000: 6 and 5 led, a 4 makes fifteen and a run of three: 5
        ("6C 5D 4H", [0, 0, 5]),
        # 000: 2, 4, then a 3 is a run of three (the order does not matter) ...
        ("2C 4D 3H", [0, 0, 3]),
        # ... then a 5 or an ace is a run of four, a 2 a run of three (4-3-2), a 4 nothing
        ("2C 4D 3H 5S", [0, 0, 3, 4]),
        ("2C 4D 3H AS", [0, 0, 3, 4]),
        ("2C 4D 3H 2S", [0, 0, 3, 3]),
        ("2C 4D 3H 4S", [0, 0, 3, 0]),
        # 000: a 3 taking the count from 28 to 31 on a 3: thirty-one and a pair, 4
        ("KC QD 5H 3S 3D", [0, 0, 0, 0, 4]),
        # 000, 001, 002: pair 2, pair royal 6, double pair royal 12
        ("7C 7D 7H 7S", [0, 2, 6, 12]),
        ("KC KD KH", [0, 2, 6]),
        # a card between breaks the pairs
        ("KC 6D KH", [0, 0, 0]),
        # 001, 004: a king and a 10 or a jack are no pair; ace-king-queen is no run
        ("KC TD", [0, 0]),
        ("KC JD", [0, 0]),
        ("AC KD QH", [0, 0, 0]),
        ("QC KD AH", [0, 0, 0]),
        # 001, 004: 9-10-J, J-Q-K and 2-3-4 are runs
        ("9C TD JH", [0, 0, 3]),
        ("JC QD KH", [0, 0, 3]),
        ("2C 3D 4H", [0, 0, 3]),
        # 003: a run may be laid 4, 5, 3
        ("4C 5D 3H", [0, 0, 3]),
        # 001, 004: fifteen two, thirty-one for two
        ("KC 5D", [0, 2]),
        ("8C 7D", [0, 2]),
        ("KC QD 9H 2S", [0, 0, 0, 2]),
        # 001/004 example round: A has K-K-2-2, B has 9-8-7-6. First sequence:
        # K 10, 6 16, K 26, (B: go), 2 28, 2 30 for a pair (the go point is the game's)
        ("KH 6D KS 2H 2C", [0, 0, 0, 0, 2]),
        # second sequence: 8, 7 fifteen two, 9 for a run of three
        ("8D 7C 9S", [0, 2, 3]),
        # 001 example 1: A has 10 10 9 6, B has 7 6 5 4: 9, 6 fifteen, 6 pair, 5, (go) 4 run
        ("9H 6D 6C 5S 4H", [0, 2, 2, 0, 3]),
        # ... and the next sequence: 10, 7, 10
        ("TH 7D TC", [0, 0, 0]),
        # 001 example 2: A has 10 8 7 5, B has 7 6 5 4: 8, 7 fifteen, 7 pair, 6 (28)
        ("8H 7D 7C 6S", [0, 2, 2, 0]),
        # ... after the reset A's 5 makes no run with the 7 and 6 of the last sequence
        ("5H", [0]),
        # 004: 4 "four", 3 "seven", jack "seventeen", 2 "nineteen": nothing scores
        ("4H 3D JC 2S", [0, 0, 0, 0]),
        # fifteen with a pair, fifteen with a pair royal, 31 with a run
        ("5C TD 5H", [0, 2, 0]),
        ("5C 5D 5H", [0, 2, 8]),
        ("TC 7D 6H 8S", [0, 0, 0, 2 + 3]),
        # the longest run counts: A-7 in any order is a run of seven (count 28)
        ("3C AD 2H 4S 6C 5D 7H", [0, 0, 3, 4, 0, 6, 7]),
        # a long run stops where a rank repeats
        ("5C 6D 5H 4S 3C 7D", [0, 0, 0, 3, 4, 5]),
    ],
)
def test_worked_examples(cards: str, points: list[int]) -> None:
    assert points_per_card(cards) == points


SAID = [
    ("6C 5D 4H", [("fifteen", 2), ("run", 3)], "fifteen two and a run of three is five",
     "femton två och en följd på tre blir fem"),
    ("KC QD 5H 3S 3D", [("thirty-one", 2), ("pair", 2)], "thirty-one for two and a pair is four",
     "trettioett ger två och ett par blir fyra"),
    ("5C 5D 5H", [("fifteen", 2), ("pair", 6)], "fifteen two and a pair royal is eight",
     "femton två och triss blir åtta"),
    ("7C 7D 7H 7S", [("pair", 12)], "a double pair royal for twelve", "fyrtal ger tolv"),
    ("KC QD 9H 2S", [("thirty-one", 2)], "thirty-one for two", "trettioett ger två"),
    ("AC", [], "no points", "inga poäng"),
]  # fmt: skip


@pytest.mark.parametrize(("cards", "kinds", "english", "swedish"), SAID)
def test_items_and_the_call_aloud(
    cards: str, kinds: list[tuple[str, int]], english: str, swedish: str
) -> None:
    score = score_play(parse_cards(cards))
    assert [(item.kind, item.points) for item in score.items] == kinds
    assert score.total == sum(points for _, points in kinds)
    assert str(score) == english
    assert score.say("sv") == swedish


def test_items_hold_the_cards_that_score() -> None:
    fifteen, run = score_play(parse_cards("9C AD 3H 2S")).items
    assert fifteen.cards == tuple(parse_cards("9C AD 3H 2S"))
    assert run.cards == tuple(parse_cards("AD 3H 2S"))
    (pair,) = score_play(parse_cards("4C 2D 3H 3S")).items
    assert pair.cards == tuple(parse_cards("3H 3S"))
    (royal,) = score_play(parse_cards("2D 3H 3S 3C")).items
    assert (royal.cards, royal.points) == (tuple(parse_cards("3H 3S 3C")), 6)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("", "empty"),
        ("5H 5H", "twice"),
        ("KC QD JH 2S", "may never pass 31"),
        ("TC JD QH KS", "40"),
    ],
)
def test_impossible_sequences_are_refused(cards: str, message: str) -> None:
    with pytest.raises(InvalidSequenceError, match=message):
        score_play(parse_cards(cards))


def test_a_card_outside_the_deck_is_refused() -> None:
    with pytest.raises(ValueError, match="not all cards of the deck"):
        score_play([Card(14, "H")])


# ----------------------------------------------------------------- reference


def reference_points(ranks: Sequence[int]) -> int:
    """The points of the last card, read straight off docs/rules.md §2.5."""
    count = sum(min(rank, 10) for rank in ranks)
    points = 2 if count in (15, 31) else 0
    alike = 1
    while alike < len(ranks) and ranks[-1 - alike] == ranks[-1]:
        alike += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[alike]
    longest = 0
    for size in range(3, len(ranks) + 1):
        last = sorted(ranks[-size:])
        if last == list(range(last[0], last[0] + size)):
            longest = size
    return points + longest


def cards_of(ranks: Sequence[int]) -> list[Card]:
    """Different cards of these ranks: the n-th card of a rank takes the n-th suit."""
    return [Card(rank, SUITS[ranks[:index].count(rank)]) for index, rank in enumerate(ranks)]


def every_sequence(longest: int) -> list[tuple[int, ...]]:
    """Every sequence of ranks of one to ``longest`` cards whose count stays within 31."""
    found: list[tuple[int, ...]] = []

    def grow(ranks: tuple[int, ...], count: int) -> None:
        if ranks:
            found.append(ranks)
        if len(ranks) == longest:
            return
        for rank in range(1, 14):
            if count + min(rank, 10) <= 31 and ranks.count(rank) < 4:
                grow((*ranks, rank), count + min(rank, 10))

    grow((), 0)
    return found


def test_every_sequence_of_up_to_four_cards_scores_as_the_reference() -> None:
    sequences = every_sequence(4)
    assert len(sequences) == 24_982
    wrong = [
        ranks for ranks in sequences if score_play(cards_of(ranks)).total != reference_points(ranks)
    ]
    assert wrong == []


def within_31(cards: list[Card]) -> list[Card]:
    """The longest beginning of ``cards`` whose count is 31 or less."""
    count = 0
    for index, card in enumerate(cards):
        count += card.value
        if count > 31:
            return cards[:index]
    return cards


LOW_CARDS = [card for card in DECK if card.rank <= 8]
sequences = st.lists(
    st.sampled_from(LOW_CARDS) | st.sampled_from(DECK), min_size=1, max_size=8, unique=True
).map(within_31)


# A few milliseconds per example; the explicit deadline allows for a loaded machine.
@settings(max_examples=examples(400), deadline=timedelta(seconds=1))
@given(sequences)
def test_random_sequences_score_as_the_reference(cards: list[Card]) -> None:
    score = score_play(cards)
    assert score.total == reference_points([card.rank for card in cards])
    assert score.total == sum(item.points for item in score.items)
    assert all(set(item.cards) <= set(cards) for item in score.items)


@settings(deadline=timedelta(seconds=1))
@given(sequences, st.permutations(SUITS))
def test_suits_never_matter_in_the_play(cards: list[Card], suits: list[str]) -> None:
    renamed = [Card(card.rank, suits[SUITS.index(card.suit)]) for card in cards]
    assert score_play(renamed).total == score_play(cards).total
