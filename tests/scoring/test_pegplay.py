"""The expert's search of the play: counted on ranks and sequence tails, it decides as before.

The search scores a card from the ranks alone (``play_points``, ``tail_points``)
and keeps a position by its sequence's ``scoring_tail``; these tests hold both
to the rules of ``scoring.rules.pegging`` and to a plain search over whole sequences,
and hold the expert to the decisions it took on fixed seeds before either existed.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import timedelta
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.players.pegplay import (
    LEAD_HANDS,
    Ranks,
    _Search,
    expert_play,
    lead_nets,
    lead_table,
    live_tail,
    option_nets,
    play_points,
    scoring_tail,
    tail_points,
    value,
)
from scoring.players.strategy import ComputerPlayer, peg_position
from scoring.rules.cards import SUITS, Card
from scoring.rules.events import Phase
from scoring.rules.game import Game
from scoring.rules.pegging import MAX_COUNT, InvalidSequenceError, score_play
from tests.profiles import examples

RECORDED = Path(__file__).with_name("expert_decisions.json")


def as_cards(ranks: Ranks) -> list[Card]:
    seen: Counter[int] = Counter()
    cards = []
    for rank in ranks:
        cards.append(Card(rank, SUITS[seen[rank]]))
        seen[rank] += 1
    return cards


def layable(ranks: Ranks) -> bool:
    return sum(map(value, ranks)) <= MAX_COUNT and max(Counter(ranks).values()) <= 4


def sequences(length: int) -> list[Ranks]:
    return [ranks for ranks in product(range(1, 14), repeat=length) if layable(ranks)]


@st.composite
def laid(
    draw: st.DrawFn,
    *,
    min_size: int,
    max_size: int,
    highest: int = 13,
    after: Ranks = (),
    followed_by: int = 0,
) -> Ranks:
    """Ranks, ``highest`` at most, that can be laid one after another after ``after``.

    Each card leaves the count room for a two for every card that must still come (up to
    ``min_size``, and ``followed_by`` more after these), so those always fit; later ones
    stop when none fits. The whole stays ``layable``.
    """
    size = draw(st.integers(min_size, max_size))
    ranks = list(after)
    for index in range(size):
        must_follow = max(min_size - index - 1, 0) + followed_by
        room = MAX_COUNT - sum(map(value, ranks)) - 2 * must_follow
        fits = [r for r in range(1, highest + 1) if value(r) <= room and ranks.count(r) < 4]
        if not fits:
            break
        ranks.append(draw(st.sampled_from(fits)))
    return tuple(ranks[len(after) :])


# Each example takes milliseconds; the explicit deadline allows for a loaded machine.
QUICK = settings(deadline=timedelta(seconds=1))


@pytest.mark.parametrize("length", [1, 2, 3, 4])
def test_play_points_counts_every_short_sequence_as_the_rules_do(length: int) -> None:
    for ranks in sequences(length):
        assert play_points(ranks) == score_play(as_cards(ranks)).total, ranks


@QUICK
@given(laid(min_size=5, max_size=8))
def test_play_points_counts_longer_sequences_as_the_rules_do(sequence: Ranks) -> None:
    assert play_points(sequence) == score_play(as_cards(sequence)).total


@pytest.mark.parametrize("ranks", [(), (10, 10, 10, 5), (2, 2, 2, 2, 2), (0, 3), (14,)])
def test_a_sequence_that_cannot_be_laid_is_refused_as_before(ranks: Ranks) -> None:
    with pytest.raises((InvalidSequenceError, IndexError)):
        play_points(ranks)


@QUICK
@given(st.data())
def test_after_the_tail_the_cards_score_as_after_the_whole_sequence(data: st.DataObject) -> None:
    """What a sequence's tail leaves out never scores again, whatever is laid next."""
    before = data.draw(laid(min_size=1, max_size=6, followed_by=1), label="before")
    after = data.draw(laid(min_size=1, max_size=4, after=before), label="after")
    whole = (*before, *after)
    count = sum(map(value, before))
    tail = scoring_tail(tuple(before))
    for index, rank in enumerate(after):
        count += value(rank)
        assert tail_points(tail, rank, count) == play_points(whole[: len(before) + index + 1])
        tail = scoring_tail((*tail, rank))
        assert tail == scoring_tail(whole[: len(before) + index + 1])


