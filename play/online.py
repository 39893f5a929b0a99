"""Games between members: challenges, the game's decisions, resigning and claiming.

Terms: a *challenge* is a member's invitation to play, to one member or open in
the lobby; accepting it starts an *online game*, a best-of-``best_of`` match of the
engine (``scoring.rules.match.Match``) between the two, the challenger in seat 0.
The cut for first deal, loser deals next, skunks and every rule are the engine's;
a decision is taken as in a practice game (``play.services.take``) but from the
seat of the member who posts it, and nobody moves for them. A member *resigns*
the match; they may *claim* it when the game has waited for the other player
alone for ``CLAIM_AFTER``. Each write is one transaction on the locked row.

A *rated* match (docs/rating.md) counts on the rating list only once both players have
*taken part* (``took_part``: the first game's first hand has been counted); then it
counts however it ends: played out, resigned (a loss for who resigned) or claimed (a
loss for who stopped answering). Between the same two members at most
``RATED_A_MONTH`` rated matches count in a month (a rating period): a further rated
challenge between them that month is refused (``rated_refusal``).
"""

from __future__ import annotations

import datetime
import random
import threading
from collections import OrderedDict
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from club.names import member_name
from core.errors import full_clean
from play import championship, push
from play.errors import PlayError
from play.models import Challenge, OnlineGame
from play.rated import RATED_A_MONTH, month_of
from play.services import SEED_LIMIT, Decision, take
from play.signals import rated_match_ended
from play.tasks import review_when_ended
from scoring.players.strategy import ComputerPlayer, play_computers
from scoring.rules.events import WINNING_SCORE, EventType, Phase
from scoring.rules.match import Match
from tournaments.models import Match as TournamentMatch

CLAIM_AFTER = datetime.timedelta(hours=72)
OPEN_CHALLENGES = 10
"""Challenges a member may have open at once: enough for a club evening, not a flood."""


@transaction.atomic
def challenge_create(
    *,
    challenger: User,
    challenged: User | None = None,
    best_of: int = 1,
    self_count: bool = False,
    muggins: bool = False,
    rated: bool = False,
    seats: int = 2,
    target: int = WINNING_SCORE,
    level: str = "standard",
) -> Challenge:
    """A challenge to ``challenged``, or an open one (None). Refusals are ``PlayError``.

    A ``rated`` match is played by the club's rules: the engine counts every hand. A
    challenge for ``seats`` three or four is a table, open in the lobby (``play.tables``):
    one game to ``target``, never rated, no muggins; the computer plays at ``level`` the
    seats no member takes. A game to 61 or 91 is one game, never rated.
    """
    if rated and (self_count or muggins):
        raise PlayError(
            _("A rated match is played by the club's rules: the site counts every hand."),
            code="rated_rules",
        )
    _refuse_for_a_table(seats, challenged=challenged, best_of=best_of, muggins=muggins, rated=rated)
    if target != WINNING_SCORE and (best_of > 1 or rated):
        raise PlayError(
            _("A game to 61 or 91 is one game, never rated: a match or a rated game is to 121."),
            code="short",
        )
    if challenged is not None and challenged.pk == challenger.pk:
        raise PlayError(_("You cannot challenge yourself."), code="yourself")
    if challenged is not None and not challenged.is_active:
        raise PlayError(_("That member cannot play now."), code="inactive")
    _refuse_rated(rated, challenger, challenged)
    mine = Challenge.objects.select_for_update().filter(
        challenger=challenger, status=Challenge.Status.OPEN
    )
    if challenged is not None and mine.filter(challenged=challenged).exists():
        raise PlayError(
            _("You have already challenged %(name)s.") % {"name": member_name(challenged)},
            code="again",
        )
    if len(mine) >= OPEN_CHALLENGES:
        raise PlayError(
            _("You have %(count)s open challenges: withdraw one first.")
            % {"count": OPEN_CHALLENGES},
            code="too_many",
        )
    challenge = Challenge(
        challenger=challenger,
        challenged=challenged,
        seats=seats,
        target=target,
        level=level,
        best_of=best_of,
        self_count=self_count or muggins,
        muggins=muggins,
        rated=rated,
    )
    full_clean(challenge, PlayError)
    challenge.save()
    return challenge


