"""A game driven one decision at a time (docs/rules.md §2): the play, the show, the end at 121,
illegal decisions, self-counting and muggins, saving, and the game record.

Deals are stacked (``gameplay.stacked_game``): player 0 is the pone of the first
deal and player 1 its dealer.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from scoring.rules.cards import Card, parse_cards
from scoring.rules.deal import cut_for_deal
from scoring.rules.events import Event, EventType, IllegalPlayError, Phase, Refusal
from scoring.rules.game import Game
from scoring.rules.pegging import score_play
from scoring.rules.replay import game_from_record
from tests.scoring.gameplay import (
    DEALER,
    PONE,
    discard_both,
    lay,
    play_randomly,
    snapshot,
    stacked_game,
    trace,
)

PLAY_AND_SHOW = ("play", "go", "last", "reset", "show", "claim", "heels", "muggins", "win")

# 001/004 example round: A (the pone) holds K-K-2-2, B (the dealer) 9-8-7-6.
KINGS = ("KH KS 2H 2C 3C 4C", "9S 8D 7C 6D TC QC", "AD")
KINGS_DISCARDS = ("3C 4C", "TC QC")
KINGS_PLAY = "KH 6D KS 2H 2C 8D 7C 9S"


def kings_game(**options: Any) -> Game:
    game = stacked_game(*KINGS, **options)
    discard_both(game, *KINGS_DISCARDS)
    return game


# ------------------------------------------------------------------ the play


def test_the_pone_leads() -> None:
    game = kings_game()
    assert game.phase is Phase.PLAY
    assert game.to_move == PONE
    assert game.awaiting == {PONE}
    assert game.legal_plays(DEALER) == []
    assert sorted(game.legal_plays(PONE)) == sorted(parse_cards("KH KS 2H 2C"))


def test_the_example_round_of_the_rule_sources() -> None:
    """001/004: go, a pair laid by the player who was not stopped, and the last card."""
    game = kings_game()
    assert trace(lay(game, KINGS_PLAY)) == [
        "play 0 KH 10 0",
        "play 1 6D 16 0",
        "play 0 KS 26 0",
        "go 1",  # B holds 9 8 7: each would pass 31
        "play 0 2H 28 0",  # A must go on laying what he can ...
        "play 0 2C 30 2",  # ... and pairs his own 2
        "last 0 1",  # "30 for 3": the pair and one for the last card
        "reset",
        "play 1 8D 8 0",  # B did not lay the last card, so B leads
        "go 0",  # A has no cards left: go, automatically
        "play 1 7C 15 2",
        "play 1 9S 24 3",
        "last 1 1",  # "24 for 3 and 1 for the last"
    ]
    assert game.scores == (3 + 8, 6 + 10 + 4)  # pegging, then the shows


def test_thirty_one_scores_two_and_never_an_extra_point() -> None:
    """000: a pair laid by the same player after the other's go; 31 ends the sequence."""
    game = stacked_game("TH 7D 2S 2D 3H 4H", "KC 9C 8C 6H 5C 5D", "AD")
    discard_both(game, "3H 4H", "5C 5D")
    assert trace(lay(game, "TH KC 7D 2S 2D 9C 8C 6H")) == [
        "play 0 TH 10 0",
        "play 1 KC 20 0",
        "play 0 7D 27 0",
        "go 1",
        "play 0 2S 29 0",
        "play 0 2D 31 4",  # thirty-one and a pair; no point for last
        "reset",
        "play 1 9C 9 0",  # the opponent of the player who made 31 leads
        "go 0",
        "play 1 8C 17 0",
        "play 1 6H 23 0",
        "last 1 1",  # the very last card of the deal
    ]


def test_after_31_the_other_player_leads_though_the_first_still_holds_cards() -> None:
    """000: the opponent of the player who made 31 lays the first card of the next sequence."""
    game = stacked_game("TH 9H 2C AC 7D 8D", "KD QD 4S 3S 5C 6C", "2S")
    discard_both(game, "7D 8D", "5C 6C")
    assert trace(lay(game, "TH KD 9H 2C")) == [
        "play 0 TH 10 0",
        "play 1 KD 20 0",  # a king on a ten is no pair
        "play 0 9H 29 0",
        "go 1",
        "play 0 2C 31 2",
        "reset",
    ]
    assert game.hand(PONE) == (Card.parse("AC"),)
    assert game.to_move == DEALER
    assert trace(lay(game, "QD AC 4S 3S")) == [
        "play 1 QD 10 0",
        "play 0 AC 11 0",
        "play 1 4S 15 2",
        "go 0",
        "play 1 3S 18 0",
        "last 1 1",
    ]


