"""Reads of practice games: whose they are, the table as the player sees it, replays.

Terms as in ``play.services``: the player is seat 0, the computer seat 1. The
*table* is what the player may see: their own cards, the backs of the
computer's, the crib's size, the starter, the count and the cards laid, the
board and the *news* (the events of the latest decision, told one by one). A
*replay* steps through a finished game's record, one decision per step, with
both hands face up. Statistics are in ``play.stats``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.backends.base import SessionBase
from django.db.models import QuerySet

from play.board import Board, CardFace, face, faces
from play.models import PracticeGame
from play.narration import PRACTICE, Line, Pegs, Seats, logged, narrate, start_pegs
from play.seating import SeatView, SideView, seat_views, side_views, table_seats
from play.services import HUMAN, SESSION_GAMES, Hint, load_match
from scoring.rules.cards import Card
from scoring.rules.events import Event, EventType, Phase
from scoring.rules.game import Game
from scoring.rules.match import Match


def practice_games_for(
    *, user: User | AnonymousUser, session: SessionBase
) -> QuerySet[PracticeGame]:
    """The games this visitor may see and play: a member's own, or a guest's session's."""
    if user.is_authenticated:
        return PracticeGame.objects.filter(owner=user)
    ids = [pk for pk in session.get(SESSION_GAMES, []) if isinstance(pk, int)]
    return PracticeGame.objects.filter(owner__isnull=True, pk__in=ids)


@dataclass(frozen=True)
class HandCard:
    face: CardFace
    playable: bool = True
    focus: bool = False


NEWS_SHOWN = 3
"""Lines of a decision's news shown beside the board; the earlier ones fold away, so that
the hand stays in sight on a phone after a show (three hands with their breakdowns)."""


@dataclass(frozen=True)
class Laid:
    """A card laid in the play: by which seat, and whether by the reader; ``who`` names the
    seat at a table of three or four (empty with two: "you" or the other)."""

    card: CardFace
    seat: int
    mine: bool
    who: str = ""


@dataclass
class TableView:
    """The table of the current game, as the reader in seat ``viewer`` sees it.

    ``viewer`` is None for a spectator, who sees no hand. Seats, scores and wins are
    the engine's (seat 0 first); ``hand`` and ``kept`` are the reader's own cards.
    """

    viewer: int | None
    awaiting: frozenset[int]
    game_number: int
    wins: tuple[int, int]
    match_over: bool
    phase: str
    deal_number: int
    dealer: int
    scores: tuple[int, ...]
    board: Board
    hand: list[HandCard]
    holds: tuple[int, ...]
    crib_size: int
    starter: CardFace | None
    count: int
    sequence: list[Laid]
    laid_before: list[Laid]
    showing: tuple[str, list[CardFace]] | None
    news: list[Line]
    pegs_before: Pegs
    log: list[Line]
    winner: int | None
    skunk: str | None
    kept: list[CardFace] = field(default_factory=list)
    crib: list[CardFace] = field(default_factory=list)
    """The crib face up, once the game is over (as at the table: everything is turned
    over then); face down, as ``crib_size`` backs, until then."""
    claimed: int | None = None
    """While a count is checked for muggins, the points its counter claimed (pegged on the
    board already, provisionally: ``scores`` and ``board`` count them)."""
    seats: int = 2
    target: int = 121
    seat_views: list[SeatView] = field(default_factory=list)
    """Every seat but the reader's, from their left round the table (three or four only)."""
    side_views: list[SideView] = field(default_factory=list)
    """Every side's score, the reader's first (three or four seats only)."""
    dealer_name: str = ""
    """Who deals, named as the reader sees the table (three or four seats only)."""
    laid_away: int = 2
    """Cards each seat lays away to the crib: two, or one with three or four."""

    @property
    def many(self) -> bool:
        """Whether three or four sit at the table."""
        return self.seats > 2

    @property
    def winners(self) -> str:
        """The winning side's name at a table of three or four (empty until it is won)."""
        return next((side.name for side in self.side_views if side.side == self.winner), "")

    @property
    def partner_deals(self) -> bool:
        """Whether the reader's partner deals (four seats): the crib is their side's."""
        return any(seat.partner and seat.dealer for seat in self.seat_views)

    @property
    def we_won(self) -> bool:
        """Whether the reader's side won."""
        return any(side.mine and side.side == self.winner for side in self.side_views)

    @property
    def checking(self) -> bool:
        """Whether a count waits for the opponent's call of muggins (and is told as its
        claim alone)."""
        return self.phase == Phase.MUGGINS.value

    @property
    def game_over(self) -> bool:
        return self.phase == Phase.DONE.value

    @property
    def next_game_due(self) -> bool:
        return self.game_over and not self.match_over

    @property
    def news_shown(self) -> list[Line]:
        """The latest ``NEWS_SHOWN`` lines of the news: told one by one beside the board."""
        return self.news[-NEWS_SHOWN:]

    @property
    def news_earlier(self) -> list[Line]:
        """The news before ``news_shown``, folded away (a show's breakdowns are long)."""
        return self.news[:-NEWS_SHOWN]

    @property
    def pegs_before_text(self) -> str:
        """The pegs before the first line of ``news_shown``, where its telling starts."""
        earlier = self.news_earlier
        pegs = earlier[-1].pegs if earlier else self.pegs_before
        return " ".join(str(peg) for peg in pegs)

    @property
    def your_move(self) -> bool:
        """Whether the game waits for the reader's decision (not only for the other's)."""
        return self.viewer is not None and self.viewer in self.awaiting

    @property
    def dealer_is_you(self) -> bool:
        return self.dealer == self.viewer

    @property
    def other(self) -> int:
        """The seat across the table from the reader (seat 1 for a spectator)."""
        return 1 - (self.viewer or 0)

    @property
    def computer_holds(self) -> int:
        """How many cards the player across the table holds (face down)."""
        return self.holds[self.other]

    @property
    def crib_backs(self) -> range:
        return range(self.crib_size)

    @property
    def computer_backs(self) -> range:
        return range(self.computer_holds)