def _refuse_for_a_table(
    seats: int, *, challenged: User | None, best_of: int, muggins: bool, rated: bool
) -> None:
    """Refuse what a table of three or four is not (docs/rules.md §7)."""
    if seats not in (2, 3, 4):
        raise PlayError(_("A table has two, three or four players."), code="seats")
    if seats == 2:
        return
    if challenged is not None:
        raise PlayError(
            _("A table of three or four is open in the lobby: members choose their seats."),
            code="table_open",
        )
    if best_of > 1 or rated or muggins:
        raise PlayError(
            _(
                "A table of three or four plays one game, never rated and without muggins: "
                "a match, a rated game and muggins are for two."
            ),
            code="table_game",
        )


@transaction.atomic
def challenge_accept(*, pk: int, member: User, seed: int | None = None) -> OnlineGame:
    """Start the game of an open challenge to ``member`` (or to anyone).

    A challenge to someone else raises ``Challenge.DoesNotExist``.
    """
    challenge = Challenge.objects.select_for_update().select_related("challenger").get(pk=pk)
    if challenge.challenged_id not in (None, member.pk):
        raise Challenge.DoesNotExist
    if challenge.challenger_id == member.pk:
        raise PlayError(_("You cannot accept your own challenge."), code="own")
    if challenge.status != Challenge.Status.OPEN:
        raise PlayError(_("This challenge is no longer open."), code="closed")
    if challenge.is_table:
        raise PlayError(_("Choose a free seat at the table to sit down."), code="table")
    _refuse_rated(challenge.rated, member, challenge.challenger)
    players = (challenge.challenger, member)
    if challenge.match is not None:  # a tournament match: its seats, and marked as online
        players = championship.match_start(match=challenge.match, member=member)
    game = online_start(
        players=players,
        best_of=challenge.best_of,
        self_count=challenge.self_count,
        muggins=challenge.muggins,
        rated=challenge.rated,
        seed=seed,
        tournament_match=challenge.match,
        target=challenge.target,
    )
    challenge.challenged = member
    challenge.status = Challenge.Status.ACCEPTED
    challenge.game = game
    challenge.save(update_fields=["challenged", "status", "game"])
    return game


@transaction.atomic
def challenge_close(*, pk: int, member: User) -> Challenge:
    """The challenger withdraws an open challenge, or the challenged member declines it."""
    challenge = (
        Challenge.objects.select_for_update(of=("self",)).select_related("match__round").get(pk=pk)
    )
    if member.pk == challenge.challenger_id:
        status = Challenge.Status.WITHDRAWN
    elif member.pk == challenge.challenged_id:
        status = Challenge.Status.DECLINED
    else:
        raise Challenge.DoesNotExist
    if challenge.status != Challenge.Status.OPEN:
        raise PlayError(_("This challenge is no longer open."), code="closed")
    challenge.status = status
    challenge.save(update_fields=["status"])
    championship.proposal_changed(challenge)
    return challenge


def rated_this_month(first: User, second: User) -> int:
    """The rated matches between ``first`` and ``second`` that count, or may yet count, in
    this month: those that ended in it once both had taken part, and those in play."""
    return rated_this_month_with(first, [second])[second.pk]


def rated_this_month_with(member: User, others: Collection[User]) -> dict[int, int]:
    """``rated_this_month`` between ``member`` and each of ``others``, by their id, in one
    query (the lobby's rated challenges)."""
    ids = [other.pk for other in others]
    since = _month_start(month_of(timezone.now()))
    counting = OnlineGame.objects.filter(
        Q(seat_0=member, seat_1__in=ids) | Q(seat_0__in=ids, seat_1=member),
        Q(finished=False) | Q(finished=True, both_played=True, last_move__gte=since),
        rated=True,
        match__isnull=True,
    )
    counts = dict.fromkeys(ids, 0)
    for seat_0, seat_1 in counting.values_list("seat_0_id", "seat_1_id"):
        counts[seat_1 if seat_0 == member.pk else seat_0] += 1
    return counts


def _month_start(month: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(month, datetime.time()))


def rated_refusal(first: User, second: User | None) -> str | None:
    """Why a rated match between ``first`` and ``second`` would not count this month."""
    if second is None:
        return None
    return refusal_after(second, rated_this_month(first, second))


def refusal_after(other: User, rated: int) -> str | None:
    """``rated_refusal`` with ``other`` once ``rated`` matches with them count this month."""
    if rated < RATED_A_MONTH:
        return None
    return _(
        "You and %(name)s have %(count)s rated matches this month, as many as count in one "
        "rating period: a further one would not be rated. Play it unrated, or next month."
    ) % {"name": member_name(other), "count": RATED_A_MONTH}


