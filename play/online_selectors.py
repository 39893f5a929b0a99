"""Reads of games between members: the lobby's challenges and games, and a game's table.

Terms as in ``play.online``. A game's *version* moves with every change, so a
page polling it asks only whether the version moved (``online_version``,
``online_etag``) and gets the table again only when it did. A *reader* of a game
is one of its two players (their own seat, "you") or, for a championship match, a
spectator (no seat: both players by name, no hidden card).
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.http import quote_etag
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from play.models import Challenge, ChallengeSeat, OnlineGame
from play.narration import Seats
from play.online import CLAIM_AFTER, read_online, waits_for_other
from play.online_presenter import Facts
from play.replays import ReplayView, replay_view
from play.seating import member_sides
from play.selectors import TableView, table_view
from scoring.rules.events import Event, EventType, Phase
from scoring.rules.seats import seating


def challenges_to(user: User) -> QuerySet[Challenge]:
    """Open challenges addressed to ``user``, the newest first."""
    return Challenge.objects.filter(status=Challenge.Status.OPEN, challenged=user).select_related(
        "challenger__player", "challenged__player", "match__round__tournament"
    )


def challenges_open_to_all(user: User) -> QuerySet[Challenge]:
    """Other members' open challenges of two to anyone."""
    return (
        Challenge.objects.filter(status=Challenge.Status.OPEN, challenged__isnull=True, seats=2)
        .exclude(challenger=user)
        .select_related("challenger__player")
    )


def challenges_by(user: User) -> QuerySet[Challenge]:
    """``user``'s own challenges of two still open."""
    return Challenge.objects.filter(
        status=Challenge.Status.OPEN, challenger=user, seats=2
    ).select_related("challenger__player", "challenged__player", "match__round__tournament")


def tables_open() -> QuerySet[Challenge]:
    """The open tables of three or four (``play.tables``), with who sits at each, the
    oldest first (the first to fill)."""
    return (
        Challenge.objects.filter(status=Challenge.Status.OPEN, seats__gt=2)
        .select_related("challenger__player")
        .prefetch_related(
            Prefetch("sitting", ChallengeSeat.objects.select_related("member__player"))
        )
        .order_by("created", "pk")
    )


def online_games_for(user: User) -> QuerySet[OnlineGame]:
    """The games ``user`` plays or played (at a table, sat down to), the latest move first."""
    return OnlineGame.objects.filter(_sat_at(user)).select_related(
        "seat_0__player", "seat_1__player", "seat_2__player", "seat_3__player"
    )


def _sat_at(user: User) -> Q:
    return Q(seat_0=user) | Q(seat_1=user) | Q(seat_2=user) | Q(seat_3=user)


def members_to_challenge(user: User) -> QuerySet[User]:
    """The members who can play, by name: an open account of an active member of the
    register (not an organiser's or an administrator's staff account, which is nobody at
    a table, nor a member who has left)."""
    return (
        User.objects.filter(is_active=True, player__active=True)
        .exclude(pk=user.pk)
        .select_related("player")
        .order_by("player__name", "username")
    )


def seen_by(user: User | AnonymousUser) -> Q:
    """The one rule of who may see a game between members (its page, its poll, its review):
    its players; anyone, a tournament match played on the site; any member, a table of
    three or four (as a spectator, like a member looking on at a club evening)."""
    watched = Q(match__isnull=False)
    if not user.is_authenticated:
        return watched
    return watched | Q(seats__gt=2) | _sat_at(user)


def online_version(pk: int, user: User | AnonymousUser) -> int | None:
    """Game ``pk``'s version, in one small query (not the game), if ``user`` may see it
    (``seen_by``)."""
    version = (
        OnlineGame.objects.filter(seen_by(user), pk=pk).values_list("version", flat=True).first()
    )
    return None if version is None else int(version)


def online_etag(pk: int, version: int, user: User | AnonymousUser, *, variant: str) -> str:
    """The validator of game ``pk``'s table at ``version`` for ``user``.

    A page takes it from the very row it was drawn from, so that a move saved while
    the page was drawn leaves the page's validator behind it, not ahead (the next poll
    then brings the move). ``variant`` is what else the page depends on (the language,
    the deck's colours).
    """
    text = f"{pk}|{version}|{user.pk}|{variant}"
    return quote_etag(hashlib.blake2b(text.encode(), digest_size=12).hexdigest())