def test_thirty_one_with_the_very_last_card_scores_two_only() -> None:
    game = stacked_game("AC 2C 4C 9C KH QH", "AD 2D 3D 9D KS QS", "5H")
    discard_both(game, "KH QH", "KS QS")
    assert trace(lay(game, "AC AD 2C 2D 4C 3D 9C 9D"), PLAY_AND_SHOW) == [
        "play 0 AC 1 0",
        "play 1 AD 2 2",
        "play 0 2C 4 0",
        "play 1 2D 6 2",
        "play 0 4C 10 0",
        "play 1 3D 13 3",  # 2-4-3, laid by both players
        "play 0 9C 22 0",
        "play 1 9D 31 4",  # 31 and a pair, and no point for the last card
        "show 0 hand 8",
        "show 1 hand 11",
        "show 1 crib 12",
    ]


def test_pairs_and_runs_stay_inside_their_sequence() -> None:
    """001/004 example 2: after the reset A's 5 makes no run with the 7 and the 6."""
    game = stacked_game("TH 8H 7H 5H KC KD", "7S 6S 5S 4S QC QD", "AD")
    discard_both(game, "KC KD", "QC QD")
    assert trace(lay(game, "8H 7S 7H 6S 5H 4S TH 5S")) == [
        "play 0 8H 8 0",
        "play 1 7S 15 2",
        "play 0 7H 22 2",
        "play 1 6S 28 0",
        "go 0",  # A holds 10 and 5, B 5 and 4: neither can lay
        "last 1 1",
        "reset",
        "play 0 5H 5 0",  # no run with the 7 and 6 before the reset
        "play 1 4S 9 0",
        "play 0 TH 19 0",
        "play 1 5S 24 0",  # no pair: the 10 lies between the fives
        "last 1 1",
    ]


def test_a_player_whose_opponent_is_out_ends_a_sequence_and_leads_the_next() -> None:
    """000: with the other's cards gone, one player may end a sequence and start the next."""
    game = stacked_game("7H 4C JS 5S QC 9D", "8S KH 9H 4S TH KC", "KS")
    discard_both(game, "5S QC", "8S 4S")
    assert trace(lay(game, "9D 9H 4C 7H TH JS KC KH")) == [
        "play 0 9D 9 0",
        "play 1 9H 18 2",
        "play 0 4C 22 0",
        "go 1",
        "play 0 7H 29 0",
        "last 0 1",
        "reset",
        "play 1 TH 10 0",
        "play 0 JS 20 0",
        "play 1 KC 30 0",
        "go 0",
        "last 1 1",
        "reset",
        "play 1 KH 10 0",  # the pone has no cards: the dealer leads again
        "last 1 1",
    ]


def test_a_player_who_can_lay_must_and_cannot_pass_31() -> None:
    game = kings_game()
    lay(game, "KH 6D KS")
    assert game.count == 26
    assert game.to_move == PONE  # the dealer said go; the pone lays again
    assert game.legal_plays(PONE) == parse_cards("2H 2C")
    assert game.legal_plays(DEALER) == []


def test_the_play_ends_after_all_eight_cards() -> None:
    game = kings_game()
    lay(game, KINGS_PLAY)
    first_deal = game.deals[0]
    played = [event["card"] for event in first_deal["events"] if event["type"] == "play"]
    assert played == KINGS_PLAY.split()


# ---------------------------------------------------------- starter and heels


def test_a_jack_starter_gives_the_dealer_two_for_his_heels() -> None:
    game = stacked_game(*KINGS[:2], "JD")
    events = discard_both(game, *KINGS_DISCARDS)
    assert trace(events, ("starter", "heels")) == ["starter", "heels 1 2"]
    assert game.scores == (0, 2)
    assert game.phase is Phase.PLAY


def test_heels_can_end_the_game_before_the_play() -> None:
    game = stacked_game(*KINGS[:2], "JD", scores=(50, 119))
    events = discard_both(game, *KINGS_DISCARDS)
    assert trace(events, ("starter", "heels", "win")) == ["starter", "heels 1 2", "win 1"]
    assert (game.winner, game.scores, game.phase) == (DEALER, (50, 121), Phase.DONE)
    assert events[-1].skunk == "double"


# ------------------------------------------------------------------ the show


def test_show_order_is_pone_dealer_crib() -> None:
    game = kings_game()
    events = lay(game, KINGS_PLAY)
    shows = [(e.player, e.what, e.points, e.cards) for e in events if e.type == "show"]
    assert shows == [
        (PONE, "hand", 8, tuple(parse_cards("KH KS 2H 2C"))),
        (DEALER, "hand", 10, tuple(parse_cards("9S 8D 7C 6D"))),
        (DEALER, "crib", 4, tuple(parse_cards("3C 4C TC QC"))),
    ]
    assert [e.said for e in events if e.type == "show"][:2] == [
        "fifteen two, fifteen four, a pair is six and a pair is eight",
        "fifteen two, fifteen four, fifteen six and a run of four is ten",
    ]


def test_the_pone_shows_first_and_wins_though_the_dealer_holds_more() -> None:
    game = kings_game(scores=(112, 113))
    events = lay(game, KINGS_PLAY)
    assert game.scores == (121, 119)  # 115 and 119 after the play; the pone's 8 goes out
    assert game.winner == PONE
    assert trace(events, ("show", "win"))[-2:] == ["show 0 hand 8", "win 0"]
    assert events[-1].type == "win"  # the dealer's 10 and the crib are never shown


