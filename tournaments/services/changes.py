"""The tournament's results version: what its pages' validators and the PDF cache key on.

Every service that changes what a tournament's pages or printed documents show (a
result, a pairing, a publication, an entry, a player's name, a private link on the
score sheets) calls :func:`tournament_changed` inside its transaction. The version
then moves with the change or not at all: a page or PDF is never served from a
version whose data it does not show.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F
from django.utils import timezone

from club.models import Player
from tournaments.models import Tournament


def tournament_changed(tournament: Tournament | int) -> None:
    """A new results version for the tournament (and the time of the change)."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    tournaments_changed([pk])


def tournaments_changed(pks: Iterable[int]) -> None:
    Tournament.objects.filter(pk__in=list(pks)).update(
        results_version=F("results_version") + 1, changed_at=timezone.now()
    )


def on_player_changed(sender: object, *, player: Player, **kwargs: object) -> None:
    """A member's name or club is on the pages of every tournament they entered."""
    tournaments_changed(player.entries.values_list("tournament_id", flat=True))
