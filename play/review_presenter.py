"""A stored review as its page tells it: per game each player's figures and costliest
decisions, then every decision, deal by deal, each one line that opens for its card
faces and a link to the replay.

Terms (docs/review.md): a decision *gave away* (``lost``) the points between the
expert's choice (the *best*) and the one made (the *chosen*); it is *marked* (a
*mistake*) when that difference is real. A practice game's page lists the player's
decisions only (the computer's are not theirs to learn from) but gives both players'
figures; a game between members lists both players' decisions, each named. The reader
may list only the mistakes (``Shown``): their own when they played the game, or one
player's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from play.board import CardFace, faces
from scoring.review import Decision, DiscardChoice, GameReview

COSTLIEST = 3

HUNDREDTH = Decimal("0.01")


@dataclass(frozen=True)
class OptionRow:
    """One of the 15 ways to lay away two of six: its cards and expected points."""

    cards: list[CardFace]
    hand_ev: float
    crib_ev: float
    """Signed as it counts for the player: + their own crib, − the opponent's."""
    peg_ev: float
    """The pegging estimate of the kept ranks, part of ``net`` (the one measure)."""
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
    def given_away(self) -> float:
        """The points the page says the decision gave away: a card in the play that is not
        marked gave away none (its difference is the evaluation's noise, docs/review.md)."""
        if self.kind == "play" and not self.marked:
            return 0.0
        # As shown, to the hundredth (half up, as floatformat rounds): 3.999996 is "4",
        # not "4,00".
        return float(Decimal(repr(self.lost)).quantize(HUNDREDTH, ROUND_HALF_UP))

    @property
    def missed(self) -> int:
        """A count: the points it missed; an over-count pegs nothing, so all of them."""
        return self.worth if self.claimed > self.worth else self.worth - self.claimed

    @property
    def title(self) -> str:
        names = {"name": self.who, "count": self.count_before}
        if self.kind == "discard":
            return _("The discard · %(name)s") % names
        if self.kind == "play":
            return _("A card at %(count)s · %(name)s") % names
        return _("The count · %(name)s") % names


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
    counted: bool
    """The players counted their hands themselves: the page shows what they missed."""

    @property
    def costliest(self) -> bool:
        return any(seat.costliest for seat in self.seats)


@dataclass(frozen=True)
class Shown:
    """Which decisions the page lists: every decision of the seats listed, or, with
    ``mistakes_of``, only the marked ones of those seats."""

    mistakes_of: tuple[int, ...] | None = None

    def lists(self, decision: Decision) -> bool:
        return self.mistakes_of is None or (decision.marked and decision.seat in self.mistakes_of)


def shown_from_query(
    query: Mapping[str, str], *, listed: tuple[int, ...], reader: int | None
) -> Shown:
    """What ``?only=mistakes`` (and ``&seat=0`` or ``1``) asks of a page listing the seats
    ``listed``: one seat's mistakes, by default the reader's own when they played the
    game, else those of every seat listed. Anything else lists every decision."""
    if query.get("only") != "mistakes":
        return Shown()
    seat = query.get("seat")
    if seat in ("0", "1") and int(seat) in listed:
        return Shown((int(seat),))
    if seat is None and reader in listed:
        return Shown((reader,))
    return Shown(listed)


@dataclass(frozen=True)
class ShownLink:
    """One choice of what the page lists, as a link: ``query`` is its query string."""

    label: str
    query: str
    current: bool
    anchor: str


def shown_links(
    shown: Shown, *, names: tuple[str, ...], listed: tuple[int, ...], reader: int | None
) -> list[ShownLink]:
    """Every decision, the reader's own mistakes (when they played), and each other
    listed player's mistakes."""
    links = [ShownLink(_("All decisions"), "", shown == Shown(), "shown-all")]
    for seat in sorted(listed, key=lambda seat: seat != reader):
        if seat == reader:  # the reader's own need no seat (shown_from_query)
            label, query = _("Only my mistakes"), {"only": "mistakes"}
        else:
            label = _("Only mistakes by %(name)s") % {"name": names[seat]}
            query = {"only": "mistakes", "seat": str(seat)}
        current = shown == Shown((seat,))
        links.append(ShownLink(label, "?" + urlencode(query), current, f"shown-mistakes-{seat}"))
    return links


@dataclass(frozen=True)
class ReviewPage:
    games: list[GameSection]
    games_in_match: int
    links: list[ShownLink] = field(default_factory=list)
    filtered: bool = False
    """Only some players' mistakes are listed (``Shown``)."""
    total: int = 0
    """How many decisions the page lists when it lists every one."""
    seats: int = 2
    """How many sat at the table: at three or four each laid away one card of five."""

    @property
    def decisions(self) -> int:
        """How many decisions the page lists."""
        return sum(len(deal.decisions) for game in self.games for deal in game.deals)


def review_page(
    review: GameReview,
    *,
    names: tuple[str, ...],
    listed: tuple[int, ...],
    replay: tuple[str, int] | None,
    reader: int | None = None,
    shown: Shown = Shown(),
) -> ReviewPage:
    """The page of ``review``: ``names`` of the seats, the seats whose decisions are
    ``listed``, and the replay (its URL name and game pk) the decisions link to (None:
    the reader may not open the replay); the ``reader``'s seat when they played the
    game, and which of the listed decisions are ``shown``."""
    numbers = sorted({decision.game for decision in review.decisions})
    views = {
        id(decision): _decision_view(index, decision, names, replay)
        for index, decision in enumerate(review.decisions, start=1)
    }
    costliest_of = listed if shown.mistakes_of is None else shown.mistakes_of
    sections = []
    for number in numbers:
        played = GameReview(
            decisions=tuple(d for d in review.decisions if d.game == number), seats=review.seats
        )
        seats = [_seat_summary(played, seat, names[seat], views) for seat in range(review.seats)]
        for seat in range(review.seats):
            if seat not in costliest_of:
                seats[seat] = _without_costliest(seats[seat])
        counted = any(decision.kind == "count" for decision in played.decisions)
        deals = _deals(played, listed, shown, views)
        sections.append(GameSection(number, seats, deals, counted))
    return ReviewPage(
        sections,
        len(numbers),
        links=shown_links(shown, names=names, listed=listed, reader=reader),
        filtered=shown.mistakes_of is not None,
        total=sum(1 for decision in review.decisions if decision.seat in listed),
        seats=review.seats,
    )


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
    played: GameReview, listed: tuple[int, ...], shown: Shown, views: dict[int, DecisionView]
) -> list[DealDecisions]:
    deals: list[DealDecisions] = []
    for decision in played.decisions:
        if decision.seat not in listed or not shown.lists(decision):
            continue
        if not deals or deals[-1].deal != decision.deal:
            deals.append(DealDecisions(decision.game, decision.deal, []))
        deals[-1].decisions.append(views[id(decision)])
    return deals


def _decision_view(
    index: int, decision: Decision, names: tuple[str, ...], replay: tuple[str, int] | None
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
        peg_ev=option.peg_ev,
        net=option.net,
        chosen=own == set(decision.chosen),
        best=own == set(decision.best),
    )
