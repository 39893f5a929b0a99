"""Cards (docs/rules.md §1): notation in and out, the deck, and the errors bad notation gives."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules.cards import (
    DECK,
    RANKS,
    SUITS,
    Card,
    InvalidCardError,
    format_cards,
    parse_cards,
)

ALL_TOKENS = [rank + suit for rank in "A23456789TJQK" for suit in "CDHS"]


def test_the_deck_is_52_different_cards_in_rank_then_suit_order() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert sorted(DECK) == list(DECK)
    assert [str(card) for card in DECK] == ALL_TOKENS
    assert all(DECK[card.index] == card for card in DECK)


@pytest.mark.parametrize("token", ALL_TOKENS)
def test_every_card_parses_and_prints_back(token: str) -> None:
    card = Card.parse(token)
    assert str(card) == token
    assert Card.parse(str(card)) == card
    assert card in DECK


@pytest.mark.parametrize("card", DECK, ids=str)
def test_repr_pastes_back_in(card: Card) -> None:
    assert repr(card) == f"Card.parse({str(card)!r})"
    assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize(
    ("token", "rank", "suit", "value"),
    [
        ("AC", 1, "C", 1),
        ("5H", 5, "H", 5),
        ("9S", 9, "S", 9),
        ("TD", 10, "D", 10),
        ("10D", 10, "D", 10),  # ten is written T, and 10 is accepted too
        ("10s", 10, "S", 10),
        ("JH", 11, "H", 10),
        ("QS", 12, "S", 10),
        ("KC", 13, "C", 10),
        ("kc", 13, "C", 10),
        (" 7h ", 7, "H", 7),
    ],
)
def test_rank_suit_and_pip_value(token: str, rank: int, suit: str, value: int) -> None:
    card = Card.parse(token)
    assert (card.rank, card.suit, card.value) == (rank, suit, value)


def test_a_ten_written_10_prints_as_t() -> None:
    assert str(Card.parse("10H")) == "TH"
    assert Card.parse("10H") == Card.parse("TH")


@pytest.mark.parametrize(
    "token",
    ["", "5", "H", "1H", "0H", "11H", "5X", "5HH", "55H", "H5", "5 H", "10", "1OH", "TT", "ZS"],
)
def test_bad_notation_is_refused_naming_the_token(token: str) -> None:
    with pytest.raises(InvalidCardError) as caught:
        Card.parse(token)
    assert caught.value.token == token
    assert repr(token) in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_parse_cards_reads_a_line_of_cards() -> None:
    cards = parse_cards("5H 5C 5S JD")
    assert cards == [Card(5, "H"), Card(5, "C"), Card(5, "S"), Card(11, "D")]
    assert parse_cards("5H,5C, 10S") == parse_cards(["5H", "5C", "TS"])
    assert parse_cards("") == []
    assert format_cards(cards) == "5H 5C 5S JD"


def test_parse_cards_names_the_first_bad_token() -> None:
    with pytest.raises(InvalidCardError, match="'5Q'") as caught:
        parse_cards("5H 5Q 1S")
    assert caught.value.token == "5Q"


def test_cards_are_immutable_hashable_values() -> None:
    card = Card.parse("5H")
    assert {card, Card.parse("5H")} == {card}
    assert hash(card) == hash(Card.parse("5h"))
    with pytest.raises(AttributeError):
        card.rank = 6  # type: ignore[misc]


def test_cards_order_by_rank_then_suit() -> None:
    assert Card.parse("AS") < Card.parse("2C") < Card.parse("2D") < Card.parse("KS")
    assert Card.parse("TS") < Card.parse("JC")


# A few milliseconds per example; the explicit deadline allows for a loaded machine.
@settings(deadline=timedelta(seconds=1))
@given(st.lists(st.sampled_from(DECK), max_size=12))
def test_format_and_parse_are_inverse(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards


@settings(deadline=timedelta(seconds=1))
@given(st.text(alphabet=RANKS + SUITS + "10 xz", max_size=4))
def test_any_token_either_parses_to_a_deck_card_or_is_refused(token: str) -> None:
    text = token.strip().upper()
    text = "T" + text[2:] if text.startswith("10") else text
    if text in ALL_TOKENS:
        assert str(Card.parse(token)) == text
    else:
        with pytest.raises(InvalidCardError) as caught:
            Card.parse(token)
        assert caught.value.token == token