def practice_table(
    *, practice: PracticeGame, match: Match | None = None, language: str | None = None
) -> TableView:
    """The table as the player sees it; ``match`` is the practice's live match, if at hand."""
    match = match or load_match(practice)
    seats = PRACTICE if match.game.seats == 2 else table_seats(match.game.seats, viewer=HUMAN)
    return table_view(
        match, viewer=HUMAN, news_from=practice.news_from, language=language, seats=seats
    )


def table_view(
    match: Match,
    *,
    viewer: int | None,
    news_from: int,
    seats: Seats = PRACTICE,
    language: str | None = None,
) -> TableView:
    """The current game of ``match`` as the reader in seat ``viewer`` sees it (None: a
    spectator): their own cards, the backs of everyone else's, and the news from the
    event ``news_from`` on, told as ``seats`` says."""
    game = match.game
    news_from = min(news_from, len(game.events))

    def told(index: int, event: Event) -> bool:  # the news, the line before it and the log
        return index >= news_from - 1 or logged(event)

    lines = narrate(game.events, language=language, told=told, seats=seats)
    news = [line for line in lines if line.index >= news_from]
    before = [line.pegs for line in lines if line.index == news_from - 1]
    winner = game.winner
    table = game.seating
    view = TableView(
        viewer=viewer,
        awaiting=game.awaiting,
        game_number=len(match.games),
        # A match's games won: a game of three or four, or to 61 or 91, is no match.
        wins=match.result.wins if match.two_to_121 else (0, 0),
        match_over=match.winner is not None,
        phase=game.phase.value,
        deal_number=game.deal_number,
        dealer=game.dealer,
        scores=game.scores,
        board=Board(game.scores, game.previous_scores, game.target),
        hand=[] if viewer is None else _hand(game, viewer),
        holds=tuple(len(game.hand(seat)) for seat in range(table.seats)),
        crib_size=table.from_pack
        + table.laid_away * sum(1 for seat in range(table.seats) if game.kept(seat)),
        starter=face(game.starter) if game.starter else None,
        count=game.count,
        sequence=[_laid(card, who, viewer, seats) for who, card in game.sequence],
        laid_before=[_laid(card, who, viewer, seats) for who, card in _laid_before(game)],
        showing=_showing(game),
        news=news,
        pegs_before=before[0] if before else start_pegs(table.sides),
        log=[line for line in lines if line.logged],
        winner=winner,
        skunk=_skunk(game),
        kept=faces(game.kept(viewer))
        if viewer is not None and game.phase is not Phase.DISCARD
        else [],
        crib=faces(game.crib) if game.phase is Phase.DONE else [],
        claimed=game.claimed,
        seats=table.seats,
        target=game.target,
        laid_away=table.laid_away,
    )
    if seats.many:
        _seat_the_table(view, game, seats)
    return view


def _laid(card: Card, seat: int, viewer: int | None, seats: Seats) -> Laid:
    return Laid(face(card), seat, seat == viewer, seats.name(seat) if seats.many else "")


def _seat_the_table(view: TableView, game: Game, seats: Seats) -> None:
    """Fill in a table of three or four: each other seat, from the reader's left, and
    each side's score, the reader's first."""
    view.seat_views = seat_views(game, seats, viewer=view.viewer)
    view.side_views = side_views(game, seats)
    view.dealer_name = seats.name(game.dealer)


def _skunk(game: Game) -> str | None:
    """The won game's skunk, as the engine called it (none in a game to 61 or 91)."""
    events = game.events
    if game.winner is None or not events or events[-1].type is not EventType.WIN:
        return None
    skunk = events[-1].skunk
    return None if skunk is None else str(skunk.value)


def _hand(game: Game, seat: int) -> list[HandCard]:
    cards = game.hand(seat)
    if game.phase is Phase.PLAY:
        legal = game.legal_plays(seat)
        first = legal[0] if legal else None
        return [HandCard(face(card), card in legal, card == first) for card in cards]
    return [HandCard(face(card), game.phase is Phase.DISCARD) for card in cards]


def _laid_before(game: Game) -> list[tuple[int, Any]]:
    """Cards laid in this deal's earlier sequences (before the count was last reset)."""
    played = game.played
    return list(played[: len(played) - len(game.sequence)])


def _showing(game: Game) -> tuple[str, list[CardFace]] | None:
    if game.showing is None:
        return None
    _player, what, cards = game.showing
    return what, faces(cards)


@dataclass(frozen=True)
class DiscardRow:
    cards: list[CardFace]
    hand: float
    crib: float
    total: float
    peg: float = 0.0  # the expert's estimate of what the kept cards bring in the play


@dataclass(frozen=True)
class HintView:
    """A hint as the page shows it: the discards best first, or the card to lay."""

    dealer: bool
    discard_rows: list[DiscardRow]
    best_play: CardFace | None

    @property
    def discards(self) -> bool:
        return bool(self.discard_rows)


def hint_view(hint: Hint) -> HintView:
    rows = [
        DiscardRow(
            faces(option.discard), option.hand_ev, option.crib_ev, option.total_ev, option.peg_ev
        )
        for option in hint.discards
    ]
    best = face(hint.best_play) if hint.best_play else None
    return HintView(dealer=hint.dealer, discard_rows=rows, best_play=best)