# Low cards after: runs that the count still has room for.
@settings(max_examples=examples(500), deadline=timedelta(seconds=1))
@given(st.data())
def test_after_the_live_tail_the_cards_score_as_after_the_whole_sequence(
    data: st.DataObject,
) -> None:
    """What a live tail leaves out could only score in runs the count leaves no room for."""
    before = data.draw(laid(min_size=1, max_size=6, followed_by=1), label="before")
    after = data.draw(laid(min_size=1, max_size=5, highest=8, after=before), label="after")
    whole = (*before, *after)
    count = sum(map(value, before))
    tail = live_tail(scoring_tail(tuple(before)), count)
    for index, rank in enumerate(after):
        count += value(rank)
        assert tail_points(tail, rank, count) == play_points(whole[: len(before) + index + 1])
        tail = live_tail(scoring_tail((*tail, rank)), count)


@pytest.mark.parametrize(
    ("tail", "count", "live"),
    [
        ((), 0, ()),
        ((9, 3, 4), 16, (3, 4)),  # 5, 6, 7 and 8 would take the count past 31
        ((7, 3, 4), 14, (7, 3, 4)),  # a 5 and a 6 make 25
        ((6, 9), 15, (6, 9)),  # 7 and 8 make 30
        ((6, 9), 17, (9,)),
        ((12, 13), 20, (12, 13)),  # a jack makes 30
        ((12, 13), 22, (13,)),
        ((1, 2), 3, (1, 2)),  # only a 3 can join
        ((8, 8), 16, (8, 8)),
        ((5, 5, 5, 5), 20, (5,)),  # no fifth five
    ],
)
def test_the_live_tail(tail: Ranks, count: int, live: Ranks) -> None:
    assert live_tail(tail, count) == live


@pytest.mark.parametrize(
    ("sequence", "tail"),
    [
        ((), ()),
        ((5,), (5,)),
        ((3, 4, 5), (3, 4, 5)),
        ((4, 3, 4, 5), (3, 4, 5)),
        ((7, 8, 8), (8, 8)),
        ((10, 5, 5, 5), (5, 5, 5)),
        ((1, 2, 3, 2), (3, 2)),
    ],
)
def test_the_scoring_tail(sequence: Ranks, tail: Ranks) -> None:
    assert scoring_tail(sequence) == tail


def plain_net(mover: Ranks, other: Ranks, seq: Ranks, count: int, passed: bool) -> int:
    """The search as first written: whole sequences, no cache. Slow; for small hands only."""
    nets = plain_options(mover, other, seq, count, passed)
    if nets:
        return max(nets.values())
    if not passed:
        if not seq and not other:
            return 0
        return -plain_net(other, mover, seq, count, True)
    if not seq:
        return 0
    if not mover and not other:
        return 1
    return 1 - plain_net(other, mover, (), 0, False)


def plain_options(
    mover: Ranks, other: Ranks, seq: Ranks, count: int, passed: bool
) -> dict[int, int]:
    nets: dict[int, int] = {}
    for index, rank in enumerate(mover):
        new_count = count + value(rank)
        if new_count > MAX_COUNT or rank in nets:
            continue
        rest = mover[:index] + mover[index + 1 :]
        points = score_play(as_cards((*seq, rank))).total
        if new_count == MAX_COUNT:
            nets[rank] = points - plain_net(other, rest, (), 0, False) if rest or other else points
        elif passed:
            nets[rank] = points + plain_net(rest, other, (*seq, rank), new_count, True)
        else:
            nets[rank] = points - plain_net(other, rest, (*seq, rank), new_count, False)
    return nets


