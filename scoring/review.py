"""A whole game's review: each decision of a recorded game weighed by the engine.

The record (``Game.record()``) is replayed through the rules (``scoring.rules.replay``)
and at each decision the engine says what it was worth, as docs/review.md explains:

- a *discard*: all 15 ways to lay away two of the six, each with its exact hand EV
  over the 46 starters, its crib EV from the expert's crib table, its pegging estimate
  and its *net*, the one measure the hint and the expert computer choose by
  (``scoring.players.discarding.analyse_discards`` at the expert level: hand EV, plus the
  crib EV when the crib is the player's own or minus it otherwise, plus the pegging
  estimate), so that following the hint never gives anything away;
- a *play*: the one judge's card in that position (``scoring.players.pegplay.evaluate_play``,
  the card the hint offers and the expert computer lays) and how many points of the play
  it reckons the card laid gave away, both cards weighed over the same opponent hands;
  *marked* only when the difference is real;
- a *count* by a self-counting player: the points claimed against the hand's worth.

With three or four at the table the same holds, seat by seat: the discard of one card of
five is weighed by ``analyse_discards`` for the seat's side (a partner's crib is the
seat's own), and a card by ``scoring.players.tableplay.evaluate_table_play``, the expert's
reckoning there.

Nothing here is random in the way it turns out: the play's sampling is seeded from the
position, so the review of a record is always the same. No Django import, ever.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.players.discarding import JUDGE_LEVEL, analyse_discards
from scoring.players.pegplay import PegPosition, PlayEvaluation, evaluate_play
from scoring.players.strategy import peg_position, table_position
from scoring.players.tableplay import TablePosition, evaluate_table_play
from scoring.rules.cards import Card, parse_cards
from scoring.rules.events import Phase
from scoring.rules.game import Game
from scoring.rules.replay import RecordError, replay_live
from scoring.rules.seats import seating

__all__ = [
    "ACCURACY_SCALE",
    "JUDGE_LEVEL",
    "MARK_POINTS",
    "NOISE_Z",
    "REVIEW_VERSION",
    "Decision",
    "DiscardChoice",
    "GameReview",
    "PlayEvaluation",
    "RecordError",
    "SeatTotals",
    "accuracy",
    "evaluate_play",
    "from_json",
    "review_discard",
    "review_game",
    "review_games",
]

REVIEW_VERSION = 2
"""Bumped whenever what a review says changes; a stored review of an older version is redone."""

MARK_POINTS = 0.5
"""A discard or a card laid is marked as a mistake only when it gave away this much or more."""

NOISE_Z = 2.0
"""A play's difference is real only this many standard errors above 0 (docs/review.md)."""

ACCURACY_SCALE = 1.0
"""The mean points lost per decision at which accuracy is 50 (``accuracy``)."""

KINDS = ("discard", "play", "count")


