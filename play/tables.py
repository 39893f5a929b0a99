"""Tables of three or four members: sitting down, beginning the game, leaving it.

Terms (docs/rules.md §7.5): a *table* is a challenge for ``seats`` three or
four (``play.online.challenge_create``), open in the lobby. The challenger sits in seat 0;
other members *sit down* in its free seats (seats are numbered clockwise: with four, seat
2 is the challenger's partner) and may *stand up* again until the game begins. The game
*begins* when the last seat is taken, or when the challenger begins it with at least one
other member seated: the computer, at the table's level, plays the seats still free. In
play, a member who *leaves* gives their seat to the computer, and the game goes on; a
member the game has waited on for ``CLAIM_AFTER`` may be *handed over* to the computer by
any other member at the table. Nobody resigns or claims a table's game: it is one game,
never rated, always played to its end (when the last member leaves, the computers finish
it at once). Each write is one transaction on the locked row.
"""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from club.names import member_name
from core.errors import full_clean
from play.errors import PlayError
from play.models import Challenge, ChallengeSeat, OnlineGame, PracticeGame
from play.online import (
    CLAIM_AFTER,
    computers_of,
    load_online,
    locked_seat,
    online_start,
    played_on,
    waits_for_other,
)
from scoring.players.strategy import play_computers
from scoring.rules.match import Match


def _open_table(pk: int) -> Challenge:
    """The table challenge ``pk``, locked; ``DoesNotExist`` for anything but a table."""
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger__player")
        .get(pk=pk, seats__in=(3, 4))
    )
    if challenge.status != Challenge.Status.OPEN:
        raise PlayError(_("This table is no longer open."), code="closed")
    return challenge


@transaction.atomic
def table_sit(*, pk: int, member: User, seat: int, seed: int | None = None) -> OnlineGame | None:
    """``member`` sits down in the free ``seat`` of the table ``pk``; the game, if that was
    the last free seat (it begins), else None."""
    challenge = _open_table(pk)
    if member.pk == challenge.challenger_id:
        raise PlayError(_("You sit at this table already: it is yours."), code="own")
    if not member.is_active:
        raise PlayError(_("That member cannot play now."), code="inactive")
    if seat not in range(1, challenge.seats):
        raise PlayError(_("This table has no such seat."), code="no_seat")
    sitting = list(challenge.sitting.all())
    if any(taken.member_id == member.pk for taken in sitting):
        raise PlayError(_("You already sit at this table."), code="again")
    if any(taken.seat == seat for taken in sitting):
        raise PlayError(
            _("That seat has just been taken: choose another, if one is free."), code="taken"
        )
    sat = ChallengeSeat(challenge=challenge, seat=seat, member=member)
    full_clean(sat, PlayError)
    sat.save()
    if len(sitting) + 1 == challenge.seats - 1:
        return _begin(challenge, seed=seed)
    return None


@transaction.atomic
def table_stand(*, pk: int, member: User) -> Challenge:
    """``member`` stands up from the seat they took at the table ``pk`` before it began."""
    challenge = _open_table(pk)
    deleted, _by_model = challenge.sitting.filter(member=member).delete()
    if not deleted:
        raise PlayError(_("You do not sit at this table."), code="not_seated")
    return challenge


@transaction.atomic
def table_begin(*, pk: int, member: User, seed: int | None = None) -> OnlineGame:
    """The challenger begins the game of their table ``pk``: the computer takes the seats
    still free. Another member's post raises ``Challenge.DoesNotExist``."""
    challenge = _open_table(pk)
    if member.pk != challenge.challenger_id:
        raise Challenge.DoesNotExist
    if not challenge.sitting.exists():
        raise PlayError(
            _(
                "No other member sits at your table yet: wait for one, or play a practice "
                "game against the computer."
            ),
            code="alone",
        )
    return _begin(challenge, seed=seed)


def _begin(challenge: Challenge, *, seed: int | None) -> OnlineGame:
    members: list[User | None] = [challenge.challenger, *([None] * (challenge.seats - 1))]
    for taken in challenge.sitting.select_related("member__player"):
        members[taken.seat] = taken.member
    game = online_start(
        players=members,
        self_count=challenge.self_count,
        seed=seed,
        target=challenge.target,
        level=challenge.level,
    )
    challenge.status = Challenge.Status.ACCEPTED
    challenge.game = game
    challenge.save(update_fields=["status", "game"])
    return game


@transaction.atomic
def table_leave(*, pk: int, member: User) -> OnlineGame:
    """``member`` leaves the table's game: the computer plays their seat from now on."""
    game, seat = locked_seat(pk, member)
    _refuse_unless_a_table(game)
    match = load_online(game)
    _hand_to_computer(game, match, {seat})
    return game


@transaction.atomic
def table_hand_over(*, pk: int, member: User, now: datetime.datetime | None = None) -> OnlineGame:
    """``member`` gives the computer the seats the game has waited on for ``CLAIM_AFTER``
    (every member whose decision is due, none of them ``member``)."""
    game, seat = locked_seat(pk, member)
    _refuse_unless_a_table(game)
    match = load_online(game)
    awaited = set(match.game.awaiting)
    names = " · ".join(str(match.players[other]) for other in sorted(awaited))
    if not waits_for_other(match, seat):
        raise PlayError(_("The game is waiting for you."), code="your_move")
    due = game.last_move + CLAIM_AFTER
    if (now or timezone.now()) < due:
        raise PlayError(
            _("If %(names)s has not moved by %(time)s, the computer may play for them.")
            % {
                "names": names,
                "time": formats.date_format(timezone.localtime(due), "DATETIME_FORMAT"),
            },
            code="too_early",
        )
    _hand_to_computer(game, match, awaited)
    return game


def _refuse_unless_a_table(game: OnlineGame) -> None:
    if not game.is_table:
        raise PlayError(_("Only a table of three or four can be left to the computer."))


def _hand_to_computer(game: OnlineGame, match: Match, seats: set[int]) -> None:
    """The computer takes ``seats`` and plays on until a member's decision is due (to the
    end, when no member is left at the table)."""
    game.computers = "".join(sorted({*game.computers, *(str(seat) for seat in seats)}))
    game.level = game.level or PracticeGame.Level.STANDARD  # one begun without a level
    play_computers(match.game, computers_of(game))
    played_on(game, match)


def seat_label(challenge: Challenge, seat: int) -> str:
    """Where ``seat`` of a table sits from the challenger's chair, as the lobby says it."""
    name = member_name(challenge.challenger)
    if challenge.seats == 4 and seat == 2:
        return _("%(name)s's partner") % {"name": name}
    if seat == 1:
        return _("on %(name)s's left") % {"name": name}
    return _("on %(name)s's right") % {"name": name}
