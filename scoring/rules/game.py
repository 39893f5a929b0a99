"""A game of two, three or four seats to 121 (or 61, 91) that a user interface drives one
decision at a time.

The game asks for four kinds of decision: each seat's *discard* (two cards laid away
to the crib, one with three or four seats), a card to lay in the *play*, for players who count
their own hands the points they claim in the *show*, and, with muggins between
two people, the opponent's *call* on that claim. Everything else (the
starter and his heels, a go, the point for the last card, the show of hands
counted by the engine, the next deal) happens automatically inside the call
that made it due, and the call returns the events it produced. The game ends
the moment a player reaches 121 (docs/rules.md §2.7), or with four a partnership
(§7); a score stops there. What differs with the number of seats is data, the game's
``Seating`` (``scoring.rules.seats``): one deal, one play and one show for all.

A claim the opponent checks is pegged at once, as at the table, whatever it is worth
(a ``CLAIM`` event), so that every claim looks the same until the call; the call settles
it (the ``SHOW``, then the call's ``MUGGINS``): an over-count's pegs are taken back, and
a claim that reached 121 wins only then, when it stands (docs/muggins.md). Muggins is
played by two only.

A decision the rules forbid raises ``IllegalPlayError`` and changes nothing.
A game is saved as its seed and the list of decisions taken; loading replays
them, so a loaded game goes on exactly as the saved one would have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from scoring.rules.cards import JACK, Card, parse_cards
from scoring.rules.deal import Deal, cut_for_deal, lowest_cut, shuffled_round
from scoring.rules.events import (
    WINNING_SCORE,
    Event,
    EventType,
    IllegalPlayError,
    Phase,
    Refusal,
    Skunk,
    skunk_of,
)
from scoring.rules.hand import shown_score
from scoring.rules.pegging import MAX_COUNT, score_play
from scoring.rules.seats import HAND, Seating, check_target, seating
from scoring.rules.table import PendingClaim, Stacked, Table

__all__ = ["Event", "EventType", "Game", "IllegalPlayError", "Phase", "Refusal"]


class Game(Table):
    """A game of two, three or four seats (players 0 and 1 with two). Create it with
    ``Game.new``."""

    @classmethod
    def new(
        cls,
        *,
        seed: int,
        players: Sequence[str] | None = None,
        first_dealer: int | None = None,
        self_count: frozenset[int] = frozenset(),
        muggins: bool = False,
        callers: frozenset[int] = frozenset(),
        stacked: Stacked = (),
        scores: Sequence[int] | None = None,
        seats: int = 2,
        target: int = WINNING_SCORE,
    ) -> Game:
        """Start a game of ``seats`` (2, 3 or 4; with four, seats 0 and 2 are partners
        against 1 and 3) to ``target`` (121, 61 or 91); without ``first_dealer`` the
        players cut for deal first (docs/rules.md §2.1, §7).

        The same seed and the same decisions always give the same game.
        ``players`` names each seat (by default "Player" and "Computer", or "Computer 1"
        on). With ``muggins`` (two seats only) the points a self-counted hand misses go
        to the opponent: at once, or, when the opponent is one of the ``callers`` (a
        person), when they call muggins (``call_muggins``).
        ``stacked`` prearranges the first deals (each seat's cards, the starter and with
        three seats the card from the pack to the crib) and ``scores`` (one a side)
        starts the game from a position: both are for replays, practice positions and
        tests.
        """
        table = seating(seats)
        check_target(target)
        names = tuple(players) if players is not None else _default_names(table.seats)
        start = tuple(scores) if scores is not None else (0,) * table.sides
        _check_options(table, names, first_dealer, start, target, muggins, callers)
        if not set(self_count) <= set(range(table.seats)):
            raise ValueError(f"self_count names seats 0 to {table.seats - 1}, not {self_count}")
        game = cls(
            seed=seed,
            players=names,
            self_count=frozenset(self_count),
            muggins=muggins,
            callers=frozenset(callers),
            stacked=stacked,
            seating=table,
            target=target,
        )
        game._start_scores = start
        game._scores, game._previous = list(start), list(start)
        if first_dealer is None:
            game._cut_attempts = cut_for_deal(seed, table.cutters)
            for cards in game._cut_attempts:
                dealer = lowest_cut(cards)
                game._emit(EventType.CUT, player=dealer, cards=cards)
            first_dealer = dealer
        assert first_dealer is not None
        game.first_dealer = first_dealer
        game._start_deal()
        return game

    # ------------------------------------------------------------- decisions
    def legal_discards(self, player: int) -> list[tuple[Card, ...]]:
        """The ways ``player`` may lay away (15 pairs with two seats, five single cards
        with more), or [] when no discard is due from them."""
        if self._phase is not Phase.DISCARD or player not in self.awaiting:
            return []
        return list(combinations(self._deal.held[player], self.seating.laid_away))

    def legal_plays(self, player: int) -> list[Card]:
        """The cards ``player`` may lay now, or [] when it is not their turn to lay."""
        if self._phase is not Phase.PLAY or player != self._deal.turn:
            return []
        return self._deal.playable(player)

    def discard(self, player: int, cards: Sequence[Card]) -> list[Event]:
        """Lay two of ``player``'s six cards away to the crib (one of five with three or
        four seats)."""
        self._check_turn(player, Phase.DISCARD)
        held = self._deal.held[player]
        two = self.seating.laid_away == 2
        rule = _DISCARD_RULE if two else _DISCARD_ONE_RULE
        for card in cards:
            if card not in held:
                raise IllegalPlayError(
                    Refusal.NOT_HELD, f"{card} is not in your hand; {rule}", card=card
                )
        if len(cards) != self.seating.laid_away or len(set(cards)) != len(cards):
            raise IllegalPlayError(
                Refusal.NOT_TWO_CARDS if two else Refusal.NOT_ONE_CARD,
                f"you laid away {len(set(cards))} cards; {rule}",
            )
        mark = len(self._events)
        self._decisions.append({"player": player, "discard": [str(c) for c in cards]})
        deal = self._deal
        deal.discards[player] = tuple(cards)
        deal.held[player] = [card for card in held if card not in cards]
        self._emit(EventType.DISCARD, player=player, cards=tuple(cards))
        if all(deal.discards):
            self._turn_starter()
        return self._events[mark:]

    def play(self, player: int, card: Card) -> list[Event]:
        """Lay ``card`` in the play and call the new count."""
        self._check_turn(player, Phase.PLAY)
        deal = self._deal
        if card not in deal.held[player]:
            raise IllegalPlayError(Refusal.NOT_HELD, f"{card} is not in your hand", card=card)
        if deal.count + card.value > MAX_COUNT:
            raise IllegalPlayError(
                Refusal.PAST_31,
                f"{card} would take the count to {deal.count + card.value}; "
                f"the count may not pass {MAX_COUNT}",
                card=card,
            )
        mark = len(self._events)
        self._decisions.append({"player": player, "play": str(card)})
        deal.held[player].remove(card)
        deal.played.append((player, card))
        deal.sequence.append((player, card))
        deal.count += card.value
        scored = score_play([laid for _, laid in deal.sequence])
        if not self._emit(
            EventType.PLAY, player=player, card=card, count=deal.count, points=scored.total,
            items=scored.items,
        ):  # fmt: skip
            self._after_play(player)
        return self._events[mark:]

    def count_hand(self, player: int, points: int | None) -> list[Event]:
        """Claim ``points`` for the hand or crib ``player`` is counting themself.

        Anything but a whole number of 0 or more (None: nothing claimed) is refused.
        A claim above the worth is refused too, except when the opponent checks the
        count (one of the ``callers``): then every claim is final and pegged at once,
        provisionally, until the call settles it (``call_muggins``); one above the worth
        is an over-count that pegs nothing then, the whole worth counting as missed
        (docs/muggins.md; a refusal would let the counter step down to the worth).
        """
        self._check_turn(player, Phase.COUNT)
        _, what, cards = self._deal.show()
        score = self.showing_score
        assert score is not None
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise IllegalPlayError(
                Refusal.NOT_A_COUNT, f"a count is a whole number of points, not {points!r}"
            )
        checked = self.muggins and 1 - player in self.callers
        if points > score.total and not checked:
            raise IllegalPlayError(
                Refusal.MORE_THAN_WORTH, f"that {what} is worth less than {points}"
            )
        mark = len(self._events)
        self._decisions.append({"player": player, "count": points})
        if checked:
            self._claim(player, points, score.total)
            return self._events[mark:]
        if self._emit(
            EventType.SHOW, player=player, what=what, cards=cards, points=points,
            items=score.items, said=score.say(),
        ):  # fmt: skip
            return self._events[mark:]
        missed = score.total - points
        if (
            self.muggins
            and missed
            and self._emit(EventType.MUGGINS, player=1 - player, points=missed)
        ):
            return self._events[mark:]
        self._deal.show_step += 1
        self._show()
        return self._events[mark:]

    def _claim(self, player: int, points: int, worth: int) -> None:
        """Peg a checked claim provisionally and wait for the call.

        The opponent checks every count, not only a short one, and every claim is pegged
        alike: anything else (waiting only for a short count, a board that does not move
        for an over-count, a game won before the call) would tell them what the hand is
        worth.
        """
        _, what, cards = self._deal.show()
        self._pending = PendingClaim(points, self.scores, self.previous_scores)
        self._emit(
            EventType.CLAIM, player=player, what=what, cards=cards, points=points, settled=False
        )
        self._phase = Phase.MUGGINS
        self._missed = worth if points > worth else worth - points

    def call_muggins(self, player: int, points: int | None) -> list[Event]:
        """Call muggins on the count just claimed, taking ``points`` it missed (0: it stands).

        The call settles the claim first: its provisional pegs are taken back and it pegs
        what it earns (the claim, or nothing for an over-count), which may win the game;
        only then are the points called taken. Each call is made once: up to all the
        points missed are taken; a call for more wins nothing (the event's ``called``
        says what was called). Anything but a whole number of 0 or more is refused.
        """
        self._check_turn(player, Phase.MUGGINS)
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise IllegalPlayError(
                Refusal.NOT_A_COUNT, f"a call is a whole number of points, not {points!r}"
            )
        mark = len(self._events)
        self._decisions.append({"player": player, "muggins": points})
        self._phase = Phase.COUNT
        if self._settle(1 - player):
            return self._events[mark:]  # the claim stood and reached 121: nothing to take
        over = points > self._missed
        if self._emit(
            EventType.MUGGINS,
            player=player,
            points=0 if over else points,
            called=points if over else None,
        ):
            return self._events[mark:]
        self._deal.show_step += 1
        self._show()
        return self._events[mark:]

    def _settle(self, player: int) -> bool:
        """Show ``player``'s claimed hand for what it earns, its provisional pegs put back
        first; True when that wins the game."""
        pending, score = self._pending, self.showing_score
        assert pending is not None
        assert score is not None
        self._pending = None
        self._scores, self._previous = list(pending.scores), list(pending.previous)
        _, what, cards = self._deal.show()
        over = pending.points > score.total
        return self._emit(
            EventType.SHOW, player=player, what=what, cards=cards,
            points=0 if over else pending.points, items=score.items, said=score.say(),
            claimed=pending.points if over else None,
        )  # fmt: skip

    def _check_turn(self, player: int, phase: Phase) -> None:
        if self._phase is Phase.DONE:
            raise IllegalPlayError(Refusal.GAME_OVER, "the game is over")
        if player not in range(self.seating.seats):
            seats = [str(seat) for seat in range(self.seating.seats)]
            raise IllegalPlayError(
                Refusal.NO_SUCH_PLAYER,
                f"there is no player {player!r}; players are {', '.join(seats[:-1])} and "
                f"{seats[-1]}",
            )
        if self._phase is not phase:
            raise IllegalPlayError(
                Refusal.WRONG_PHASE,
                f"it is time to {_DOING[self._phase]}, not to {_DOING[phase]}",
                phase=self._phase,
            )
        if player not in self.awaiting:
            if phase is Phase.DISCARD:
                raise IllegalPlayError(
                    Refusal.ALREADY_DISCARDED,
                    "you have already laid away your two cards"
                    if self.seating.laid_away == 2
                    else "you have already laid away your card",
                )
            assert self.to_move is not None
            raise IllegalPlayError(
                Refusal.NOT_YOUR_TURN, f"it is {self.players[self.to_move]}'s turn"
            )

    # ---------------------------------------------------- what follows itself
    def _start_deal(self) -> None:
        """Deal the next deal: the deal passes to the left (docs/rules.md §2.8, §7)."""
        number = len(self._deals) + 1
        table = self.seating
        dealer = self.first_dealer if number == 1 else table.left_of(self._deal.dealer)
        if number <= len(self._stacked):
            hands, cut_card, from_pack = self._stacked[number - 1]
        else:
            round_hands, from_pack, cut_card = shuffled_round(self.seed, number, table)
            by_seat = dict(zip(table.round_from(dealer), round_hands, strict=True))
            hands = tuple(by_seat[seat] for seat in range(table.seats))
        deal = Deal(number, dealer, hands, cut_card, seating=table, from_pack=from_pack)
        deal.first_event = len(self._events)
        self._deals.append(deal)
        self._phase = Phase.DISCARD
        self._emit(EventType.DEAL, player=dealer)

    def _turn_starter(self) -> None:
        deal = self._deal
        deal.starter = deal.cut_card
        self._emit(EventType.STARTER, card=deal.starter)
        if deal.starter.rank == JACK and self._emit(EventType.HEELS, player=deal.dealer, points=2):
            return
        self._phase = Phase.PLAY
        deal.turn = deal.pone

    def _after_play(self, player: int) -> None:
        """Decide who lays next, saying go and scoring the last card as they fall due.

        The turn passes clockwise to the next seat that can lay; each seat passed over
        says go (once a sequence; a seat without cards too). When no other seat can lay,
        ``player`` lays on while they can, and then takes the go (docs/rules.md §2.4, §7).
        """
        deal = self._deal
        seats = len(deal.held)
        if len(deal.played) == seats * HAND:
            if deal.count == MAX_COUNT or not self._emit_last(player):
                self._start_show()
            return
        if deal.count == MAX_COUNT:
            self._reset(after=player)
            return
        seat = player
        for _ in range(seats - 1):
            seat = seat + 1 if seat + 1 < seats else 0
            if deal.can_lay(seat):
                deal.turn = seat
                return
            if not deal.said_go[seat]:
                deal.said_go[seat] = True
                self._emit(EventType.GO, player=seat, count=deal.count)
        if deal.can_lay(player):
            deal.turn = player
        elif not self._emit_last(player):
            self._reset(after=player)

    def _emit_last(self, player: int) -> bool:
        return self._emit(EventType.LAST, player=player, points=1, count=self._deal.count)

    def _reset(self, *, after: int) -> None:
        """Start a new sequence, led by the first seat left of ``after`` (who laid the last
        card) that still holds cards; ``after`` themself when nobody else does."""
        deal = self._deal
        seats = len(deal.held)
        deal.count = 0
        deal.sequence.clear()
        deal.said_go = [False] * seats
        leader = after + 1 if after + 1 < seats else 0
        while not deal.held[leader]:
            leader = leader + 1 if leader + 1 < seats else 0
        deal.turn = leader
        self._emit(EventType.RESET, count=0)

    def _start_show(self) -> None:
        self._phase = Phase.COUNT
        self._show()

    def _show(self) -> None:
        """Count hands in show order until one is self-counted, the game ends or all are shown."""
        deal = self._deal
        assert deal.starter is not None
        while deal.show_step <= self.seating.seats:
            player, what, cards = deal.show()
            if player in self.self_count:
                return
            score = shown_score(cards, deal.starter, what == "crib")
            if self._emit(
                EventType.SHOW, player=player, what=what, cards=cards, points=score.total,
                items=score.items, said=score.say(),
            ):  # fmt: skip
                return
            deal.show_step += 1
        self._start_deal()

    def _emit(
        self,
        type_: EventType,
        *,
        player: int | None = None,
        points: int | None = None,
        settled: bool = True,
        **fields: Any,
    ) -> bool:
        """Record an event, pegging its points on ``player``'s side first; True when it won
        the game.

        Points not ``settled`` (a claim still to be checked) are pegged but win nothing.
        """
        side = -1
        if points and player is not None:
            side = self.seating.side_of[player]
            self._previous[side] = self._scores[side]
            self._scores[side] = min(self.target, self._scores[side] + points)
        scores = tuple(self._scores)
        self._events.append(Event(type_, player, points, scores=scores, **fields))
        if settled and side >= 0 and self._scores[side] >= self.target:
            self._winner, self._phase = side, Phase.DONE
            self._events.append(
                Event(EventType.WIN, player=player, skunk=self._skunk(), scores=self.scores)
            )
            return True
        return False

    def _skunk(self) -> Skunk:
        """The won game's skunk, by its best-placed loser: only in a game to 121 (§7)."""
        if self._winner is None or self.target != WINNING_SCORE:
            return Skunk.NONE
        return skunk_of(max(s for side, s in enumerate(self._scores) if side != self._winner))

    # ------------------------------------------------------ saving and records
    def copy(self) -> Game:
        """An independent copy, cheap enough to explore a decision on."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._scores, other._previous = list(self._scores), list(self._previous)
        other._events = list(self._events)
        other._deals = [*self._deals[:-1], self._deal.copy()]
        other._decisions = list(self._decisions)
        return other

    def to_json(self) -> dict[str, Any]:
        """The game as JSON-safe data: its settings and the decisions taken so far."""
        data: dict[str, Any] = {
            "version": 1,
            "seed": self.seed,
            "players": list(self.players),
            **self._table_fields(),
            "first_dealer": self.first_dealer,
            "cut": bool(self._cut_attempts),
            "self_count": sorted(self.self_count),
            "muggins": self.muggins,
            "start_scores": list(self._start_scores),
            "decisions": list(self._decisions),
            "state": self._summary(),
        }
        if self.callers:
            data["callers"] = sorted(self.callers)
        if self._stacked:
            data["stacked"] = [
                {
                    "hands": [[str(c) for c in hand] for hand in hands],
                    "starter": str(starter),
                    **({"from_pack": [str(c) for c in from_pack]} if from_pack else {}),
                }
                for hands, starter, from_pack in self._stacked
            ]
        return data

    def _table_fields(self) -> dict[str, int]:
        """``seats`` and ``target`` where they are not two and 121: a two-player game to 121
        is saved and recorded exactly as before they were known (docs/game-record.md)."""
        fields = {}
        if self.seating.seats != 2:
            fields["seats"] = self.seating.seats
        if self.target != WINNING_SCORE:
            fields["target"] = self.target
        return fields

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """The inverse of ``to_json``: the same game, ready to go on."""
        stacked = [
            (
                tuple(parse_cards(hand) for hand in deal["hands"]),
                Card.parse(deal["starter"]),
                tuple(parse_cards(deal.get("from_pack", []))),
            )
            for deal in data.get("stacked", [])
        ]
        game = cls.new(
            seed=data["seed"],
            players=tuple(data["players"]),
            seats=data.get("seats", 2),
            target=data.get("target", WINNING_SCORE),
            first_dealer=None if data["cut"] else data["first_dealer"],
            self_count=frozenset(data["self_count"]),
            muggins=data["muggins"],
            callers=frozenset(data.get("callers", ())),
            stacked=stacked,
            scores=data.get("start_scores"),
        )
        for decision in data["decisions"]:
            game.apply(decision)
        state = data.get("state")
        if (
            state is not None
            and state != game._summary()
            and not game._saved_before_provisional_claims(state)
        ):
            raise ValueError("the saved decisions do not lead to the saved state")
        return game

    def _saved_before_provisional_claims(self, state: Mapping[str, Any]) -> bool:
        """Whether ``state`` is this game's as saved before checked claims were pegged
        provisionally: an over-count waiting for the call had pegged nothing, and a claim
        that reached 121 had won at once, without a call. The latter's call is taken now
        (letting the count stand: any call gives the same), so that it goes on as saved.
        """
        if self._phase is not Phase.MUGGINS or self._pending is None:
            return False
        if state.get("phase") == Phase.DONE.value:
            assert self.to_move is not None
            self.call_muggins(self.to_move, 0)
            return bool(state == self._summary())
        return bool(state == {**self._summary(), "scores": list(self._pending.scores)})

    def apply(self, decision: Mapping[str, Any]) -> list[Event]:
        """Take a decision written as in ``to_json()["decisions"]``."""
        player = decision["player"]
        if "discard" in decision:
            return self.discard(player, parse_cards(decision["discard"]))
        if "play" in decision:
            return self.play(player, Card.parse(decision["play"]))
        if "muggins" in decision:
            return self.call_muggins(player, decision["muggins"])
        return self.count_hand(player, decision["count"])

    def _summary(self) -> dict[str, Any]:
        return {
            "phase": str(self._phase),
            "deal_number": self.deal_number,
            "scores": list(self._scores),
            "to_move": self.to_move,
        }

    def record(self) -> dict[str, Any]:
        """The game record: players, first dealer, result and each deal's cards and events."""
        record = {
            "players": list(self.players),
            **self._table_fields(),
            "first_dealer": self.first_dealer,
            "winner": self._winner,
            "final_scores": list(self._scores),
            "skunk": None if self._winner is None else self._skunk().value,
            "seed": self.seed,
            "cut": [[str(card) for card in cards] for cards in self._cut_attempts],
            "self_count": sorted(self.self_count),
            "muggins": self.muggins,
            "start_scores": list(self._start_scores),
            "deals": self.deals,
        }
        if self.callers:
            record["callers"] = sorted(self.callers)
        return record


