"""A two-player game to 121 that a user interface drives one decision at a time.

The game asks for four kinds of decision: each player's *discard* (two cards
laid away to the crib), a card to lay in the *play*, for players who count
their own hands the points they claim in the *show*, and, with muggins between
two people, the opponent's *call* on that claim. Everything else (the
starter and his heels, a go, the point for the last card, the show of hands
counted by the engine, the next deal) happens automatically inside the call
that made it due, and the call returns the events it produced. The game ends
the moment a player reaches 121 (docs/rules.md §2.7); a player's score stops there.

A claim the opponent checks is pegged at once, as at the table, whatever it is worth
(a ``CLAIM`` event), so that every claim looks the same until the call; the call settles
it (the ``SHOW``, then the call's ``MUGGINS``): an over-count's pegs are taken back, and
a claim that reached 121 wins only then, when it stands (docs/muggins.md).

A decision the rules forbid raises ``IllegalPlayError`` and changes nothing.
A game is saved as its seed and the list of decisions taken; loading replays
them, so a loaded game goes on exactly as the saved one would have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from scoring.rules.cards import JACK, Card, parse_cards
from scoring.rules.deal import Deal, cut_for_deal, shuffled_deal
from scoring.rules.events import (
    WINNING_SCORE,
    Event,
    EventType,
    IllegalPlayError,
    Phase,
    Refusal,
    skunk_of,
)
from scoring.rules.hand import shown_score
from scoring.rules.pegging import MAX_COUNT, score_play
from scoring.rules.table import PendingClaim, Stacked, Table

__all__ = ["Event", "EventType", "Game", "IllegalPlayError", "Phase", "Refusal"]


class Game(Table):
    """A game between players 0 and 1. Create it with ``Game.new``."""

    @classmethod
    def new(
        cls,
        *,
        seed: int,
        players: tuple[str, str] = ("Player", "Computer"),
        first_dealer: int | None = None,
        self_count: frozenset[int] = frozenset(),
        muggins: bool = False,
        callers: frozenset[int] = frozenset(),
        stacked: Stacked = (),
        scores: tuple[int, int] = (0, 0),
    ) -> Game:
        """Start a game; without ``first_dealer`` the players cut for deal first.

        The same seed and the same decisions always give the same game.
        With ``muggins`` the points a self-counted hand misses go to the opponent:
        at once, or, when the opponent is one of the ``callers`` (a person), when
        they call muggins (``call_muggins``).
        ``stacked`` prearranges the first deals (each player's six cards and the
        starter) and ``scores`` starts the game from a position: both are for
        replays, practice positions and tests.
        """
        if first_dealer not in (None, 0, 1):
            raise ValueError(f"first_dealer must be 0, 1 or None, not {first_dealer!r}")
        if not all(0 <= score < WINNING_SCORE for score in scores):
            raise ValueError(f"a game starts from scores of 0 to 120, not {scores}")
        if not set(callers) <= {0, 1} or (callers and not muggins):
            raise ValueError(f"callers are players 0 and 1 in a game of muggins, not {callers}")
        game = cls(
            seed=seed,
            players=players,
            self_count=frozenset(self_count),
            muggins=muggins,
            callers=frozenset(callers),
            stacked=stacked,
        )
        game._start_scores = (scores[0], scores[1])
        game._scores, game._previous = list(scores), list(scores)
        if first_dealer is None:
            game._cut_attempts = cut_for_deal(seed)
            for first, second in game._cut_attempts:
                dealer = None if first.rank == second.rank else int(second.rank < first.rank)
                game._emit(EventType.CUT, player=dealer, cards=(first, second))
            first_dealer = dealer
        assert first_dealer is not None
        game.first_dealer = first_dealer
        game._start_deal()
        return game

    # ------------------------------------------------------------- decisions
    def legal_discards(self, player: int) -> list[tuple[Card, Card]]:
        """The 15 pairs ``player`` may lay away, or [] when no discard is due from them."""
        if self._phase is not Phase.DISCARD or player not in self.awaiting:
            return []
        return list(combinations(self._deal.held[player], 2))

    def legal_plays(self, player: int) -> list[Card]:
        """The cards ``player`` may lay now, or [] when it is not their turn to lay."""
        if self._phase is not Phase.PLAY or player != self._deal.turn:
            return []
        return self._deal.playable(player)

    def discard(self, player: int, cards: Sequence[Card]) -> list[Event]:
        """Lay two of ``player``'s six cards away to the crib."""
        self._check_turn(player, Phase.DISCARD)
        held = self._deal.held[player]
        for card in cards:
            if card not in held:
                raise IllegalPlayError(
                    Refusal.NOT_HELD, f"{card} is not in your hand; {_DISCARD_RULE}", card=card
                )
        if len(cards) != 2 or cards[0] == cards[1]:
            raise IllegalPlayError(
                Refusal.NOT_TWO_CARDS, f"you laid away {len(set(cards))} cards; {_DISCARD_RULE}"
            )
        mark = len(self._events)
        self._decisions.append({"player": player, "discard": [str(c) for c in cards]})
        deal = self._deal
        deal.discards[player] = (cards[0], cards[1])
        deal.held[player] = [card for card in held if card not in cards]
        self._emit(EventType.DISCARD, player=player, cards=(cards[0], cards[1]))
        if deal.discards[1 - player]:
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
        if player not in (0, 1):
            raise IllegalPlayError(
                Refusal.NO_SUCH_PLAYER, f"there is no player {player!r}; players are 0 and 1"
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
                    Refusal.ALREADY_DISCARDED, "you have already laid away your two cards"
                )
            raise IllegalPlayError(
                Refusal.NOT_YOUR_TURN, f"it is {self.players[1 - player]}'s turn"
            )

    # ---------------------------------------------------- what follows itself
    def _start_deal(self) -> None:
        number = len(self._deals) + 1
        dealer = self.first_dealer if number == 1 else 1 - self._deal.dealer
        if number <= len(self._stacked):
            hands, cut_card = self._stacked[number - 1]
        else:
            (pone_six, dealer_six), cut_card = shuffled_deal(self.seed, number)
            hands = (dealer_six, pone_six) if dealer == 0 else (pone_six, dealer_six)
        deal = Deal(number, dealer, hands, cut_card)
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
        """Decide who lays next, saying go and scoring the last card as they fall due."""
        deal, other = self._deal, 1 - player
        if len(deal.played) == 8:
            if deal.count == MAX_COUNT or not self._emit_last(player):
                self._start_show()
            return
        if deal.count == MAX_COUNT:
            self._reset(leader=other)
            return
        if deal.can_lay(other):
            deal.turn = other
            return
        if not deal.said_go[other]:
            deal.said_go[other] = True
            self._emit(EventType.GO, player=other, count=deal.count)
        if deal.can_lay(player):
            deal.turn = player
        elif not self._emit_last(player):
            self._reset(leader=other)

    def _emit_last(self, player: int) -> bool:
        return self._emit(EventType.LAST, player=player, points=1, count=self._deal.count)

    def _reset(self, *, leader: int) -> None:
        """Start a new sequence; the player who did not lay the last card leads if they can."""
        deal = self._deal
        deal.count = 0
        deal.sequence.clear()
        deal.said_go = [False, False]
        deal.turn = leader if deal.held[leader] else 1 - leader
        self._emit(EventType.RESET, count=0)

    def _start_show(self) -> None:
        self._phase = Phase.COUNT
        self._show()

    def _show(self) -> None:
        """Count hands in show order until one is self-counted, the game ends or all are shown."""
        deal = self._deal
        assert deal.starter is not None
        while deal.show_step < 3:
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
        """Record an event, pegging its points first; True when it won the game.

        Points not ``settled`` (a claim still to be checked) are pegged but win nothing.
        """
        if points and player is not None:
            self._previous[player] = self._scores[player]
            self._scores[player] = min(WINNING_SCORE, self._scores[player] + points)
        scores = (self._scores[0], self._scores[1])
        self._events.append(Event(type_, player, points, scores=scores, **fields))
        if settled and points and player is not None and self._scores[player] >= WINNING_SCORE:
            self._winner, self._phase = player, Phase.DONE
            skunk = skunk_of(self._scores[1 - player])
            self._events.append(
                Event(EventType.WIN, player=player, skunk=skunk, scores=self.scores)
            )
            return True
        return False

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
                {"hands": [[str(c) for c in hand] for hand in hands], "starter": str(starter)}
                for hands, starter in self._stacked
            ]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """The inverse of ``to_json``: the same game, ready to go on."""
        stacked = [
            (tuple(parse_cards(hand) for hand in deal["hands"]), Card.parse(deal["starter"]))
            for deal in data.get("stacked", [])
        ]
        game = cls.new(
            seed=data["seed"],
            players=(data["players"][0], data["players"][1]),
            first_dealer=None if data["cut"] else data["first_dealer"],
            self_count=frozenset(data["self_count"]),
            muggins=data["muggins"],
            callers=frozenset(data.get("callers", ())),
            stacked=stacked,
            scores=tuple(data.get("start_scores", (0, 0))),
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
        loser_score = None if self._winner is None else self._scores[1 - self._winner]
        record = {
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "winner": self._winner,
            "final_scores": list(self._scores),
            "skunk": None if loser_score is None else skunk_of(loser_score).value,
            "seed": self.seed,
            "cut": [[str(a), str(b)] for a, b in self._cut_attempts],
            "self_count": sorted(self.self_count),
            "muggins": self.muggins,
            "start_scores": list(self._start_scores),
            "deals": self.deals,
        }
        if self.callers:
            record["callers"] = sorted(self.callers)
        return record


_DISCARD_RULE = "you must lay away exactly two of your own cards"
_DOING = {
    Phase.DISCARD: "lay away two cards",
    Phase.PLAY: "lay a card in the play",
    Phase.COUNT: "count a hand",
    Phase.MUGGINS: "call muggins or let the count stand",
}
