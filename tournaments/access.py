"""Who is acting on a tournament's pages: an account, a private link, or nobody.

A *private link* (``/p/<key>/``) identifies one entry of one tournament without an
account. Opening it keeps its key in the session, one key per tournament, so the
match pages and forms reached from it know the player. The key is looked up again
on every request, so a revoked link stops working at once. An *actor* is the
account and the private-link entry of one request; its *seat* in a match is the
seat of its player there, or None.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest

from club.models import Player
from tournaments.models import Entry, Match, Tournament

SESSION_KEY = "private_links"


@dataclass(frozen=True)
class Actor:
    """The person behind a request: their account (perhaps anonymous) and private link."""

    user: User | AnonymousUser
    entry: Entry | None = None

    @property
    def is_authenticated(self) -> bool:
        return self.user.is_authenticated

    @property
    def is_known(self) -> bool:
        """An account or a private link: someone who may have a match of their own."""
        return self.is_authenticated or self.entry is not None

    @property
    def account(self) -> User | None:
        """The account to name in the result log, or None for a private link alone."""
        return self.user if self.user.is_authenticated else None

    @property
    def player(self) -> Player | None:
        """The person in the register, for the result log."""
        if self.entry is not None:
            return self.entry.player
        if self.account is not None:
            return Player.objects.filter(user=self.account).first()
        return None

    def seat_in(self, match: Match) -> int | None:
        """This actor's seat (0 or 1) in ``match``, or None when it is not their match."""
        if not self.is_known:
            return None
        for seat in match.seats.all():
            if self.entry is not None and seat.entry_id == self.entry.pk:
                return seat.seat
            if self.is_authenticated and seat.entry.player.user_id == self.user.pk:
                return seat.seat
        return None


def actor_for(request: HttpRequest, tournament: Tournament) -> Actor:
    """The request's account and, when its session holds one, this tournament's private link."""
    key = request.session.get(SESSION_KEY, {}).get(tournament.slug)
    entry = None
    if key:
        entry = (
            Entry.objects.select_related("player")
            .filter(tournament=tournament, private_key=key)
            .first()
        )
    return Actor(user=request.user, entry=entry)


def remember_private_link(request: HttpRequest, entry: Entry) -> None:
    """Keep the opened private link for the rest of the visit (this tournament only)."""
    links = dict(request.session.get(SESSION_KEY, {}))
    if links.get(entry.tournament.slug) != entry.private_key:  # else no session write
        links[entry.tournament.slug] = entry.private_key
        request.session[SESSION_KEY] = links