_DISCARD_RULE = "you must lay away exactly two of your own cards"
_DISCARD_ONE_RULE = "you must lay away exactly one of your own cards"


def _default_names(seats: int) -> tuple[str, ...]:
    if seats == 2:
        return ("Player", "Computer")
    return ("Player", *(f"Computer {seat}" for seat in range(1, seats)))


def _check_options(
    table: Seating,
    players: tuple[str, ...],
    first_dealer: int | None,
    scores: tuple[int, ...],
    target: int,
    muggins: bool,
    callers: frozenset[int],
) -> None:
    """Refuse settings no game at ``table`` can have (``ValueError``)."""
    seats, sides = table.seats, table.sides
    if len(players) != seats:
        raise ValueError(f"a game of {seats} seats names {seats} players, not {players}")
    if first_dealer is not None and (
        first_dealer not in range(seats) or isinstance(first_dealer, bool)
    ):
        choices = ", ".join(map(str, range(seats)))
        raise ValueError(f"first_dealer must be {choices} or None, not {first_dealer!r}")
    if len(scores) != sides or not all(0 <= score < target for score in scores):
        raise ValueError(f"a game starts from {sides} scores of 0 to {target - 1}, not {scores}")
    if muggins and seats != 2:
        raise ValueError("muggins is played between two players only")
    if not set(callers) <= {0, 1} or (callers and not muggins):
        raise ValueError(f"callers are players 0 and 1 in a game of muggins, not {callers}")


_DOING = {
    Phase.DISCARD: "lay away two cards",
    Phase.PLAY: "lay a card in the play",
    Phase.COUNT: "count a hand",
    Phase.MUGGINS: "call muggins or let the count stand",
}