def test_the_search_finds_the_nets_of_a_plain_search_over_whole_sequences() -> None:
    """Every expert position in a few games, against each opponent hand it may face."""
    rng = random.Random(5)
    compared = 0
    for seed in range(2):
        game = Game.new(seed=seed, first_dealer=seed % 2)
        players = (ComputerPlayer("standard", seed), ComputerPlayer("standard", seed + 1))
        while game.phase is not Phase.DONE:
            player = game.to_move
            assert player is not None
            if game.phase is Phase.PLAY:
                position = peg_position(game, player)
                held = tuple(sorted(card.rank for card in position.held))
                seq = tuple(card.rank for card in position.sequence)
                for _ in range(2):
                    opponent = tuple(
                        sorted(c.rank for c in rng.sample(position.unseen, position.opponent_held))
                    )
                    expected = plain_options(
                        held, opponent, seq, position.count, position.opponent_passed
                    )
                    assert option_nets(position, opponent) == expected
                    compared += 1
            players[player].decide(game, player)
    assert compared > 100


def possible_fours(rng: random.Random, pairs: int) -> list[tuple[Ranks, Ranks]]:
    """Two fours of ranks that one deck can deal, drawn as cards are."""
    deck = [Card(rank, suit) for rank in range(1, 14) for suit in SUITS]
    drawn = []
    for _ in range(pairs):
        eight = rng.sample(deck, 8)
        drawn.append(
            (
                tuple(sorted(card.rank for card in eight[:4])),
                tuple(sorted(card.rank for card in eight[4:])),
            )
        )
    return drawn


def test_the_lead_table_is_shipped_whole() -> None:
    table = lead_table()
    assert table is not None
    assert len(table) == len(LEAD_HANDS) ** 2 * 4


def test_the_lead_table_holds_what_the_search_finds() -> None:
    search = _Search()
    pairs = possible_fours(random.Random(11), 300)
    pairs += [((5, 5, 5, 5), (10, 10, 11, 13)), ((1, 1, 2, 2), (1, 1, 2, 2)), ((13,) * 4, (1,) * 4)]
    for mover, other in pairs:
        assert lead_nets(mover, other) == search.searched(mover, other, (), 0, False)
        assert search.options(mover, other, (), 0, False) == lead_nets(mover, other)


def test_the_lead_table_holds_what_a_plain_search_over_whole_sequences_finds() -> None:
    for mover, other in possible_fours(random.Random(12), 12):
        assert lead_nets(mover, other) == plain_options(mover, other, (), 0, False)


def test_the_lead_table_refuses_two_fours_no_deck_deals() -> None:
    with pytest.raises(ValueError, match="more than four times"):
        lead_nets((5, 5, 5, 10), (5, 5, 6, 7))


class OwnDrawExpert(ComputerPlayer):
    """The expert as the games were recorded: its opponent hands drawn with its own seed.

    The computer now draws as the one judge does (``evaluate_play``, a seed from the
    position alone); what these games hold fixed is the search, for any draw.
    """

    def choose_play(self, game: Game, player: int) -> Card:
        if self.level != "expert":
            return super().choose_play(game, player)
        position = peg_position(game, player)
        rng = self._rng("play", position.held, position.sequence, game.played, game.scores)
        return expert_play(position, rng)


def recorded_game(seed: int, levels: tuple[str, str]) -> str:
    game = Game.new(seed=seed, first_dealer=seed % 2)
    players = (OwnDrawExpert(levels[0], seed), OwnDrawExpert(levels[1], seed + 1))
    while game.phase is not Phase.DONE:
        player = game.to_move
        assert player is not None
        players[player].decide(game, player)
    decisions = game.to_json()["decisions"]
    return " ".join("-".join(d["discard"]) if "discard" in d else d["play"] for d in decisions)


@pytest.mark.parametrize("name", sorted(json.loads(RECORDED.read_text(encoding="utf-8"))))
def test_the_expert_decides_as_it_did_before_the_faster_search(name: str) -> None:
    """Whole games recorded with the search over whole sequences (``expert_decisions.json``)."""
    first, second, seed = name.split("-")
    expected = json.loads(RECORDED.read_text(encoding="utf-8"))[name]
    assert recorded_game(int(seed), (first, second)) == expected
