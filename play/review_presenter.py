"""A stored review as its page tells it: per game each player's figures and costliest
decisions, then every decision, deal by deal, with card faces and links to the replay.

Terms (docs/review.md): a decision *gave away* (``lost``) the points between the
expert's choice (the *best*) and the one made (the *chosen*); it is *marked* when that
difference is real. A practice game's page lists the player's decisions only (the
computer's are not theirs to learn from) but gives both players' figures; a game
between members lists both players' decisions, each named.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.urls import reverse
from django.utils.translation import gettext as _

from play.board import CardFace, faces
from scoring.review import Decision, DiscardChoice, GameReview

COSTLIEST = 3


@dataclass(frozen=True)
class OptionRow:
    """One of the 15 ways to lay away two of six: its cards and expected points."""

    cards: list[CardFace]
    hand_ev: float
    crib_ev: float
    """Signed as it counts for the player: + their own crib, − the opponent's."""
    net: float
    chosen: bool
    best: bool


@dataclass(frozen=True)
class DecisionView:
    """One decision as the page shows it."""

    anchor: str
    kind: str
    game: int
    deal: int
    seat: int
    who: str
    lost: float
    marked: bool
    replay_url: str | None
    # a discard
    hand: list[CardFace] = field(default_factory=list)
    chosen: list[CardFace] = field(default_factory=list)
    best: list[CardFace] = field(default_factory=list)
    dealer: bool = False
    options: list[OptionRow] = field(default_factory=list)
    # a play
    count_before: int = 0
    # a count
    claimed: int = 0
    worth: int = 0

    @property
    def chose_best(self) -> bool:
        return self.lost <= 0 or self.chosen == self.best

    @property
    def missed(self) -> int:
        """A count: the points the player did not claim."""
        return max(self.worth - self.claimed, 0)

    @property
    def title(self) -> str:
        names = {"name": self.who, "count": self.count_before}
        if self.kind == "discard":
            return _("%(name)s: the discard") % names
        if self.kind == "play":
            return _("%(name)s: a card at the count of %(count)s") % names
        return _("%(name)s: the count") % names


@dataclass(frozen=True)
class SeatSummary:
    """One player's figures in one game, and their costliest decisions."""

    who: str
    accuracy: float
    discard_accuracy: float
    play_accuracy: float
    discards_lost: float
    play_lost: float
    count_missed: int
    costliest: list[DecisionView]


@dataclass(frozen=True)
class DealDecisions:
    game: int
    deal: int
    decisions: list[DecisionView]


@dataclass(frozen=True)
class GameSection:
    number: int
    seats: list[SeatSummary]
    deals: list[DealDecisions]


@dataclass(frozen=True)
class ReviewPage:
    games: list[GameSection]
    games_in_match: int

    @property
    def decisions(self) -> int:
        return sum(len(deal.decisions) for game in self.games for deal in game.deals)


def review_page(
    review: GameReview,
    *,
    names: tuple[str, str],
    listed: tuple[int, ...],
    replay: tuple[str, int] | None,
) -> ReviewPage:
    """The page of ``review``: ``names`` of the seats, the seats whose decisions are
    ``listed``, and the replay (its URL name and game pk) the decisions link to (None:
    the reader may not open the replay)."""
    numbers = sorted({decision.game for decision in review.decisions})
    views = {
        id(decision): _decision_view(index, decision, names, replay)
        for index, decision in enumerate(review.decisions, start=1)
    }
    sections = []
    for number in numbers:
        played = GameReview(decisions=tuple(d for d in review.decisions if d.game == number))
        seats = [_seat_summary(played, seat, names[seat], views) for seat in (0, 1)]
        for seat in (0, 1):
            if seat not in listed:
                seats[seat] = _without_costliest(seats[seat])
        sections.append(GameSection(number, seats, _deals(played, listed, views)))
    return ReviewPage(sections, len(numbers))


def _seat_summary(
    played: GameReview, seat: int, who: str, views: dict[int, DecisionView]
) -> SeatSummary:
    totals = played.totals(seat)
    return SeatSummary(
        who=who,
        accuracy=totals.accuracy,
        discard_accuracy=totals.discard_accuracy,
        play_accuracy=totals.play_accuracy,
        discards_lost=totals.discards_lost,
        play_lost=totals.play_lost,
        count_missed=totals.count_missed,
        costliest=[views[id(d)] for d in played.costliest(seat, COSTLIEST)],
    )


def _without_costliest(summary: SeatSummary) -> SeatSummary:
    return replace(summary, costliest=[])


def _deals(
    played: GameReview, listed: tuple[int, ...], views: dict[int, DecisionView]
) -> list[DealDecisions]:
    deals: list[DealDecisions] = []
    for decision in played.decisions:
        if decision.seat not in listed:
            continue
        if not deals or deals[-1].deal != decision.deal:
            deals.append(DealDecisions(decision.game, decision.deal, []))
        deals[-1].decisions.append(views[id(decision)])
    return deals


def _decision_view(
    index: int, decision: Decision, names: tuple[str, str], replay: tuple[str, int] | None
) -> DecisionView:
    url = None
    if replay is not None:
        name, pk = replay
        # The replay's step shows the game after that step: the one before is the moment
        # the decision was taken (scoring.review.Decision.step).
        url = f"{reverse(name, args=[pk])}?game={decision.game}&step={max(decision.step - 1, 0)}"
    shown = DecisionView(
        anchor=f"decision-{index}",
        kind=decision.kind,
        game=decision.game,
        deal=decision.deal,
        seat=decision.seat,
        who=names[decision.seat],
        lost=decision.lost,
        marked=decision.marked,
        replay_url=url,
    )
    if decision.kind == "discard":
        return replace(
            shown,
            hand=faces(decision.hand),
            chosen=faces(decision.chosen),
            best=faces(decision.best),
            dealer=bool(decision.dealer),
            options=[_option_row(option, decision) for option in decision.options],
        )
    if decision.kind == "play":
        return replace(
            shown,
            chosen=faces(decision.chosen),
            best=faces(decision.best) if decision.marked else [],
            count_before=decision.count_before or 0,
        )
    return replace(shown, claimed=decision.claimed or 0, worth=decision.worth or 0)


def _option_row(option: DiscardChoice, decision: Decision) -> OptionRow:
    own = set(option.discard)
    return OptionRow(
        cards=faces(option.discard),
        hand_ev=option.hand_ev,
        crib_ev=option.crib_ev if decision.dealer else -option.crib_ev,
        net=option.net,
        chosen=own == set(decision.chosen),
        best=own == set(decision.best),
    )
