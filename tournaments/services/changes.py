"""The tournament's versions: what its pages' validators, cached fragments and PDFs key on.

Every service that changes what a tournament's pages or printed documents show (a
result, a pairing, a publication, an entry, a player's name, a private link on the
score sheets) calls :func:`tournament_changed` inside its transaction. The versions
then move with the change or not at all: a page or PDF is never served from a
version whose data it does not show.

The versions, from the widest to the narrowest (docs/operating.md, "Versions a page
keys on"):

- the tournament's *results version*: every change (the pages that show everything);
- its *setup version*: every change that is not a result (a name, an entry, a
  pairing, a publication, a setting);
- its *final version*: a result becoming final, or a final one corrected (the
  standings, with the setup version);
- a round's version: a result in it, and every change that is not a result (the
  round's page, the records before a later round);
- a match's version: a change to it (its page and its row of the pairings).

A report awaiting its confirmation thus moves its match's and its round's versions,
not the standings' nor another match's.

Every change also moves the mark of the tournament's *pages scope* in the cache
(``pages_scope``, ``core.revalidation``), after its transaction commits: the pages
answered 304 from the cache alone (``tournaments.revalidation``) keep their versions
under it, so none of them outlives the change.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F
from django.utils import timezone

from core import revalidation
from tournaments.models import Entry, Match, Round, Tournament


def tournament_changed(
    tournament: Tournament | int,
    *,
    round_id: int | None = None,
    match_id: int | None = None,
    final: bool = False,
) -> None:
    """New versions for the tournament (and the time of the change).

    ``round_id``: the change touches that round alone (a result in it), and with
    ``match_id`` that match alone; ``final``: it changes a final result. Without
    ``round_id`` the change is not a result: the setup version and every round's move.
    """
    pk = tournament if isinstance(tournament, int) else tournament.pk
    if isinstance(tournament, Tournament):
        pages_moved([tournament.slug])
    else:
        pages_moved(Tournament.objects.filter(pk=pk).values_list("slug", flat=True))
    moved: dict[str, object] = {
        "results_version": F("results_version") + 1,
        "changed_at": timezone.now(),
    }
    if round_id is None:
        moved["setup_version"] = F("setup_version") + 1
    if final:
        moved["final_version"] = F("final_version") + 1
    Tournament.objects.filter(pk=pk).update(**moved)
    rounds = Round.objects.filter(pk=round_id) if round_id else Round.objects.filter(tournament=pk)
    rounds.update(results_version=F("results_version") + 1)
    if match_id is not None:
        Match.objects.filter(pk=match_id).update(version=F("version") + 1)


def tournaments_changed(pks: Iterable[int]) -> None:
    pks = list(pks)
    pages_moved(Tournament.objects.filter(pk__in=pks).values_list("slug", flat=True))
    Tournament.objects.filter(pk__in=pks).update(
        results_version=F("results_version") + 1,
        setup_version=F("setup_version") + 1,
        changed_at=timezone.now(),
    )
    Round.objects.filter(tournament__in=pks).update(results_version=F("results_version") + 1)


def on_player_changed(sender: object, *, player: int, **kwargs: object) -> None:
    """A member's name or club is on the pages of every tournament they entered (told once
    the change is saved: ``club.signals``)."""
    tournaments_changed(Entry.objects.filter(player=player).values_list("tournament_id", flat=True))


def pages_scope(slug: str) -> str:
    """The scope (``core.revalidation``) of the pages of the tournament at ``slug``."""
    return f"tournament:{slug}"


def pages_moved(slugs: Iterable[str]) -> None:
    """The pages of the tournaments at ``slugs`` changed (a renamed or deleted tournament's
    old address too: the admin says so)."""
    revalidation.moved(*(pages_scope(slug) for slug in slugs))
