"""One judge of the best play: the hint, the strongest computer and the review weigh a
discard by one measure and a card by one reckoning, so that following the engine's own
advice, or playing as the expert computer does, never shows as a mistake in its review
(docs/review.md, "One judge")."""

from __future__ import annotations

import random

import pytest

from scoring.players.discarding import analyse_discards
from scoring.players.strategy import ComputerPlayer, peg_position
from scoring.review import JUDGE_LEVEL, evaluate_play, review_discard, review_game
from scoring.rules.cards import DECK, Card
from scoring.rules.events import Phase
from scoring.rules.game import Game

pytestmark = pytest.mark.engine

DEALS = 300


def deals() -> list[tuple[int, tuple[Card, ...]]]:
    """``DEALS`` random sixes (seeded: the same every run), each for the dealer and the pone."""
    rng = random.Random("one judge")
    return [(n, tuple(rng.sample(DECK, 6))) for n in range(DEALS)]


@pytest.mark.parametrize("dealer", [True, False], ids=["dealer", "pone"])
def test_the_hints_discard_is_the_reviews_best_and_the_experts_for_300_deals(
    dealer: bool,
) -> None:
    for number, six in deals():
        hinted = analyse_discards(six, dealer=dealer, level=JUDGE_LEVEL)[0]
        options, lost = review_discard(six, hinted.discard, dealer=dealer)
        assert set(options[0].discard) == set(hinted.discard), number
        assert lost == 0.0, number
        # The review's figure for it is the hint's own: hand, crib and pegging together.
        assert options[0].net == pytest.approx(hinted.total_ev), number
        assert options[0].net == pytest.approx(
            options[0].hand_ev + (1 if dealer else -1) * options[0].crib_ev + options[0].peg_ev
        )


def test_a_discard_worse_only_in_its_pegging_gives_that_away() -> None:
    """The measure counts the pegging estimate: of two throws equal in hand and crib, the
    one whose kept ranks peg worse is the one that gives points away."""
    for _number, six in deals():
        options, _ = review_discard(six, six[:2], dealer=True)
        best = options[0]
        worse = [
            o
            for o in options[1:]
            if o.hand_ev + o.crib_ev >= best.hand_ev + best.crib_ev and o.peg_ev < best.peg_ev
        ]
        if worse:
            _, lost = review_discard(six, worse[0].discard, dealer=True)
            assert lost == pytest.approx(best.net - worse[0].net)
            assert lost > 0
            return
    pytest.fail("no deal had a throw better in hand and crib but worse in the play")


@pytest.mark.parametrize("seed", [3, 17, 29])
def test_a_game_played_by_every_hint_gives_nothing_away_in_its_review(seed: int) -> None:
    """Seat 0 follows the hint at each decision (the one judge's reckoning of the
    position); seat 1 is the expert computer, which gives nothing away either."""
    game = Game.new(seed=seed, players=("Hinted", "Expert"))
    expert = ComputerPlayer(JUDGE_LEVEL, seed)
    while game.phase is not Phase.DONE:
        player = game.to_move if game.to_move is not None else min(game.awaiting)
        if player == 1:
            expert.decide(game, 1)
        elif game.phase is Phase.DISCARD:
            six = game.hand(0)
            best = analyse_discards(six, dealer=game.dealer == 0, level=JUDGE_LEVEL)[0]
            game.discard(0, best.discard)
        elif game.phase is Phase.PLAY:
            game.play(0, evaluate_play(peg_position(game, 0)).best)
        else:
            expert.decide(game, 0)  # a count the site makes: not a decision
    review = review_game(game.record())
    for seat in (0, 1):
        decided = review.of(seat)
        assert decided, f"seat {seat} made decisions"
        assert [d for d in decided if d.lost > 0 or d.best != d.chosen] == [], seat
        totals = review.totals(seat)
        assert (totals.discards_lost, totals.play_lost, totals.accuracy) == (0.0, 0.0, 100.0)


@pytest.mark.parametrize("seed", [5, 41])
def test_the_expert_computer_lays_the_one_judges_card_whatever_its_own_seed(seed: int) -> None:
    """Two expert computers of different seeds: every card either lays is the one the
    review calls best (before, each drew the opponent's hands with its own seed, and a
    review marked some 1.3 of its cards a game as mistakes)."""
    game = Game.new(seed=seed, players=("Expert", "Expert"))
    players = (ComputerPlayer(JUDGE_LEVEL, seed), ComputerPlayer(JUDGE_LEVEL, seed * 7 + 1))
    while game.phase is not Phase.DONE:
        player = game.to_move if game.to_move is not None else min(game.awaiting)
        if game.phase is Phase.PLAY:
            judged = evaluate_play(peg_position(game, player)).best
            assert players[player].choose_play(game, player) == judged
        players[player].decide(game, player)
    review = review_game(game.record())
    assert [d for d in review.decisions if d.kind != "count" and d.lost > 0] == []