def test_the_dealer_hand_can_win_before_the_crib_is_shown() -> None:
    game = kings_game(scores=(100, 105))
    events = lay(game, KINGS_PLAY)
    assert trace(events, ("show", "win"))[-3:] == ["show 0 hand 8", "show 1 hand 10", "win 1"]
    assert game.scores == (111, 121)


def test_the_game_stops_in_the_play_the_moment_121_is_reached() -> None:
    game = kings_game(scores=(0, 119))
    events = lay(game, "KH 6D KS 2H 2C 8D 7C")
    assert trace(events[-2:], PLAY_AND_SHOW) == ["play 1 7C 15 2", "win 1"]
    assert game.scores == (3, 121)
    assert game.phase is Phase.DONE
    assert game.to_move is None
    assert game.awaiting == set()
    assert game.hand(DEALER) == (Card.parse("9S"),)  # left unplayed
    record = game.record()
    assert (record["winner"], record["final_scores"], record["skunk"]) == (1, [3, 121], "double")


def test_a_score_stops_at_121() -> None:
    game = kings_game(scores=(120, 0))
    lay(game, "KH 6D KS 2H 2C")  # the pair of twos is worth 2, one is enough
    assert game.scores == (121, 0)
    assert game.events[-2].points == 2  # the event keeps what the card earned


@pytest.mark.parametrize(
    ("loser", "skunk"), [(0, "double"), (60, "double"), (61, "skunk"), (90, "skunk"), (91, "none")]
)
def test_the_win_says_whether_the_loser_was_skunked(loser: int, skunk: str) -> None:
    game = stacked_game(*KINGS[:2], "JD", scores=(loser, 120))
    events = discard_both(game, *KINGS_DISCARDS)
    assert (events[-1].type, events[-1].skunk) == ("win", skunk)
    assert game.record()["skunk"] == skunk


# ----------------------------------------------------------- deal after deal


def test_the_deal_passes_to_the_other_player() -> None:
    game = kings_game()
    lay(game, KINGS_PLAY)
    assert (game.deal_number, game.dealer, game.pone) == (2, PONE, DEALER)
    assert game.phase is Phase.DISCARD
    assert game.awaiting == {0, 1}
    assert game.to_move == DEALER  # the new pone
    assert len(game.hand(0)) == len(game.hand(1)) == 6
    assert not set(game.hand(0)) & set(game.hand(1))
    dealers = [deal["dealer"] for deal in play_randomly(game, random.Random(1)).deals]
    assert dealers == [(DEALER + number) % 2 for number in range(len(dealers))]


def test_a_discard_waits_for_the_other_player() -> None:
    game = stacked_game(*KINGS)
    assert game.awaiting == {0, 1}
    assert game.to_move == PONE
    assert len(game.legal_discards(PONE)) == 15
    game.discard(DEALER, parse_cards("TC QC"))  # either player may lay away first
    assert game.awaiting == {PONE}
    assert game.legal_discards(DEALER) == []
    assert game.starter is None
    assert game.crib == ()
    game.discard(PONE, parse_cards("3C 4C"))
    assert game.starter == Card.parse("AD")
    assert game.crib == tuple(parse_cards("3C 4C TC QC"))
    assert game.kept(PONE) == tuple(parse_cards("KH KS 2H 2C"))


# ------------------------------------------------------------ the cut for deal


@pytest.mark.parametrize("seed", range(40))
def test_the_lower_card_deals_first(seed: int) -> None:
    game = Game.new(seed=seed)
    cuts = [event for event in game.events if event.type == "cut"]
    first, second = cuts[-1].cards  # player 0 cut the first card, player 1 the second
    assert first.rank != second.rank
    assert game.first_dealer == game.dealer == (0 if first.rank < second.rank else 1)
    assert cuts[-1].player == game.first_dealer


def test_equal_ranks_cut_again() -> None:
    seed = next(seed for seed in range(1000) if len(cut_for_deal(seed)) > 1)
    game = Game.new(seed=seed)
    cuts = [event for event in game.events if event.type == "cut"]
    assert len(cuts) > 1
    assert all(event.cards[0].rank == event.cards[1].rank for event in cuts[:-1])
    assert all(event.player is None for event in cuts[:-1])
    assert [[str(a), str(b)] for a, b in cut_for_deal(seed)] == game.record()["cut"]


# -------------------------------------------------------- illegal decisions


def discarded_game() -> Game:
    return kings_game()


def counting_game() -> Game:
    game = kings_game(self_count=frozenset({PONE}))
    lay(game, KINGS_PLAY)
    assert game.phase is Phase.COUNT
    return game


def finished_game() -> Game:
    game = kings_game(scores=(0, 119))
    lay(game, "KH 6D KS 2H 2C 8D 7C")
    return game