def _refuse_rated(rated: bool, member: User, other: User | None) -> None:
    refusal = rated_refusal(member, other) if rated else None
    if refusal:
        raise PlayError(refusal, code="rated_limit")


def online_start(
    *,
    players: Sequence[User | None],
    best_of: int = 1,
    self_count: bool = False,
    muggins: bool = False,
    rated: bool = False,
    seed: int | None = None,
    tournament_match: TournamentMatch | None = None,
    target: int = WINNING_SCORE,
    level: str = "",
) -> OnlineGame:
    """A new game between ``players`` (seat 0 first), of ``tournament_match`` if any: the
    engine cuts for the first deal.

    Three or four ``players`` make a table (``play.tables``): a None is a seat the computer
    plays at ``level``, and the computers lay away at once. Who counts their own hand
    (``self_count``) is every member's seat.
    """
    if seed is None:
        seed = random.SystemRandom().randrange(SEED_LIMIT)
    counting = self_count or muggins
    members = frozenset(seat for seat, member in enumerate(players) if member is not None)
    computers = tuple(seat for seat in range(len(players)) if seat not in members)
    match = Match.new(
        seed=seed,
        best_of=best_of,
        players=engine_names(players),
        self_count=members if counting else frozenset(),
        muggins=muggins,
        callers=members if muggins else frozenset(),  # each calls muggins themself
        seats=len(players),
        target=target,
    )
    seat_0, seat_1, seat_2, seat_3 = (*players, None, None)[:4]
    assert seat_0 is not None, "the challenger sits in seat 0"
    game = OnlineGame(
        seat_0=seat_0,
        seat_1=seat_1,
        seat_2=seat_2,
        seat_3=seat_3,
        player_0=getattr(seat_0, "player", None),
        player_1=getattr(seat_1, "player", None),
        best_of=best_of,
        seats=len(players),
        target=target,
        level=level if len(players) > 2 else "",
        computers="".join(str(seat) for seat in computers),
        self_count=counting,
        muggins=muggins,
        rated=rated,
        seed=seed,
        state={},
        last_move=timezone.now(),
        match=tournament_match,
    )
    play_computers(match.game, computers_of(game))
    game.state = match.to_json()
    game.awaiting = _awaiting(match)
    game.full_clean()
    game.save()
    _keep(game, match)
    return game


def engine_names(players: Sequence[User | None]) -> tuple[str, ...]:
    """The names a game's record keeps: each member's, and "Computer" (numbered when the
    computer plays more than one seat) for a seat no member took."""
    free = [seat for seat, member in enumerate(players) if member is None]
    return tuple(
        member_name(member)
        if member is not None
        else "Computer"
        if len(free) == 1
        else f"Computer {free.index(seat) + 1}"
        for seat, member in enumerate(players)
    )


def computers_of(game: OnlineGame) -> dict[int, ComputerPlayer]:
    """The computer of every seat it plays at a table (none between two members)."""
    if not game.computers:
        return {}
    computer = ComputerPlayer(game.level, game.seed)
    return {int(seat): computer for seat in game.computers}


KEPT_GAMES = 64
"""Matches a thread keeps loaded (``settings.ONLINE_KEPT_GAMES``; 0: replay every time)."""


class _Kept(threading.local):
    """The matches this thread loaded lately: game pk -> (version, match), the latest last.

    Per thread, so no two requests share a match that one of them changes."""

    def __init__(self) -> None:
        self.matches: OrderedDict[int, tuple[int, Match]] = OrderedDict()


_KEPT = _Kept()


def load_online(game: OnlineGame) -> Match:
    """The engine's match of the row, the caller's own to change: taken from those this
    thread keeps, or replayed.

    Replaying a match from its decisions costs more at each deal (docs/benchmarks.md,
    "One move, one replay"). So the match is kept in this thread after each save and each
    read (``read_online``), with the version of the row it was loaded at. A later request
    takes it back when it is the same game, or one it was a part of (it then takes only
    the decisions saved since, by other workers); it is used only if it then saves exactly
    as the row (``to_json() == state``), so a match kept from a move rolled back, or from
    another database, is replayed instead. A match taken is no longer kept: two loads never
    share one match, and what the caller changes it saves (``_save`` keeps it again) or
    drops.
    """
    kept = _KEPT.matches.pop(game.pk, None)
    if kept is not None and kept[0] <= game.version:  # never one ahead of the row
        match = _caught_up(kept[1], game.state)
        if match is not None:
            return match
    return Match.from_json(game.state)


