"""Practice games against the computer: start one, take the player's decisions, clean up.

Terms: the *player* sits in seat 0 (``HUMAN``), the computer in seat 1
(``COMPUTER``); at a table of three or four a computer sits in every other seat, the one
across the table (seat 2) the player's partner with four. Every practice game is a
best-of-``best_of`` match of the engine
(``scoring.rules.match.Match``; best of 1 is a single game). A *decision* is what the
player posts: two cards laid away to the crib, a card laid in the play, the
points claimed for a hand they count themself, or starting the next game of a
match. After the player's decision the computer takes its own decisions until
the player's next one is due or the game is over, all in one transaction on
the locked row, so the page never waits for the computer. The rules are the
engine's: every decision goes through it and an illegal one changes nothing.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from django.contrib.auth.models import User
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from play.board import card_name
from play.errors import PlayError
from play.models import PracticeGame
from play.tasks import review_when_ended
from scoring.players.discarding import JUDGE_LEVEL, DiscardOption
from scoring.players.strategy import ComputerPlayer, discard_options, judge_play, play_computers
from scoring.rules.cards import Card
from scoring.rules.events import WINNING_SCORE, IllegalPlayError, Phase, Refusal
from scoring.rules.match import Match

HUMAN, COMPUTER = 0, 1
SEED_LIMIT = 2**48
HINT_LEVEL = JUDGE_LEVEL
"""The hint is the one judge's advice: the review's best and the expert computer's own
decision (``scoring.players.discarding.JUDGE_LEVEL``)."""


class Action(StrEnum):
    """The kinds of decision the player posts."""

    DISCARD = "discard"
    PLAY = "play"
    COUNT = "count"
    MUGGINS = "muggins"
    """Call muggins on the opponent's count (``points`` taken; 0: the count stands)."""
    NEXT = "next"
    """Start the next game of the match."""


@dataclass(frozen=True)
class Decision:
    """What the player decides: two ``cards`` to discard, one to play, ``points`` counted
    or taken by muggins."""

    action: Action
    cards: tuple[Card, ...] = ()
    points: int | None = None


def load_match(practice: PracticeGame) -> Match:
    """The engine's match of this row, replayed from the saved decisions once.

    The match is kept on the row object with the state it belongs to, and a
    decision saved here (``_save``) leaves the live match there: so a request
    that decides and then draws the page, the news, the board and the hint
    replays the game once. A row read afresh (or refreshed) is replayed again.
    Callers may read the match; only the services change it, and then save it.
    """
    kept: tuple[object, Match] | None = getattr(practice, _LIVE, None)
    if kept is not None and kept[0] is practice.state:
        return kept[1]
    match = Match.from_json(practice.state)
    _keep(practice, match)
    return match


def _keep(practice: PracticeGame, match: Match) -> None:
    setattr(practice, _LIVE, (practice.state, match))


_LIVE = "_live_match"


def computer_for(practice: PracticeGame) -> ComputerPlayer:
    return ComputerPlayer(practice.level, practice.seed)


def computer_moves(match: Match, computer: ComputerPlayer) -> None:
    """Let the computers decide until the game waits for the player (or is over)."""
    play_computers(match.game, dict.fromkeys(range(1, match.game.seats), computer))


COMPUTER_NAMES = {2: ("Computer",), 3: ("Left", "Right"), 4: ("Left", "Partner", "Right")}
"""The computers' names in a game's record, seat 1 on (the pages name the seats in the
reader's language, ``play.seating``)."""


@transaction.atomic
def practice_start(
    *,
    level: str,
    owner: User | None = None,
    session_key: str = "",
    best_of: int = 1,
    self_count: bool = False,
    muggins: bool = False,
    seed: int | None = None,
    seats: int = 2,
    target: int = WINNING_SCORE,
) -> PracticeGame:
    """Cut for deal, deal, and let the computers lay away; the game then waits for the player.

    ``seats`` 3 or 4 (with four the player and the computer across the table are partners)
    and ``target`` 61 or 91 make a single game (``best_of`` 1) without muggins: the engine
    refuses anything else (``ValueError``; the start form says so first).
    """
    if owner is None and not session_key:
        raise ValueError("a practice game belongs to a member or to a guest's session")
    if seed is None:
        seed = random.SystemRandom().randrange(SEED_LIMIT)
    name = owner.get_username() if owner is not None else "Guest"
    match = Match.new(
        seed=seed,
        best_of=best_of,
        players=(name, *COMPUTER_NAMES[seats]),
        self_count=frozenset({HUMAN}) if self_count or muggins else frozenset(),
        muggins=muggins,
        seats=seats,
        target=target,
    )
    practice = PracticeGame(
        owner=owner,
        session_key="" if owner is not None else session_key,
        level=level,
        best_of=best_of,
        seats=seats,
        target=target,
        seed=seed,
        self_count=self_count or muggins,
        muggins=muggins,
        state={},
    )
    computer_moves(match, computer_for(practice))
    _save(practice, match, news_from=0)
    return practice