def kings() -> Game:
    return stacked_game(*KINGS)


NINE_S, THREE_C = Card.parse("9S"), Card.parse("3C")
R = Refusal
Why = tuple[Refusal, Card | None, Phase | None]
ILLEGAL = [
    # (game, decision, message, (reason, card, phase))
    (kings, {"player": 0, "discard": ["KH", "9S"]}, "not in your hand", (R.NOT_HELD, NINE_S, None)),
    (kings, {"player": 0, "discard": ["KH"]}, "exactly two", (R.NOT_TWO_CARDS, None, None)),
    (
        kings,
        {"player": 0, "discard": ["KH", "KS", "2H"]},
        "exactly two",
        (R.NOT_TWO_CARDS, None, None),
    ),
    (kings, {"player": 0, "discard": ["KH", "KH"]}, "exactly two", (R.NOT_TWO_CARDS, None, None)),
    (kings, {"player": 2, "discard": ["KH", "KS"]}, "no player 2", (R.NO_SUCH_PLAYER, None, None)),
    (kings, {"player": 0, "play": "KH"}, "not to lay a card", (R.WRONG_PHASE, None, Phase.DISCARD)),
    (kings, {"player": 0, "count": 8}, "not to count", (R.WRONG_PHASE, None, Phase.DISCARD)),
    (discarded_game, {"player": 1, "play": "9S"}, "Player's turn", (R.NOT_YOUR_TURN, None, None)),
    (
        discarded_game,
        {"player": 0, "play": "3C"},
        "3C is not in your hand",
        (R.NOT_HELD, THREE_C, None),
    ),
    (
        discarded_game,
        {"player": 0, "play": "9S"},
        "9S is not in your hand",
        (R.NOT_HELD, NINE_S, None),
    ),
    (
        discarded_game,
        {"player": 0, "discard": ["KH", "KS"]},
        "not to lay away",
        (R.WRONG_PHASE, None, Phase.PLAY),
    ),
    (discarded_game, {"player": 0, "count": 8}, "not to count", (R.WRONG_PHASE, None, Phase.PLAY)),
    (
        counting_game,
        {"player": 0, "count": 9},
        "worth less than 9",
        (R.MORE_THAN_WORTH, None, None),
    ),
    (counting_game, {"player": 0, "count": -1}, "whole number", (R.NOT_A_COUNT, None, None)),
    (counting_game, {"player": 0, "count": 7.5}, "whole number", (R.NOT_A_COUNT, None, None)),
    (counting_game, {"player": 0, "count": True}, "whole number", (R.NOT_A_COUNT, None, None)),
    (counting_game, {"player": 0, "count": None}, "whole number", (R.NOT_A_COUNT, None, None)),
    (counting_game, {"player": 1, "count": 8}, "turn", (R.NOT_YOUR_TURN, None, None)),
    (
        counting_game,
        {"player": 0, "play": "KH"},
        "not to lay a card",
        (R.WRONG_PHASE, None, Phase.COUNT),
    ),
    (finished_game, {"player": 1, "play": "9S"}, "the game is over", (R.GAME_OVER, None, None)),
    (finished_game, {"player": 0, "count": 0}, "the game is over", (R.GAME_OVER, None, None)),
    (
        finished_game,
        {"player": 0, "discard": ["KH", "KS"]},
        "the game is over",
        (R.GAME_OVER, None, None),
    ),
]


@pytest.mark.parametrize(("make", "decision", "message", "why"), ILLEGAL)
def test_an_illegal_decision_is_refused_with_its_reason_and_changes_nothing(
    make: Any, decision: dict[str, Any], message: str, why: Why
) -> None:
    game = make()
    before = snapshot(game)
    with pytest.raises(IllegalPlayError, match=message) as refused:
        game.apply(decision)
    assert (refused.value.reason, refused.value.card, refused.value.phase) == why
    assert snapshot(game) == before


def test_passing_31_is_refused_and_changes_nothing() -> None:
    game = stacked_game("KH KS 2H 2C 3C 4C", "9S 8D 4D 6D TC QC", "AD")
    discard_both(game, *KINGS_DISCARDS)
    lay(game, "KH 6D KS")
    assert (game.count, game.to_move) == (26, DEALER)
    assert game.legal_plays(DEALER) == [Card.parse("4D")]
    before = snapshot(game)
    with pytest.raises(IllegalPlayError, match="9S would take the count to 35") as refused:
        game.play(DEALER, Card.parse("9S"))
    assert (refused.value.reason, refused.value.card) == (Refusal.PAST_31, Card.parse("9S"))
    assert snapshot(game) == before


def test_discarding_twice_is_refused_and_changes_nothing() -> None:
    game = stacked_game(*KINGS)
    game.discard(PONE, parse_cards("3C 4C"))
    before = snapshot(game)
    with pytest.raises(IllegalPlayError, match="already laid away") as refused:
        game.discard(PONE, parse_cards("KH KS"))
    assert refused.value.reason is Refusal.ALREADY_DISCARDED
    assert snapshot(game) == before


