"""The tournament's results version: what its pages' validators and the PDF cache key on.

Every service that changes what a tournament's pages or printed documents show (a
result, a pairing, a publication, an entry, a player's name, a private link on the
score sheets) calls :func:`tournament_changed` inside its transaction. The version
then moves with the change or not at all: a page or PDF is never served from a
version whose data it does not show.

Each round has a version of its own too. A result moves only its round's; every other
change moves every round's, since it may show in any of them (a name, an entry, a
publication). What is kept of some rounds alone, such as the players' records before
a round, keys on those rounds' versions and so outlives the results of later ones.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F
from django.utils import timezone

from club.models import Player
from tournaments.models import Round, Tournament


def tournament_changed(tournament: Tournament | int, *, round_id: int | None = None) -> None:
    """A new results version for the tournament (and the time of the change).

    ``round_id``: the change touches that round alone (a result in it); without it,
    every round's version moves as well.
    """
    pk = tournament if isinstance(tournament, int) else tournament.pk
    Tournament.objects.filter(pk=pk).update(
        results_version=F("results_version") + 1, changed_at=timezone.now()
    )
    rounds = Round.objects.filter(pk=round_id) if round_id else Round.objects.filter(tournament=pk)
    rounds.update(results_version=F("results_version") + 1)


def tournaments_changed(pks: Iterable[int]) -> None:
    pks = list(pks)
    Tournament.objects.filter(pk__in=pks).update(
        results_version=F("results_version") + 1, changed_at=timezone.now()
    )
    Round.objects.filter(tournament__in=pks).update(results_version=F("results_version") + 1)


def on_player_changed(sender: object, *, player: Player, **kwargs: object) -> None:
    """A member's name or club is on the pages of every tournament they entered."""
    tournaments_changed(player.entries.values_list("tournament_id", flat=True))