@transaction.atomic
def practice_decide(
    *,
    pk: int,
    version: int,
    decision: Decision,
    games: QuerySet[PracticeGame] | None = None,
) -> PracticeGame:
    """Take the player's decision and the computer's answers; refuse a stale or illegal one.

    The game is read once, locked, from ``games`` (the rows the caller may play;
    all by default): another ``pk`` raises ``PracticeGame.DoesNotExist``. Raises
    ``PlayError`` with a message for the player; then nothing changes.
    """
    rows = PracticeGame.objects.all() if games is None else games
    locked = rows.select_for_update().get(pk=pk)
    if locked.version != version:
        raise PlayError(
            _(
                "That move was already made, or this page is out of date (another tab?). "
                "Here is the game as it stands now."
            ),
            code="stale",
        )
    match = load_match(locked)
    news_from = 0 if decision.action is Action.NEXT else len(match.game.events)
    take(match, decision)
    computer_moves(match, computer_for(locked))
    locked.version += 1
    _save(locked, match, news_from=news_from)
    return locked


def _save(practice: PracticeGame, match: Match, *, news_from: int) -> None:
    practice.state = match.to_json()
    practice.news_from = news_from
    winner = match.winner if match.game.phase is Phase.DONE else None
    ended = winner is not None and not practice.finished
    if winner is not None:
        practice.finished, practice.winner, practice.record = True, winner, match.record()
    if practice.pk is None:
        practice.full_clean()
    else:
        # The owner and the constraints were checked when the game was started, and
        # the database checks the constraints again on every save: a decision
        # spares their dozen queries.
        practice.full_clean(exclude={"owner"}, validate_constraints=False)
    practice.save()
    _keep(practice, match)
    if ended:
        review_when_ended(practice)


def take(match: Match, decision: Decision, *, seat: int = HUMAN, opponent: str = "") -> None:
    """Take ``seat``'s decision through the engine; a refusal is a ``PlayError``.

    ``opponent`` names the other player in the messages (empty: the computer).
    """
    if decision.action is Action.NEXT:
        _next_game(match)
        return
    game = match.game
    try:
        if decision.action is Action.DISCARD:
            game.discard(seat, decision.cards)
        elif decision.action is Action.PLAY:
            (card,) = decision.cards
            game.play(seat, card)
        elif decision.action is Action.MUGGINS:
            game.call_muggins(seat, decision.points)
        else:
            game.count_hand(seat, decision.points)
    except IllegalPlayError as error:
        one = game.seating.laid_away == 1
        message = refusal_message(error, opponent=opponent, one_card=one)
        raise PlayError(message, code=error.reason.value) from error


def _next_game(match: Match) -> None:
    if match.game.phase is not Phase.DONE:
        raise PlayError(_("Finish this game first."), code="not_over")
    if match.best_of == 1 or match.winner is not None:
        raise PlayError(_("The match is over; start a new one."), code="match_over")
    match.next_game()


def refusal_message(error: IllegalPlayError, *, opponent: str = "", one_card: bool = False) -> str:
    """Why the engine refused the player's decision, in the reader's language (one table).

    ``opponent`` is the other player's name in a game between members (empty: the computer);
    ``one_card``: each lays away one card (three or four at the table).
    """
    card = card_name(error.card) if error.card is not None else ""
    phase = error.phase
    messages: dict[Refusal, Callable[[], str]] = {
        Refusal.GAME_OVER: lambda: _("This game is over."),
        Refusal.NO_SUCH_PLAYER: lambda: _("There is no such player in this game."),
        Refusal.WRONG_PHASE: lambda: (
            _("It is time to lay away a card to the crib.")
            if one_card and phase is Phase.DISCARD
            else _WAITING_FOR[phase]()
            if phase in _WAITING_FOR
            else ""
        ),
        Refusal.ALREADY_DISCARDED: lambda: (
            _("You have already laid away your card.")
            if one_card
            else _("You have already laid away your two cards.")
        ),
        Refusal.NOT_ONE_CARD: lambda: _("Choose exactly one card for the crib."),
        Refusal.NOT_YOUR_TURN: lambda: (
            _("Wait for %(name)s to play.") % {"name": opponent}
            if opponent
            else _("It is the computer's turn.")
        ),
        Refusal.NOT_HELD: lambda: _("%(card)s is not in your hand.") % {"card": card},
        Refusal.NOT_TWO_CARDS: lambda: _("Choose exactly two cards for the crib."),
        Refusal.PAST_31: lambda: _("%(card)s would take the count past 31.") % {"card": card},
        Refusal.NOT_A_COUNT: lambda: _("Enter the points you count."),
        Refusal.MORE_THAN_WORTH: lambda: _(
            "That is more than it is worth: count again, fifteens, pairs, runs, flush and nobs."
        ),
        Refusal.MORE_THAN_MISSED: lambda: (  # only between members: the computer never calls
            _("%(name)s did not miss that many points: count again, or let the count stand.")
            % {"name": opponent}
        ),
    }
    return messages[error.reason]()