# --------------------------------------------------- self-counting and muggins


def test_a_self_counting_player_claims_their_hand() -> None:
    game = counting_game()
    assert game.showing == (PONE, "hand", tuple(parse_cards("KH KS 2H 2C")))
    assert game.awaiting == {PONE}
    assert game.to_move == PONE
    scores = game.scores
    events = game.count_hand(PONE, 8)
    assert trace(events, ("show",)) == ["show 0 hand 8", "show 1 hand 10", "show 1 crib 4"]
    assert game.scores == (scores[0] + 8, scores[1] + 14)
    assert events[0].said == "fifteen two, fifteen four, a pair is six and a pair is eight"


def test_points_a_player_misses_are_lost_without_muggins() -> None:
    game = counting_game()
    before = game.scores
    events = game.count_hand(PONE, 5)
    assert [e.type for e in events if e.type in ("show", "muggins")] == ["show", "show", "show"]
    assert game.scores == (before[0] + 5, before[1] + 14)


def test_with_muggins_the_opponent_takes_the_missed_points() -> None:
    game = kings_game(self_count=frozenset({PONE}), muggins=True)
    lay(game, KINGS_PLAY)
    before = game.scores
    events = game.count_hand(PONE, 5)
    assert trace(events, ("show", "muggins")) == [
        "show 0 hand 5",
        "muggins 1 3",
        "show 1 hand 10",
        "show 1 crib 4",
    ]
    assert game.scores == (before[0] + 5, before[1] + 3 + 14)


def test_muggins_can_win_the_game() -> None:
    game = kings_game(self_count=frozenset({PONE}), muggins=True, scores=(0, 112))
    lay(game, KINGS_PLAY)
    assert game.scores == (3, 118)
    events = game.count_hand(PONE, 0)
    assert trace(events, ("show", "muggins", "win")) == ["show 0 hand 0", "muggins 1 8", "win 1"]
    assert game.scores == (3, 121)


def callers_game(**options: Any) -> Game:
    """The 001/004 example round between two people who count and call muggins themselves."""
    both = frozenset({PONE, DEALER})
    game = kings_game(self_count=both, muggins=True, callers=both, **options)
    lay(game, KINGS_PLAY)
    return game


def test_between_callers_the_opponent_checks_a_short_count_and_takes_what_it_missed() -> None:
    game = callers_game()
    before = game.scores
    assert trace(game.count_hand(PONE, 5), PLAY_AND_SHOW) == ["claim 0 hand 5"]
    assert (game.phase, game.awaiting, game.to_move) == (Phase.MUGGINS, frozenset({DEALER}), DEALER)
    assert game.showing == (PONE, "hand", tuple(parse_cards("KH KS 2H 2C")))
    assert (game.claimed, game.missed) == (5, 3)
    assert trace(game.call_muggins(DEALER, 3), PLAY_AND_SHOW) == ["show 0 hand 5", "muggins 1 3"]
    assert game.scores == (before[0] + 5, before[1] + 3)
    assert (game.phase, game.showing) == (Phase.COUNT, (DEALER, "hand", game.kept(DEALER)))
    assert game.claimed is None


def test_a_right_count_is_checked_too_and_the_call_lets_it_stand() -> None:
    """Waiting only after a short count would tell the opponent that points were missed."""
    game = callers_game()
    game.count_hand(PONE, 8)
    assert (game.phase, game.awaiting, game.missed) == (Phase.MUGGINS, frozenset({DEALER}), 0)
    assert trace(game.call_muggins(DEALER, 0), PLAY_AND_SHOW) == ["show 0 hand 8", "muggins 1 0"]
    assert game.awaiting == {DEALER}  # now counting their own hand
    game.count_hand(DEALER, 10)
    assert game.awaiting == {PONE}
    game.call_muggins(PONE, 0)
    game.count_hand(DEALER, 4)
    game.call_muggins(PONE, 0)
    assert (game.deal_number, game.phase) == (2, Phase.DISCARD)


def test_a_call_may_take_fewer_points_than_were_missed_and_is_never_retried() -> None:
    game = callers_game()
    game.count_hand(PONE, 2)  # 6 missed
    scores, before = game.scores, snapshot(game)
    for wrong in (-1, 2.5, None, True):
        with pytest.raises(IllegalPlayError) as refused:
            game.call_muggins(DEALER, wrong)  # type: ignore[arg-type]
        assert refused.value.reason is Refusal.NOT_A_COUNT
    assert snapshot(game) == before
    game.call_muggins(DEALER, 4)
    assert game.scores == (scores[0], scores[1] + 4)