def read_online(game: OnlineGame) -> Match:
    """The engine's match of the row, to read and not to change: it stays kept for the
    next request (a poll, the page drawn after a move)."""
    match = load_online(game)
    _keep(game, match)
    return match


def forget_online() -> None:
    """Drop every match this thread keeps (the benchmark's cold start; tests)."""
    _KEPT.matches.clear()


def _keep(game: OnlineGame, match: Match) -> None:
    limit = getattr(settings, "ONLINE_KEPT_GAMES", KEPT_GAMES)
    if limit <= 0:
        return
    _KEPT.matches[game.pk] = (game.version, match)
    while len(_KEPT.matches) > limit:
        _KEPT.matches.popitem(last=False)


def _caught_up(match: Match, state: Mapping[str, Any]) -> Match | None:
    """``match`` brought up to the saved ``state`` by the decisions taken since, or None
    when ``state`` is not where ``match`` leads (another game, a move rolled back)."""
    have = match.to_json()
    if have == state:
        return match
    saved = state["games"]
    if have["seed"] != state["seed"] or len(have["games"]) > len(saved):
        return None
    try:
        for number, game in enumerate(saved):
            if number == len(match.games):
                match.next_game()
            taken = have["games"][number]["decisions"] if number < len(have["games"]) else []
            decisions = game["decisions"]
            if decisions[: len(taken)] != taken:
                return None
            for decision in decisions[len(taken) :]:
                match.games[number].apply(decision)
    except ValueError:  # the engine refused: not this match's next decision
        return None
    return match if match.to_json() == state else None


def locked_seat(pk: int, member: User) -> tuple[OnlineGame, int]:
    """The game, locked, and ``member``'s seat; anyone else's raises ``DoesNotExist``."""
    game = OnlineGame.objects.select_for_update().get(pk=pk)
    seat = game.seat_of(member.pk)
    if seat is None:
        raise OnlineGame.DoesNotExist
    if game.ended == OnlineGame.Ended.ORGANISER:
        raise PlayError(
            _("The organiser has entered the result of this match: the game is over."),
            code="organiser",
        )
    if game.finished:
        raise PlayError(_("This game is over."), code="over")
    return game, seat


@transaction.atomic
def online_decide(*, pk: int, member: User, moves: int, decision: Decision) -> OnlineGame:
    """Take ``member``'s decision in their seat; refuse a stale, doubled or illegal one.

    ``moves`` is the count of the member's own decisions their page was drawn at.
    Raises ``PlayError`` with a message for the member; then nothing changes.
    """
    game, seat = locked_seat(pk, member)
    if game.moves_of(seat) != moves:
        raise PlayError(
            _(
                "That move was already made, or this page is out of date (another tab?). "
                "Here is the game as it stands now."
            ),
            code="stale",
        )
    match = load_online(game)
    take(match, decision, seat=seat, opponent=_awaited_name(match, seat))
    play_computers(match.game, computers_of(game))
    game.both_played = game.both_played or took_part(match)
    game.count_move(seat)
    played_on(game, match)
    return game


def played_on(game: OnlineGame, match: Match) -> None:
    """Save ``game`` after its latest decisions, ended if its match has been played out."""
    if match.game.phase is Phase.DONE and match.winner is not None:
        game.finished, game.ended, game.winner = True, OnlineGame.Ended.PLAYED, match.winner
        game.record = match.record()
        if game.match is not None:
            championship.record_match(game, match)
    _save(game, match)
    if game.finished and game.rated:
        _announce(game)


@transaction.atomic
def online_resign(*, pk: int, member: User) -> OnlineGame:
    """``member`` gives up the match: the other player wins it. At a table of three or four
    a member leaves instead (``play.tables.table_leave``)."""
    game, seat = locked_seat(pk, member)
    _refuse_at_a_table(game)
    match = load_online(game)
    _end(game, match, winner=1 - seat, ended=OnlineGame.Ended.RESIGNED)
    if game.match is not None:
        championship.stop_match(game, match, member, resigned=True)
    return game


