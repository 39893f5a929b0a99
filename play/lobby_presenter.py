"""The lobby's challenges as the member reading it sees them: each with its *rated note*,
what a rated challenge means for them (the waiting time, and whether it could still be
rated between them this month), read for every challenge on the page at once."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from play.models import Challenge
from play.online import rated_this_month_with, refusal_after


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