def test_a_call_above_the_points_missed_is_final_and_wins_nothing() -> None:
    """Refusing it would let the caller step down from 29 to the exact points missed."""
    game = callers_game()
    game.count_hand(PONE, 2)  # 6 missed
    scores = game.scores
    events = game.call_muggins(DEALER, 7)
    assert trace(events, PLAY_AND_SHOW) == ["show 0 hand 2", "muggins 1 0"]
    assert (events[-1].points, events[-1].called) == (0, 7)
    assert game.scores == scores
    assert (game.phase, game.awaiting) == (Phase.COUNT, frozenset({DEALER}))
    with pytest.raises(IllegalPlayError) as refused:
        game.call_muggins(DEALER, 6)  # no second call
    assert refused.value.reason is Refusal.WRONG_PHASE
    assert game.record()["deals"][0]["events"][-1] == {
        "type": "muggins", "player": DEALER, "points": 0, "called": 7, "scores": list(scores),
    }  # fmt: skip


@pytest.mark.parametrize("claim", [9, 8, 5])  # an over-count, the worth, an under-count
def test_until_the_call_every_claim_is_pegged_alike(claim: int) -> None:
    """The hand is worth 8. Whatever is claimed, the claim is pegged at once, as at the
    table, and its event says the claim and nothing the engine counted: the caller learns
    nothing from the board."""
    game = callers_game()
    before, previous = game.scores, game.previous_scores
    (event,) = game.count_hand(PONE, claim)
    assert event == Event(
        EventType.CLAIM,
        player=PONE,
        points=claim,
        cards=tuple(parse_cards("KH KS 2H 2C")),
        what="hand",
        scores=(before[0] + claim, before[1]),
    )
    assert game.scores == (before[0] + claim, before[1])
    assert game.previous_scores == (before[0], previous[1])  # the back peg where it was
    assert (game.phase, game.claimed, game.winner) == (Phase.MUGGINS, claim, None)
    assert game.record()["deals"][0]["events"][-1]["type"] == "last"  # not yet recorded


def test_an_over_count_is_pegged_until_the_call_takes_it_back() -> None:
    """The hand is worth 8: a claim of 9 is not refused (that would tell the counter the
    worth); it is pegged until the call, then pegs nothing, and the whole 8 is there for
    the caller to take."""
    game = callers_game()
    scores, previous = game.scores, game.previous_scores
    game.count_hand(PONE, 9)
    assert (game.scores, game.missed) == ((scores[0] + 9, scores[1]), 8)
    with pytest.raises(IllegalPlayError):
        game.count_hand(PONE, 8)  # no second claim
    events = game.call_muggins(DEALER, 8)
    assert trace(events, PLAY_AND_SHOW) == ["show 0 hand 0", "muggins 1 8"]
    assert (events[0].claimed, events[0].scores) == (9, scores)
    assert game.scores == (scores[0], scores[1] + 8)
    assert game.previous_scores == (previous[0], scores[1])  # the back peg put back too
    shown = game.record()["deals"][0]["events"][-2]
    assert (shown["points"], shown["claimed"]) == (0, 9)


def test_without_a_caller_an_over_claim_is_still_refused() -> None:
    """In practice (the computer takes what is missed) a claim above the worth is refused."""
    game = kings_game(self_count=frozenset({PONE}), muggins=True)
    lay(game, KINGS_PLAY)
    with pytest.raises(IllegalPlayError) as refused:
        game.count_hand(PONE, 9)
    assert refused.value.reason is Refusal.MORE_THAN_WORTH


def test_an_over_claim_and_an_over_call_replay_from_the_record() -> None:
    game = callers_game()
    game.count_hand(PONE, 9)
    game.call_muggins(DEALER, 5)
    game.count_hand(DEALER, 29)
    game.call_muggins(PONE, 30)
    record = game.record()
    replayed = game_from_record(json.loads(json.dumps(record)))
    assert replayed.record() == record
    assert Game.from_json(game.to_json()).record() == record


def test_only_the_opponent_calls_and_only_when_a_call_is_due() -> None:
    game = callers_game()
    with pytest.raises(IllegalPlayError) as refused:
        game.call_muggins(DEALER, 0)  # nothing counted yet
    assert (refused.value.reason, refused.value.phase) == (Refusal.WRONG_PHASE, Phase.COUNT)
    game.count_hand(PONE, 5)
    before = snapshot(game)
    with pytest.raises(IllegalPlayError) as refused:
        game.call_muggins(PONE, 0)
    assert refused.value.reason is Refusal.NOT_YOUR_TURN
    with pytest.raises(IllegalPlayError) as refused:
        game.count_hand(PONE, 8)  # no second count of the same hand
    assert (refused.value.reason, refused.value.phase) == (Refusal.WRONG_PHASE, Phase.MUGGINS)
    assert snapshot(game) == before


def test_a_call_of_muggins_can_win_the_game() -> None:
    game = callers_game(scores=(0, 112))
    assert game.scores == (3, 118)
    game.count_hand(PONE, 0)
    assert trace(game.call_muggins(DEALER, 3), PLAY_AND_SHOW) == [
        "show 0 hand 0", "muggins 1 3", "win 1",
    ]  # fmt: skip
    assert (game.scores, game.winner, game.phase) == ((3, 121), DEALER, Phase.DONE)