@dataclass(frozen=True)
class DiscardChoice:
    """One of the 15 ways to lay away two of six (of the five ways to lay one of five),
    with what it is expected to be worth."""

    discard: tuple[Card, ...]
    hand_ev: float
    """Exact: the mean show of the kept four over the 46 starters."""
    crib_ev: float
    """The two cards' expected points to the crib (the expert's crib table); always >= 0."""
    net: float
    """The one measure (``analyse_discards``' total EV at the expert level): ``hand_ev``,
    plus ``crib_ev`` when the crib is the player's own or minus it otherwise, plus
    ``peg_ev``."""
    peg_ev: float = 0.0
    """The expert's estimate of what the kept ranks net in the play (part of ``net``)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "discard": [str(card) for card in self.discard],
            "hand_ev": self.hand_ev,
            "crib_ev": self.crib_ev,
            "net": self.net,
            "peg_ev": self.peg_ev,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DiscardChoice:
        return cls(
            discard=tuple(parse_cards(data["discard"])),
            hand_ev=float(data["hand_ev"]),
            crib_ev=float(data["crib_ev"]),
            net=float(data["net"]),
            peg_ev=float(data.get("peg_ev", 0.0)),
        )


@dataclass(frozen=True)
class Decision:
    """One decision of a game and what the engine makes of it."""

    game: int
    """The game's number within the match (1 for a single game)."""
    deal: int
    """1-based deal number within the game."""
    seat: int
    """The engine's player index (0 or 1; with three or four the seat)."""
    kind: str
    """``discard``, ``play`` or ``count``."""
    step: int
    """Index into ``list(scoring.replay(record))`` of the step whose ``decision`` is this one."""
    lost: float
    """Points given away (>= 0): the best's value less the chosen's."""
    marked: bool
    """Worth showing as a mistake (docs/review.md says when)."""
    # a discard
    hand: tuple[Card, ...] = ()
    """The six cards as dealt (five with three or four)."""
    dealer: bool | None = None
    """True when the crib is the player's own (with four, or their partner's)."""
    options: tuple[DiscardChoice, ...] = ()
    """All 15 (all 5), best net first (ties in the order of the cards as dealt)."""
    chosen: tuple[Card, ...] = ()
    """A discard: the two laid away; a play: (the card laid,)."""
    best: tuple[Card, ...] = ()
    """A discard: the best two by net; a play: (the expert's card,)."""
    # a play
    count_before: int | None = None
    noise: float | None = None
    """A play: the standard error of ``lost`` over the opponent hands sampled (0 when exact)."""
    # a count (self-counting players only)
    claimed: int | None = None
    worth: int | None = None

    def as_json(self) -> dict[str, Any]:
        """The decision as issue 27's machine interface writes it (docs/game-record.md)."""
        data: dict[str, Any] = {
            "game": self.game,
            "deal": self.deal,
            "seat": self.seat,
            "kind": self.kind,
            "step": self.step,
            "lost": self.lost,
            "marked": self.marked,
        }
        if self.kind == "discard":
            data["hand"] = [str(card) for card in self.hand]
            data["dealer"] = self.dealer
            data["options"] = [option.as_json() for option in self.options]
        if self.kind in ("discard", "play"):
            data["chosen"] = [str(card) for card in self.chosen]
            data["best"] = [str(card) for card in self.best]
        if self.kind == "play":
            data["count_before"] = self.count_before
            data["noise"] = self.noise
        if self.kind == "count":
            data["claimed"] = self.claimed
            data["worth"] = self.worth
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Decision:
        return cls(
            game=int(data["game"]),
            deal=int(data["deal"]),
            seat=int(data["seat"]),
            kind=str(data["kind"]),
            step=int(data["step"]),
            lost=float(data["lost"]),
            marked=bool(data["marked"]),
            hand=tuple(parse_cards(data.get("hand", []))),
            dealer=data.get("dealer"),
            options=tuple(DiscardChoice.from_json(option) for option in data.get("options", [])),
            chosen=tuple(parse_cards(data.get("chosen", []))),
            best=tuple(parse_cards(data.get("best", []))),
            count_before=data.get("count_before"),
            noise=None if data.get("noise") is None else float(data["noise"]),
            claimed=data.get("claimed"),
            worth=data.get("worth"),
        )


@dataclass(frozen=True)
class SeatTotals:
    """One player's sums over a review (docs/review.md defines each)."""

    discards_lost: float
    """Points given away in the discards, over all of them."""
    play_lost: float
    """Points given away in the play, over the marked cards only (the rest is noise)."""
    count_missed: int
    discards: int
    plays: int
    """How many discards, and cards laid with a choice of ranks (forced cards have no row)."""
    discard_accuracy: float
    play_accuracy: float
    accuracy: float
    """The one figure a member follows over time: 0..100 (``accuracy``)."""

    def as_json(self) -> dict[str, Any]:
        return {
            "discards_lost": self.discards_lost,
            "play_lost": self.play_lost,
            "count_missed": self.count_missed,
            "discards": self.discards,
            "plays": self.plays,
            "discard_accuracy": self.discard_accuracy,
            "play_accuracy": self.play_accuracy,
            "accuracy": self.accuracy,
        }