_WAITING_FOR = {
    Phase.DISCARD: lambda: _("It is time to lay away two cards to the crib."),
    Phase.PLAY: lambda: _("It is time to play a card."),
    Phase.COUNT: lambda: _("It is time to count your hand."),
    Phase.MUGGINS: lambda: _("The count just shown is being checked for muggins."),
    Phase.DONE: lambda: _("This game is over."),
}
"""What the game waits for, said to a player whose decision came at the wrong time."""


def stand_in_decision(match: Match, stand_in: ComputerPlayer, seat: int = HUMAN) -> Decision:
    """The decision a computer would take in ``seat`` (the player's: demo games and tests)."""
    game = match.game
    if game.phase is Phase.DONE:
        return Decision(Action.NEXT)
    if game.phase is Phase.DISCARD:
        return Decision(Action.DISCARD, stand_in.choose_discard(game, seat))
    if game.phase is Phase.PLAY:
        return Decision(Action.PLAY, (stand_in.choose_play(game, seat),))
    if game.phase is Phase.MUGGINS:  # a computer finds every point missed
        return Decision(Action.MUGGINS, points=game.missed)
    worth = game.showing_score
    assert worth is not None
    return Decision(Action.COUNT, points=worth.total)


@transaction.atomic
def practice_autoplay(*, practice: PracticeGame, level: str = "standard") -> PracticeGame:
    """Play the player's seat by a computer of ``level`` until the match is over.

    Each decision goes through the same checks as the player's; the row is saved once.
    """
    locked = PracticeGame.objects.select_for_update().get(pk=practice.pk)
    match = load_match(locked)
    stand_in, computer = ComputerPlayer(level, locked.seed + 1), computer_for(locked)
    # The player's seat is played by the stand-in; every other by the game's computer.
    news_from = locked.news_from
    while match.game.phase is not Phase.DONE or match.winner is None:
        decision = stand_in_decision(match, stand_in)
        news_from = 0 if decision.action is Action.NEXT else len(match.game.events)
        take(match, decision)
        computer_moves(match, computer)
        locked.version += 1
    _save(locked, match, news_from=news_from)
    return locked


@dataclass(frozen=True)
class Hint:
    """What the expert would do now: every discard with its expected value, or the card to lay.

    ``dealer``: the crib is the player's side's (their own, or with four their partner's)."""

    discards: tuple[DiscardOption, ...] = ()
    dealer: bool = False
    best_play: Card | None = None


def practice_hint(*, practice: PracticeGame, match: Match | None = None) -> Hint:
    """The expected value of every discard (hand, crib, total), or the best card to lay now.

    ``match`` is the practice's live match when the caller has it already.
    """
    game = (match or load_match(practice)).game
    if game.phase is Phase.DISCARD and HUMAN in game.awaiting:
        dealer = game.side_of(game.dealer) == game.side_of(HUMAN)
        options = discard_options(game, HUMAN, level=HINT_LEVEL)
        return Hint(discards=tuple(options), dealer=dealer)
    if game.phase is Phase.PLAY and game.to_move == HUMAN:
        # The one judge's reckoning of the position (seeded by the position alone): the
        # card the review calls best and the expert would lay (docs/review.md), at any table.
        return Hint(best_play=judge_play(game, HUMAN).best)
    return Hint()


def practice_cleanup(*, days: int = 7, now: datetime.datetime | None = None) -> int:
    """Delete guests' games not touched for ``days`` days (1 or more); return how many went.

    Raises ``ValueError`` for fewer days: 0 would take the games guests are playing now.
    """
    if days < 1:
        raise ValueError(
            f"the number of days must be 1 or more, not {days}: "
            "0 would delete the games guests are playing now"
        )
    cutoff = (now or timezone.now()) - datetime.timedelta(days=days)
    abandoned = PracticeGame.objects.filter(owner__isnull=True, updated__lt=cutoff)
    deleted, _by_model = abandoned.delete()
    return deleted


def guest_remember(session: SessionBase, practice: PracticeGame, *, keep: int = 30) -> None:
    """Keep a guest's game id in their session (the newest ``keep`` games)."""
    ids = [pk for pk in session.get(SESSION_GAMES, []) if pk != practice.pk]
    session[SESSION_GAMES] = [practice.pk, *ids][:keep]


SESSION_GAMES = "practice_games"
FOUR_COLOURS = "four_colour_deck"
"""The reader's deck in their session: four colours (each suit its own) or two."""