@pytest.mark.parametrize("claim", [8, 9])  # the worth, an over-count
def test_a_claim_that_reaches_121_wins_only_when_the_call_lets_it_stand(claim: int) -> None:
    """From 113 both claims peg the pone out, provisionally: the game waits for the call
    either way (ending it at once would tell the caller the claim was no over-count)."""
    game = callers_game(scores=(110, 0))
    assert game.scores == (113, 6)
    game.count_hand(PONE, claim)
    assert (game.scores, game.phase, game.winner) == ((121, 6), Phase.MUGGINS, None)
    events = game.call_muggins(DEALER, 5)
    if claim == 8:  # the claim stands and wins: nothing after 121 is scored
        assert trace(events, PLAY_AND_SHOW) == ["show 0 hand 8", "win 0"]
        assert (game.scores, game.winner) == ((121, 6), PONE)
    else:
        assert trace(events, PLAY_AND_SHOW) == ["show 0 hand 0", "muggins 1 5"]
        assert (game.scores, game.phase, game.winner) == ((113, 11), Phase.COUNT, None)
    assert game_from_record(json.loads(json.dumps(game.record()))).record() == game.record()


def test_an_over_count_that_pegged_out_may_lose_the_game_to_the_call() -> None:
    game = callers_game(scores=(110, 107))
    assert game.scores == (113, 113)
    game.count_hand(PONE, 12)  # worth 8: pegged out for now
    assert trace(game.call_muggins(DEALER, 8), PLAY_AND_SHOW) == [
        "show 0 hand 0", "muggins 1 8", "win 1",
    ]  # fmt: skip
    assert (game.scores, game.winner) == ((113, 121), DEALER)


def test_a_game_saved_while_a_call_is_due_loads_and_goes_on_the_same() -> None:
    game = callers_game()
    game.count_hand(PONE, 5)
    loaded = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert snapshot(loaded) == snapshot(game)
    assert (loaded.callers, loaded.claimed, loaded.missed) == (frozenset({PONE, DEALER}), 5, 3)
    assert loaded.call_muggins(DEALER, 3) == game.call_muggins(DEALER, 3)


def test_a_game_saved_before_claims_were_pegged_provisionally_loads() -> None:
    """Saved then, an over-count waiting for the call had pegged nothing, and a claim that
    reached 121 had won without a call: such a game loads and goes on by today's rules."""
    over = callers_game()
    before = over.scores
    over.count_hand(PONE, 9)
    saved = over.to_json()
    saved["state"]["scores"] = list(before)
    loaded = Game.from_json(saved)
    assert (loaded.scores, loaded.claimed, loaded.phase) == (over.scores, 9, Phase.MUGGINS)
    won = callers_game(scores=(110, 0))
    won.count_hand(PONE, 8)
    saved = won.to_json()
    saved["state"] = {**saved["state"], "phase": "done", "to_move": None}
    loaded = Game.from_json(saved)
    assert (loaded.scores, loaded.winner, loaded.phase) == ((121, 6), PONE, Phase.DONE)
    saved["state"]["scores"] = [121, 7]
    with pytest.raises(ValueError, match="do not lead to the saved state"):
        Game.from_json(saved)


def test_callers_are_players_of_a_game_of_muggins() -> None:
    with pytest.raises(ValueError, match="callers"):
        Game.new(seed=1, self_count=frozenset({0, 1}), callers=frozenset({0}))
    with pytest.raises(ValueError, match="callers"):
        Game.new(seed=1, muggins=True, callers=frozenset({2}))


def test_a_self_counting_dealer_counts_hand_and_crib() -> None:
    game = kings_game(self_count=frozenset({DEALER}))
    events = lay(game, KINGS_PLAY)
    assert trace(events, ("show",)) == ["show 0 hand 8"]
    assert game.showing == (DEALER, "hand", tuple(parse_cards("9S 8D 7C 6D")))
    assert trace(game.count_hand(DEALER, 10), ("show",)) == ["show 1 hand 10"]
    assert game.showing == (DEALER, "crib", tuple(parse_cards("3C 4C TC QC")))
    game.count_hand(DEALER, 4)
    assert (game.deal_number, game.phase) == (2, Phase.DISCARD)


# ---------------------------------------------------------- saving and loading


def test_same_seed_and_same_decisions_give_the_same_game() -> None:
    first = play_randomly(Game.new(seed=11), random.Random(5))
    second = play_randomly(Game.new(seed=11), random.Random(5))
    assert first.record() == second.record()
    assert first.events == second.events
    other_seed = play_randomly(Game.new(seed=12), random.Random(5))
    assert other_seed.record()["deals"][0]["hands"] != first.record()["deals"][0]["hands"]


