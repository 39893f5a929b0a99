"""Properties of whole games of two, three and four seats, to 61, 91 and 121: random
legal decisions on random deals, each game checked by a referee written here from
docs/rules.md §2 and §7 (not from the engine's code).

The referee walks a game's events with the cards of its record and checks what a player
at the table would notice: who lays when, who says go, who takes the go, the count, the
order of the show, the scores, the winner and the deal passing to the left.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.players.strategy import ComputerPlayer, play_computers
from scoring.rules.cards import Card, parse_cards
from scoring.rules.events import Event, EventType, Phase
from scoring.rules.game import Game
from scoring.rules.pegging import score_play
from scoring.rules.replay import game_from_record
from tests.profiles import examples
from tests.scoring.gameplay import play_randomly

seeds = st.integers(min_value=0, max_value=2**32)
tables = st.sampled_from([2, 3, 4])
targets = st.sampled_from([61, 91, 121])
FAST = settings(max_examples=examples(60), deadline=None)


def random_game(seats: int, target: int, seed: int, decisions: int) -> Game:
    game = Game.new(seed=seed, seats=seats, target=target)
    return play_randomly(game, random.Random(decisions))


def side_of(seats: int, seat: int) -> int:
    return seat % 2 if seats == 4 else seat


def can_lay(cards: Sequence[Card], count: int) -> bool:
    return any(count + card.value <= 31 for card in cards)


class Referee:
    """One deal's play, followed event by event from the cards dealt."""

    def __init__(self, seats: int, deal: Mapping[str, Any]) -> None:
        self.seats = seats
        self.dealer = deal["dealer"]
        self.held = [
            [c for c in parse_cards(deal["hands"][s]) if str(c) not in deal["discards"][s]]
            for s in range(seats)
        ]
        self.kept = [list(cards) for cards in self.held]
        self.count = 0
        self.sequence: list[Card] = []
        self.said_go: set[int] = set()
        self.last_layer: int | None = None
        self.next_leader: int | None = (self.dealer + 1) % seats  # the pone leads
        self.laid: list[tuple[int, Card]] = []
        self.shows: list[tuple[int, str]] = []

    def clockwise_after(self, seat: int) -> list[int]:
        return [(seat + step) % self.seats for step in range(1, self.seats)]

    def play(self, event: Event) -> None:
        seat, card = event.player, event.card
        assert seat is not None
        assert card is not None
        if self.next_leader is not None:
            assert seat == self.next_leader, "the count is led by the seat left of the last card"
        else:
            assert self.last_layer is not None
            turn = next(
                (
                    s
                    for s in self.clockwise_after(self.last_layer)
                    if can_lay(self.held[s], self.count)
                ),
                self.last_layer,
            )
            assert seat == turn, "the turn goes clockwise to the next seat that can lay"
            passed = self.clockwise_after(self.last_layer)
            passed = passed[: passed.index(seat)] if seat in passed else passed
            assert self.said_go.issuperset(passed), "each seat passed over said go"
        assert card in self.held[seat], "a card is laid once, from its holder's hand"
        self.held[seat].remove(card)
        self.laid.append((seat, card))
        self.sequence.append(card)
        self.count += card.value
        assert self.count <= 31
        assert event.count == self.count
        assert event.points == score_play(self.sequence).total
        self.last_layer, self.next_leader = seat, None
        if self.count == 31:
            self.reset()

    def go(self, event: Event) -> None:
        assert event.player is not None
        assert not can_lay(self.held[event.player], self.count), "go only when no card fits"
        assert event.player not in self.said_go, "a go is said once a count"
        self.said_go.add(event.player)

    def last(self, event: Event) -> None:
        assert event.player == self.last_layer, "the go goes to whoever laid the last card"
        assert self.count < 31
        assert not any(can_lay(cards, self.count) for cards in self.held), "nobody could lay"
        if any(self.held):  # the last card of the deal needs no go
            others = set(range(self.seats)) - {self.last_layer}
            assert self.said_go == others, "every other seat said go first"
        assert event.points == 1
        self.reset()

    def reset(self) -> None:
        assert self.last_layer is not None
        holders = [s for s in self.clockwise_after(self.last_layer) if self.held[s]]
        self.next_leader = holders[0] if holders else self.last_layer
        self.count, self.sequence, self.said_go = 0, [], set()

    def show(self, event: Event) -> None:
        assert event.player is not None
        assert event.what is not None
        self.shows.append((event.player, event.what))
        assert not any(self.held), "the show follows the play of every card"

    def check_end(self, finished: bool) -> None:
        order = [((self.dealer + step) % self.seats, "hand") for step in range(1, self.seats + 1)]
        order.append((self.dealer, "crib"))
        assert self.shows == order[: len(self.shows)], "the show goes round from the left"
        if finished:
            assert self.shows == order
            assert sorted(self.laid) == sorted(
                (seat, card) for seat in range(self.seats) for card in self.kept[seat]
            ), "every card kept is laid exactly once"


