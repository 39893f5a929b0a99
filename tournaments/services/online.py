"""Tournament matches played on the site: started, recorded when the engine ends them, or
handed to the organisers when a player stops.

A match is *played online* when both its players agree to play it on the site
(``play.championship`` asks and plays; this module writes the match). While it is
played its status is ``ONLINE``: nobody reports it, and the round page says so. When
the engine has decided it, its games become the result, final at once: both players
played every card of it, so there is nothing left to confirm. Each game keeps the
engine's record, and the result log says the site recorded it. A match stopped
before its end (a resignation, a claim after 72 hours) goes to the organisers, who
settle it as any disputed match. An organiser may settle a match while it is played
online: the game on the site ends with it (``signals.result_entered``; ``play`` listens).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.access import Actor
from tournaments.errors import TournamentError
from tournaments.models import Match, ResultChange
from tournaments.services.matches import game_records_save, games_save
from tournaments.services.results import (
    check_report,
    locked_match,
    log_change,
    match_snapshot,
    refusal_to_report,
    refuse,
    save_changed,
)

THE_SITE = Actor(user=AnonymousUser())
"""Who records a match played online: nobody in person (the log names the site)."""


def refusal_to_play_online(match: Match, seat: int | None) -> str | None:
    """Why the player in ``seat`` may not start ``match`` on the site (None: they may)."""
    refusal = refusal_to_report(match, seat)
    if refusal is not None:
        return refusal
    if match.status != Match.Status.PENDING:
        return _("Games of this match are already saved: finish it at the table.")
    return None


@transaction.atomic
def match_start_online(*, match: Match, by: Actor) -> Match:
    """The match is played on the site from now on (``by`` accepted the proposal)."""
    match = locked_match(match)
    refuse(refusal_to_play_online(match, by.seat_in(match)))
    before = match_snapshot(match)
    match.status = Match.Status.ONLINE
    save_changed(match)
    log_change(match, by, ResultChange.Action.ONLINE_STARTED, before)
    return match


@transaction.atomic
def match_record_online(
    *,
    match: Match,
    first_dealer: int,
    games: Sequence[tuple[int, int]],
    records: Sequence[dict[str, Any]],
) -> Match:
    """The engine's decided match becomes the result, final, with each game's record.

    ``games`` are each game's winner (seat) and loser's score, ``records`` the engine's
    record of each game in the same order. A match an organiser has settled meanwhile
    is left as it is.
    """
    match = locked_match(match)
    if match.status != Match.Status.ONLINE:
        return match
    result = check_report(match, first_dealer, games)
    if len(records) != len(result.games):
        raise TournamentError(_("There must be one record for each reported game."))
    before = match_snapshot(match)
    games_save(match=match, first_dealer=first_dealer, result=result)
    game_records_save(games=list(zip(match.games.order_by("number"), records, strict=True)))
    match.status = Match.Status.FINAL
    match.reported_by, match.reported_seat, match.dispute_note = None, None, ""
    save_changed(match)
    log_change(match, THE_SITE, ResultChange.Action.ONLINE, before)
    return match


@transaction.atomic
def match_stop_online(*, match: Match, by: Actor, note: str) -> Match:
    """A player stopped the match before its end: the organisers settle it, told ``note``.

    A match an organiser has settled meanwhile is left as it is.
    """
    match = locked_match(match)
    if match.status != Match.Status.ONLINE:
        return match
    before = match_snapshot(match)
    match.status = Match.Status.DISPUTED
    match.dispute_note = note
    save_changed(match)
    log_change(match, by, ResultChange.Action.ONLINE_STOPPED, before, note=note)
    return match