def accuracy(lost: float, decisions: int) -> float:
    """100 / (1 + mean points lost per decision / scale), rounded to 0.1; 100 without decisions.

    Per decision, so a short game and a long one compare; a mean loss of
    ``ACCURACY_SCALE`` gives 50 (docs/review.md).
    """
    if decisions <= 0:
        return 100.0
    return round(100.0 / (1.0 + lost / decisions / ACCURACY_SCALE), 1)


@dataclass(frozen=True)
class GameReview:
    """The review of a game (or of a match's games, one after the other)."""

    decisions: tuple[Decision, ...]
    """In the order played."""
    version: int = field(default=REVIEW_VERSION)
    seats: int = 2
    """How many sat at the table: the totals are one a seat."""

    def of(self, seat: int, kind: str | None = None) -> tuple[Decision, ...]:
        return tuple(
            d for d in self.decisions if d.seat == seat and (kind is None or d.kind == kind)
        )

    def totals(self, seat: int) -> SeatTotals:
        discards, plays = self.of(seat, "discard"), self.of(seat, "play")
        discards_lost = sum(d.lost for d in discards)
        play_lost = sum(d.lost for d in plays if d.marked)
        return SeatTotals(
            discards_lost=round(discards_lost, 6),
            play_lost=round(play_lost, 6),
            count_missed=int(sum(d.lost for d in self.of(seat, "count"))),
            discards=len(discards),
            plays=len(plays),
            discard_accuracy=accuracy(discards_lost, len(discards)),
            play_accuracy=accuracy(play_lost, len(plays)),
            accuracy=accuracy(discards_lost + play_lost, len(discards) + len(plays)),
        )

    def costliest(self, seat: int, n: int = 3) -> tuple[Decision, ...]:
        """The ``n`` marked decisions of ``seat`` that gave away most, costliest first."""
        marked = [d for d in self.of(seat) if d.marked]
        return tuple(sorted(marked, key=lambda d: -d.lost)[:n])

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"version": self.version}
        if self.seats != 2:  # a review of two is written as before seats were known
            data["seats"] = self.seats
        data["decisions"] = [decision.as_json() for decision in self.decisions]
        data["totals"] = [self.totals(seat).as_json() for seat in range(self.seats)]
        return data


def from_json(data: Mapping[str, Any]) -> GameReview:
    """A review as ``GameReview.as_json`` wrote it (the totals are worked out again)."""
    return GameReview(
        decisions=tuple(Decision.from_json(d) for d in data["decisions"]),
        version=int(data.get("version", 0)),
        seats=int(data.get("seats", 2)),
    )


# ------------------------------------------------------------------ discards
def review_discard(
    six: Sequence[Card], chosen: Sequence[Card], *, dealer: bool, sides: int = 2
) -> tuple[tuple[DiscardChoice, ...], float]:
    """All 15 choices (5 of five cards) best net first, and the points ``chosen`` gave
    away by net; ``dealer``: the crib is the player's side's, of ``sides``.

    The order is ``analyse_discards``' own (ties in the order of the six as dealt), so
    the review's best is the hint's first choice and the expert computer's discard.
    """
    choices = tuple(
        DiscardChoice(
            discard=option.discard,
            hand_ev=option.hand_ev,
            crib_ev=option.crib_ev,
            net=option.total_ev,
            peg_ev=option.peg_ev,
        )
        for option in analyse_discards(
            six, dealer=dealer, level=JUDGE_LEVEL, sides=sides, laid_away=len(six) - 4
        )
    )
    options = choices
    made = next(o for o in options if set(o.discard) == set(chosen))
    # Rounded: sums of floats would otherwise give away 3.9999999 points, or 1e-16.
    return options, round(options[0].net - made.net, 6)


# ---------------------------------------------------------------------- play
def review_play(
    position: PegPosition | TablePosition, card: Card
) -> tuple[Card, float, bool, float]:
    """The expert's card, the points ``card`` gave away, whether that is real, the noise."""
    if isinstance(position, TablePosition):
        evaluation = evaluate_table_play(position)
    else:
        evaluation = evaluate_play(position)
    if card.rank in evaluation.wins or card.rank == evaluation.best.rank:
        return card, 0.0, False, 0.0
    lost, noise = evaluation.lost(card)
    if evaluation.wins:  # a win at once not taken is always a real mistake
        return evaluation.best, lost, True, noise
    real = lost >= MARK_POINTS and lost > NOISE_Z * noise
    return evaluation.best, lost, real, noise