def referee_game(game: Game) -> None:
    record = game.record()
    seats, target = game.seats, game.target
    events = list(game.events)
    deal_starts = [at for at, event in enumerate(events) if event.type is EventType.DEAL]
    dealers = [events[at].player for at in deal_starts]
    first = dealers[0]
    assert first is not None
    assert dealers == [(first + n) % seats for n in range(len(dealers))], "deal passes left"
    running = [0] * (2 if seats == 4 else seats)
    for number, deal in enumerate(record["deals"]):
        referee = Referee(seats, deal)
        cards = [c for hand in deal["hands"] for c in hand] + deal.get("from_pack", [])
        assert len(cards) == len(set(cards)) == seats * (6 if seats == 2 else 5) + (seats == 3)
        end = deal_starts[number + 1] if number + 1 < len(deal_starts) else len(events)
        for event in events[deal_starts[number] : end]:
            if event.type is EventType.PLAY:
                referee.play(event)
            elif event.type is EventType.GO:
                referee.go(event)
            elif event.type is EventType.LAST:
                referee.last(event)
            elif event.type is EventType.SHOW:
                referee.show(event)
            if event.points and event.player is not None and event.type is not EventType.WIN:
                side = side_of(seats, event.player)
                running[side] = min(target, running[side] + event.points)
            if event.scores is not None:
                assert list(event.scores) == running, "the scores are the sum of the events"
        referee.check_end(finished=number + 1 < len(record["deals"]))
    assert list(game.scores) == running


@FAST
@given(seats=tables, target=targets, seed=seeds, decisions=seeds)
def test_the_referee_agrees_with_every_deal(
    seats: int, target: int, seed: int, decisions: int
) -> None:
    referee_game(random_game(seats, target, seed, decisions))


@FAST
@given(seats=tables, target=targets, seed=seeds, decisions=seeds)
def test_the_first_side_to_reach_the_target_wins_at_once(
    seats: int, target: int, seed: int, decisions: int
) -> None:
    game = random_game(seats, target, seed, decisions)
    assert game.phase is Phase.DONE
    sides = 2 if seats == 4 else seats
    reached = [
        at
        for at, event in enumerate(game.events)
        if event.scores is not None and max(event.scores) >= target
    ]
    assert reached, "someone reached the target"
    first = reached[0]
    winning = game.events[first]
    assert winning.player is not None
    assert game.winner == side_of(seats, winning.player)
    assert [e.type for e in game.events[first + 1 :]] == [EventType.WIN], "nothing after it"
    assert game.scores[game.winner] == target
    assert all(game.scores[side] < target for side in range(sides) if side != game.winner)
    assert game.record()["winner"] == game.winner
    assert (game.record()["skunk"] == "none") or target == 121


@FAST
@given(seats=tables, target=targets, seed=seeds, decisions=seeds, steps=st.integers(0, 150))
def test_a_game_saved_or_recorded_at_any_point_goes_on_the_same(
    seats: int, target: int, seed: int, decisions: int, steps: int
) -> None:
    game = Game.new(seed=seed, seats=seats, target=target)
    play_randomly(game, random.Random(decisions), steps)
    loaded = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert loaded.to_json() == game.to_json()
    replayed = game_from_record(json.loads(json.dumps(game.record())))
    assert (replayed.scores, replayed.phase, replayed.to_move) == (
        game.scores,
        game.phase,
        game.to_move,
    )
    play_randomly(loaded, random.Random(decisions + 1))
    play_randomly(game, random.Random(decisions + 1))
    assert loaded.record() == game.record()


@settings(max_examples=examples(20), deadline=None)
@given(
    seats=st.sampled_from([3, 4]),
    target=targets,
    seed=seeds,
    levels=st.lists(st.sampled_from(["easy", "standard"]), min_size=4, max_size=4),
)
def test_computers_at_any_table_play_by_the_referees_rules(
    seats: int, target: int, seed: int, levels: list[str]
) -> None:
    game = Game.new(seed=seed, seats=seats, target=target)
    play_computers(game, {s: ComputerPlayer(levels[s], seed + s) for s in range(seats)})
    assert game.phase is Phase.DONE
    referee_game(game)