@transaction.atomic
def online_claim(*, pk: int, member: User, now: datetime.datetime | None = None) -> OnlineGame:
    """``member`` wins a match the other player has left waiting for ``CLAIM_AFTER``. At a
    table the computer takes over the seat instead (``play.tables.table_hand_over``)."""
    game, seat = locked_seat(pk, member)
    _refuse_at_a_table(game)
    match = load_online(game)
    if not waits_for_other(match, seat):
        raise PlayError(
            _("The game is waiting for you, not for %(name)s.") % {"name": match.players[1 - seat]},
            code="your_move",
        )
    claimable = game.last_move + CLAIM_AFTER
    if (now or timezone.now()) < claimable:
        raise PlayError(
            _("You may claim the game if %(name)s has not moved by %(time)s.")
            % {
                "name": match.players[1 - seat],
                "time": formats.date_format(timezone.localtime(claimable), "DATETIME_FORMAT"),
            },
            code="too_early",
        )
    _end(game, match, winner=seat, ended=OnlineGame.Ended.CLAIMED)
    if game.match is not None:
        championship.stop_match(game, match, member, resigned=False)
    return game


def _refuse_at_a_table(game: OnlineGame) -> None:
    if game.is_table:
        raise PlayError(
            _(
                "Nobody resigns or claims at a table of three or four: whoever leaves it, the "
                "computer plays their seat."
            ),
            code="table",
        )


def online_end_for_result(*, tournament_match: TournamentMatch) -> OnlineGame | None:
    """An organiser entered the result of ``tournament_match`` while its game is played
    here: the game ends now, won by the result's winner, and takes no more moves.

    Called once the organiser's result is saved (``play.receivers``); None when the match
    has no game going on.
    """
    game = (
        OnlineGame.objects.select_for_update()
        .filter(match=tournament_match, finished=False)
        .first()
    )
    if game is None:
        return None
    assert tournament_match.winner is not None  # a result entered is decided
    _end(game, load_online(game), winner=tournament_match.winner, ended=OnlineGame.Ended.ORGANISER)
    return game


def _awaited_name(match: Match, seat: int) -> str:
    """Whom a decision out of turn waits for: the other of two, or at a table the seat to
    move."""
    if match.game.seats == 2:
        return str(match.players[1 - seat])
    to_move = match.game.to_move
    return str(match.players[to_move]) if to_move is not None else ""


def took_part(match: Match) -> bool:
    """Whether both players have taken part: the first game's first show has been made
    (docs/rating.md: a resignation before it is not rated). Both have then laid away and
    played their cards."""
    first = match.games[0]
    return len(match.games) > 1 or any(event.type is EventType.SHOW for event in first.events)


def waits_for_other(match: Match, seat: int) -> bool:
    """Whether the game waits for the other player's decision (at a table, another's) and
    not for ``seat``'s."""
    game = match.game
    if game.phase is Phase.DONE:
        return False  # the next game: either player may start it
    return seat not in game.awaiting and bool(game.awaiting)


def _awaiting(match: Match) -> str:
    return "".join(str(seat) for seat in sorted(match.game.awaiting))


def _end(game: OnlineGame, match: Match, *, winner: int, ended: str) -> None:
    game.finished, game.ended, game.winner = True, ended, winner
    game.record = {**match.record(), "winner": winner, "ended": ended}
    _save(game, match)
    if game.rated:  # counted if both took part: a loss for who resigned or stopped answering
        _announce(game)


def _announce(game: OnlineGame) -> None:
    """Announce a rated match's end (``signals.rated_match_ended``): the rating list rates
    its month again (``ratings`` listens; whether it counts is the list's to say)."""
    rated_match_ended.announce(month=month_of(game.last_move).isoformat())


def _save(game: OnlineGame, match: Match) -> None:
    game.state = match.to_json()
    game.awaiting = "" if game.finished else _awaiting(match)
    game.version += 1
    game.last_move = timezone.now()
    # The state and the record are the engine's own JSON: validating them would encode
    # the whole match once more, at every move.
    game.full_clean(
        exclude={"seat_0", "seat_1", "seat_2", "seat_3", "state", "record"},
        validate_constraints=False,
    )
    game.save()
    _keep(game, match)  # the page drawn next, and the next move, start from it
    push.publish_on_commit(game.pk, game.version)  # the other pages fetch it at once
    if game.finished:  # the last change a game takes: it has just ended
        review_when_ended(game)