@dataclass
class OnlineTable:
    """A game between members as its reader sees it (at a table of three or four, every
    seat's name in ``names``)."""

    game: OnlineGame
    seat: int | None
    names: tuple[str, ...]
    table: TableView
    claimable_from: datetime.datetime | None
    """When the reader may claim the game (the other player has left it waiting), or None."""
    replays: list[int]
    """Once the match is over: the numbers of its games played to the end (to replay)."""
    reader_id: int | None = None
    """The reader's user id (None: a visitor)."""

    @cached_property
    def facts(self) -> Facts:
        """The table told from the reader's seat: the one source of "you" and of names."""
        return Facts(self.seat, self.names, self.table)

    @property
    def other_name(self) -> str:
        return self.names[1 - (self.seat or 0)]

    @property
    def sat_at(self) -> int | None:
        """The seat the reader sat down in, whether they play it or left it."""
        user_id = self.reader_id
        return None if user_id is None else self.game.sat_at(user_id)

    @property
    def computer_seats(self) -> list[str]:
        """The names of the seats the computer plays at a table, seat 0 first."""
        game = self.game
        return [self.names[seat] for seat in range(game.seats) if game.computer_plays(seat)]

    @property
    def line_up(self) -> str:
        """Who sits at a table, by name: "A, B and C", or with four "A and C against B and
        D" (the partners together)."""
        names = self.names
        if len(names) == 3:
            return get_text_list(list(names), _("and"))
        return _("%(first)s and %(third)s against %(second)s and %(fourth)s") % {
            "first": names[0],
            "second": names[1],
            "third": names[2],
            "fourth": names[3],
        }

    @property
    def partner_name(self) -> str:
        """The reader's partner at a table of four (empty otherwise)."""
        if self.game.seats != 4 or self.seat is None:
            return ""
        return self.names[(self.seat + 2) % 4]

    @property
    def left(self) -> list[str]:
        """The members who left the table (the computer plays their seats)."""
        members = self.game.members
        return [
            self.names[seat]
            for seat in range(self.game.seats)
            if self.game.computer_plays(seat) and members[seat] is not None
        ]

    @property
    def moves(self) -> int:
        """The reader's own count of decisions, which their next post carries."""
        return self.game.moves_of(self.seat) if self.seat is not None else 0

    @property
    def can_claim(self) -> bool:
        return self.claimable_from is not None and timezone.now() >= self.claimable_from

    @property
    def wins(self) -> tuple[int, int]:
        """Games won in the match: the reader's, then the other player's."""
        return self._yours_first(self.table.wins)

    @property
    def scores(self) -> tuple[int, int]:
        """The current game's scores: the reader's, then the other player's."""
        mine, theirs = self.table.scores  # a game between members is two players'
        return self._yours_first((mine, theirs))

    @property
    def dealer_name(self) -> str:
        return self.names[self.table.dealer]

    @property
    def awaited_names(self) -> list[str]:
        """Whom the game waits for, by name (a spectator's "waiting for")."""
        return [self.names[seat] for seat in sorted(self.table.awaiting)]

    @property
    def held_by_others(self) -> list[tuple[str, range]]:
        """The name and the cards held face down of each seat but the reader's (a
        spectator's: both)."""
        return [
            (self.names[seat], range(self.table.holds[seat]))
            for seat in (0, 1)
            if seat != self.seat
        ]

    def _yours_first(self, pair: tuple[int, int]) -> tuple[int, int]:
        return (pair[1], pair[0]) if self.seat == 1 else pair


def _news_from(events: Sequence[Event], seat: int | None) -> int:
    """Where the news begins: at the reader's own latest card or discard, so that it tells
    what followed it (the other player's moves, the shows); a spectator's, at the latest
    card or discard of either."""
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if event.type in _MOVES and (seat is None or event.player == seat):
            return index
    return 0


_MOVES = (EventType.DISCARD, EventType.PLAY)


def online_table(
    game: OnlineGame, *, seat: int | None, reader_id: int | None = None
) -> OnlineTable:
    """The table of ``game`` for the reader in ``seat`` (None: a spectator)."""
    match = read_online(game)
    names = seat_names(game, match.players)
    events = match.game.events
    table = table_view(
        match, viewer=seat, news_from=_news_from(events, seat), seats=_seats(game, seat, names)
    )
    claimable = None
    if seat is not None and not game.finished and waits_for_other(match, seat):
        claimable = game.last_move + CLAIM_AFTER
    replays = finished_games(game) if game.finished else []
    return OnlineTable(game, seat, names, table, claimable, replays, reader_id)


def seat_names(game: OnlineGame, players: Sequence[object]) -> tuple[str, ...]:
    """Each seat's name on the pages: the member's, as the game's record keeps it, and for
    a seat the computer had from the start "Computer" (numbered when it has more than
    one), in the reader's language."""
    free = [seat for seat, member in enumerate(game.members) if member is None]
    return tuple(
        str(players[seat])
        if seat not in free
        else _("Computer")
        if len(free) == 1
        else _("Computer %(number)s") % {"number": free.index(seat) + 1}
        for seat in range(game.seats)
    )


def _seats(game: OnlineGame, seat: int | None, names: tuple[str, ...]) -> Seats:
    """The narration's seats: two members by name, or a table of three or four with its
    sides (``play.seating.member_sides``)."""
    if not game.is_table:
        return Seats(seat, names)
    return Seats(
        viewer=seat,
        names=names,
        side_of=seating(game.seats).side_of,
        side_names=member_sides(names, viewer=seat),
    )


def finished_games(game: OnlineGame) -> list[int]:
    """The numbers of the match's games played to their end: those a replay shows (a game
    left unfinished by a resignation or a claim is not among them)."""
    if game.finished and game.record:
        records = game.record["games"]
        return [number for number, record in enumerate(records, 1) if record["winner"] is not None]
    match = read_online(game)
    return [number for number, one in enumerate(match.games, 1) if one.phase is Phase.DONE]


def online_replay(game: OnlineGame, *, seat: int, game_number: int, step: int) -> ReplayView | None:
    """Step ``step`` of a finished game ``game_number`` of ``game``, for the player in ``seat``
    (both hands face up, as after the show); None for a game not finished or no such step."""
    if game.finished and game.record:  # a game left unfinished by a resignation is not played
        records = [record for record in game.record["games"] if record["winner"] is not None]
        players = game.record["players"]
    else:
        match = read_online(game)
        records = [played.record() for played in match.games if played.phase is Phase.DONE]
        players = match.players
    return replay_view(
        records,
        game_number=game_number,
        step=step,
        seats=_seats(game, seat, seat_names(game, players)),
    )
