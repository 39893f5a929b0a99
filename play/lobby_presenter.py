"""The lobby's challenges as the member reading it sees them: each with its *rated note*,
what a rated challenge means for them (the waiting time, and whether it could still be
rated between them this month), read for every challenge on the page at once; and each
open table of three or four with its seats (``play.tables``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from club.names import member_name
from play.models import Challenge
from play.online import rated_this_month_with, refusal_after
from play.tables import seat_label


def with_rated_notes(member: User, challenges: Iterable[Challenge]) -> list[tuple[Challenge, str]]:
    """Each of ``challenges`` with its rated note for ``member`` ("" for an unrated one)."""
    shown = list(challenges)
    others = {
        other.pk: other
        for challenge in shown
        if challenge.rated and (other := _other(challenge, member)) is not None
    }
    counts = rated_this_month_with(member, list(others.values())) if others else {}
    return [(challenge, _note(challenge, member, counts)) for challenge in shown]


def _other(challenge: Challenge, member: User) -> User | None:
    """Who ``member`` would play: the challenged, or the challenger (None: open to anyone)."""
    return challenge.challenged if challenge.challenger_id == member.pk else challenge.challenger


def _note(challenge: Challenge, member: User, counts: dict[int, int]) -> str:
    if not challenge.rated:
        return ""
    note = _(
        "Rated: a player who has not moved for 72 hours loses the match if the other claims it."
    )
    other = _other(challenge, member)
    refusal = refusal_after(other, counts[other.pk]) if other is not None else None
    return f"{note} {refusal}" if refusal else note


@dataclass(frozen=True)
class TableSeat:
    """One seat of an open table as the lobby shows it: where it is, who sits in it
    (empty: free), and whether it is the reader's."""

    seat: int
    label: str
    member: str
    mine: bool


@dataclass(frozen=True)
class OpenTable:
    """An open table of three or four, for ``reader``: its seats, whether the reader made
    it (and may begin it) or sits at it (and may stand up)."""

    challenge: Challenge
    seats: list[TableSeat]
    yours: bool
    seated: bool

    @property
    def may_begin(self) -> bool:
        """The challenger may begin once another member sits at the table."""
        return self.yours and any(seat.member for seat in self.seats[1:])

    @property
    def may_sit(self) -> bool:
        return not self.yours and not self.seated


def open_tables(member: User, challenges: Iterable[Challenge]) -> list[OpenTable]:
    """Each open table (``challenges``, their seats prefetched) as ``member`` sees it."""
    tables = []
    for challenge in challenges:
        taken = {sat.seat: sat.member for sat in challenge.sitting.all()}
        seats = [
            TableSeat(
                0,
                _("made the table"),
                member_name(challenge.challenger),
                challenge.challenger_id == member.pk,
            )
        ]
        seats += [
            TableSeat(
                seat,
                seat_label(challenge, seat),
                member_name(taken[seat]) if seat in taken else "",
                seat in taken and taken[seat].pk == member.pk,
            )
            for seat in range(1, challenge.seats)
        ]
        tables.append(
            OpenTable(
                challenge,
                seats,
                yours=challenge.challenger_id == member.pk,
                seated=any(sitter.pk == member.pk for sitter in taken.values()),
            )
        )
    return tables