# --------------------------------------------------------------------- games
def review_game(record: Mapping[str, Any], *, game: int = 1) -> GameReview:
    """The review of one recorded game, its decisions in the order played.

    Raises ``RecordError`` for a record the rules refuse (``scoring.rules.replay``).
    A record of an unfinished game is reviewed as far as it goes.
    """
    decisions: list[Decision] = []
    before: tuple[int, PegPosition | TablePosition | None, int | None] = (1, None, None)
    for step, (state, (decision, _events)) in enumerate(replay_live(record)):
        if decision is not None:
            made = _decision(record, decision, step, game, *before)
            if made is not None:
                decisions.append(made)
        before = _state_before(state)
    return GameReview(decisions=tuple(decisions), seats=record.get("seats", 2))


def review_games(records: Sequence[Mapping[str, Any]]) -> GameReview:
    """The review of a match's games (numbered 1 on), their decisions one after the other."""
    decisions: list[Decision] = []
    for number, record in enumerate(records, start=1):
        decisions += review_game(record, game=number).decisions
    seats = records[0].get("seats", 2) if records else 2
    return GameReview(decisions=tuple(decisions), seats=seats)


def _state_before(state: Game) -> tuple[int, PegPosition | TablePosition | None, int | None]:
    """What a decision taken next needs of the game as it stands (which is about to change).

    In the play that is what the player to move sees: the next decision is theirs, or
    the replay would have refused it before yielding it.
    """
    position: PegPosition | TablePosition | None = None
    worth = None
    if state.phase is Phase.PLAY and state.to_move is not None:
        if state.seats == 2:
            position = peg_position(state, state.to_move)
        else:
            position = table_position(state, state.to_move)
    if state.phase is Phase.COUNT and state.showing_score is not None:
        worth = state.showing_score.total
    return state.deal_number, position, worth


def _decision(
    record: Mapping[str, Any],
    decision: Mapping[str, Any],
    step: int,
    game: int,
    deal: int,
    position: PegPosition | TablePosition | None,
    worth: int | None,
) -> Decision | None:
    seat = int(decision["player"])
    if "discard" in decision:
        dealt = record["deals"][deal - 1]
        six = tuple(parse_cards(dealt["hands"][seat]))
        chosen = tuple(parse_cards(decision["discard"]))
        table = seating(record.get("seats", 2))
        dealer = table.side_of[dealt["dealer"]] == table.side_of[seat]
        options, lost = review_discard(six, chosen, dealer=dealer, sides=table.sides)
        return Decision(
            kind="discard",
            lost=lost,
            marked=lost >= MARK_POINTS,
            hand=six,
            dealer=dealer,
            options=options,
            chosen=chosen,
            best=options[0].discard,
            game=game,
            deal=deal,
            seat=seat,
            step=step,
        )
    if "play" in decision:
        assert position is not None
        card = Card.parse(decision["play"])
        if len({c.rank for c in position.legal()}) < 2:
            return None  # forced: one rank to lay, no decision (docs/review.md)
        best, lost, real, noise = review_play(position, card)
        return Decision(
            kind="play",
            lost=lost,
            marked=real,
            chosen=(card,),
            best=(best,),
            count_before=position.count,
            noise=noise,
            game=game,
            deal=deal,
            seat=seat,
            step=step,
        )
    if "count" in decision:
        assert worth is not None
        claimed = int(decision["count"])
        # An over-count pegs nothing: the hand's whole worth is missed (docs/muggins.md).
        missed = worth if claimed > worth else worth - claimed
        return Decision(
            kind="count",
            lost=float(missed),
            marked=claimed != worth,
            claimed=claimed,
            worth=worth,
            game=game,
            deal=deal,
            seat=seat,
            step=step,
        )
    return None  # a call of muggins: not reviewed