def test_a_saved_game_loads_and_plays_on_identically() -> None:
    game = kings_game(self_count=frozenset({PONE}), muggins=True)
    lay(game, "KH 6D KS")
    saved = json.loads(json.dumps(game.to_json()))
    loaded = Game.from_json(saved)
    assert snapshot(loaded) == snapshot(game)
    assert trace(lay(loaded, "2H 2C 8D 7C 9S")) == trace(lay(game, "2H 2C 8D 7C 9S"))
    assert loaded.count_hand(PONE, 6) == game.count_hand(PONE, 6)
    assert play_randomly(loaded, random.Random(2)).record() == (
        play_randomly(game, random.Random(2)).record()
    )


def test_a_state_that_does_not_follow_from_the_decisions_is_refused() -> None:
    data = kings_game().to_json()
    data["state"]["scores"] = [5, 5]
    with pytest.raises(ValueError, match="do not lead to the saved state"):
        Game.from_json(data)


def test_a_copy_is_independent() -> None:
    game = kings_game()
    before = snapshot(game)
    copy = game.copy()
    play_randomly(copy, random.Random(3))
    assert snapshot(game) == before


# ---------------------------------------------------------------- the record

CARD = r"^[A2-9TJQK][CDHS]$"


def sequence_points(events: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """(points recorded, score_play of the sequence) for each play event of a deal.

    A sequence starts with a card whose count equals its own value.
    """
    pairs: list[tuple[int, int]] = []
    sequence: list[Card] = []
    for event in events:
        if event["type"] != "play":
            continue
        card = Card.parse(event["card"])
        if event["count"] == card.value:
            sequence = []
        sequence.append(card)
        pairs.append((event["points"], score_play(sequence).total))
    return pairs


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_game_record_has_the_agreed_shape(seed: int) -> None:
    game = play_randomly(
        Game.new(seed=seed, players=("Anna", "Bo"), self_count=frozenset({0}), muggins=True),
        random.Random(seed),
    )
    record = json.loads(json.dumps(game.record()))
    assert record["players"] == ["Anna", "Bo"]
    assert record["first_dealer"] in (0, 1)
    winner = record["winner"]
    assert winner in (0, 1)
    assert record["final_scores"][winner] == 121
    loser_score = record["final_scores"][1 - winner]
    assert 0 <= loser_score <= 120
    assert record["skunk"] == ("double" if loser_score <= 60 else "skunk" if loser_score <= 90
                               else "none")  # fmt: skip
    totals = [0, 0]
    for number, deal in enumerate(record["deals"]):
        assert deal["dealer"] == (record["first_dealer"] + number) % 2
        assert [len(hand) for hand in deal["hands"]] == [6, 6]
        assert [len(cards) for cards in deal["discards"]] == [2, 2]
        cards = [card for hand in deal["hands"] for card in hand] + [deal["starter"]]
        assert len(set(cards)) == 13
        for player in (0, 1):
            assert set(deal["discards"][player]) <= set(deal["hands"][player])
        for event in deal["events"]:
            assert event["type"] in {"heels", "play", "go", "last", "show", "muggins"}
            assert event["player"] in (0, 1)
            if event["type"] in ("heels", "play", "last", "show", "muggins"):
                assert isinstance(event["points"], int)
                assert event["points"] >= 0
                totals[event["player"]] += event["points"]
            if event["type"] == "play":
                assert Card.parse(event["card"])
                assert 1 <= event["count"] <= 31
            if event["type"] == "show":
                assert event["what"] in ("hand", "crib")
            if event["type"] == "heels":
                assert event["points"] == 2
            if event["type"] == "last":
                assert event["points"] == 1
        for recorded, rules in sequence_points(deal["events"]):
            assert recorded == rules
    assert totals[1 - winner] == loser_score
    last = record["deals"][-1]["events"][-1]
    assert totals[winner] >= 121 > totals[winner] - last["points"]
    assert last["player"] == winner


def test_the_record_of_a_deal_uses_the_agreed_event_fields() -> None:
    game = stacked_game(*KINGS[:2], "JD")
    discard_both(game, *KINGS_DISCARDS)
    lay(game, KINGS_PLAY)
    deal = game.record()["deals"][0]
    assert deal["dealer"] == DEALER
    assert deal["hands"] == [KINGS[0].split(), KINGS[1].split()]
    assert deal["discards"] == [KINGS_DISCARDS[0].split(), KINGS_DISCARDS[1].split()]
    assert deal["starter"] == "JD"
    wanted = {
        "heels": {"type": "heels", "player": 1, "points": 2},
        "play": {"type": "play", "player": 0, "card": "KH", "count": 10, "points": 0},
        "go": {"type": "go", "player": 1},
        "last": {"type": "last", "player": 0, "points": 1},
        "show": {"type": "show", "player": 0, "what": "hand", "points": 4},  # no ace now
    }
    for kind, fields in wanted.items():
        first = next(event for event in deal["events"] if event["type"] == kind)
        assert {key: first[key] for key in fields} == fields
    shows = [(e["player"], e["what"]) for e in deal["events"] if e["type"] == "show"]
    assert shows == [(0, "hand"), (1, "hand"), (1, "crib")]
