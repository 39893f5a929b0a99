"""Rounds: pair the next Swiss round, adjust and publish it, close it.

Pairing a round proposes it: the organisers see the pairs and why, may swap
players by hand or re-pair with a new seed, and then publish. Nothing of a
proposal that fails is saved.

Every round service locks in one order, the tournament row first and then the
round, so two organisers acting at once are served one after the other. The
second may find the proposal it was shown gone (paired again: a new round of the
same number) or published; it is refused with a message, never half done.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.pairing import NoLegalPairing, NoLegalPairingReason, PairingResult, pair_round
from tournaments import bridge
from tournaments.errors import TournamentError
from tournaments.models import Entry, Match, Round, Seat, Tournament
from tournaments.services.changes import tournament_changed
from tournaments.services.matches import match_create, seats_exchange
from tournaments.services.playoff import playoff_advance
from tournaments.signals import round_closed


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)


def _explanation_json(result: PairingResult) -> dict[str, Any]:
    return result.explanation.to_json()


def _no_pairing_message(error: NoLegalPairing, names: dict[int, str]) -> str:
    players = ", ".join(names.get(p, str(p)) for p in error.players)
    if error.reason == NoLegalPairingReason.TOO_FEW_PLAYERS:
        return _("No legal pairing: fewer than two players are checked in and active.")
    if error.reason == NoLegalPairingReason.NO_OPPONENT_LEFT:
        return _(
            "No legal pairing: %(players)s have already met, or may not meet, every other "
            "active player."
        ) % {"players": players}
    return _(
        "No legal pairing: every way of pairing the field leaves someone without a legal "
        "opponent (for example %(players)s). Remove a forbidden pairing or end the Swiss stage."
    ) % {"players": players}


def pairing_refusal(tournament: Tournament, rounds: Sequence[Round]) -> str | None:
    """Why the next Swiss round cannot be paired now (``rounds`` in order), or None."""
    if tournament.status in (Tournament.Status.PLAYOFF, Tournament.Status.FINISHED):
        return _("The Swiss stage is over.")
    last = rounds[-1] if rounds else None
    if last is not None and last.status == Round.Status.PROPOSED:
        return _("Round %(n)d is proposed already: publish it or pair it again.") % {
            "n": last.number
        }
    if last is not None and last.status != Round.Status.CLOSED:
        return _("Close round %(n)d before pairing the next.") % {"n": last.number}
    if len(rounds) >= tournament.swiss_rounds:
        return ngettext(
            "The only Swiss round has been played; there is no round left to pair.",
            "All %(n)d Swiss rounds have been played; there is no round left to pair.",
            tournament.swiss_rounds,
        ) % {"n": tournament.swiss_rounds}
    return None


def _check_can_pair(tournament: Tournament, rounds: list[Round]) -> int:
    refusal = pairing_refusal(tournament, rounds)
    if refusal is not None:
        raise TournamentError(refusal)
    return len(rounds) + 1


@transaction.atomic
def round_propose(*, tournament: Tournament, seed: int | None = None) -> Round:
    """Pair the next Swiss round and save it as a proposal (round 1 drawn, or seeded by
    rating when the tournament says so: the ratings used are kept in its explanation)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rounds = list(tournament.rounds.order_by("number"))
    number = _check_can_pair(tournament, rounds)
    # By default the draw follows from the tournament's recorded seed, so it can be redone.
    seed = tournament.seed + number - 1 if seed is None else seed
    entrants, forbidden, names = bridge.pairing_input(tournament, number)
    ratings = bridge.seeding_ratings(tournament, number)
    try:
        result = pair_round(entrants, seed=seed, forbidden=forbidden, ratings=ratings)
    except NoLegalPairing as error:
        raise TournamentError(_no_pairing_message(error, names)) from error
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        seed=seed,
        explanation=_explanation_json(result),
    )
    # A table per pair, in order, then the bye.
    for table, pair in enumerate(result.pairs, start=1):
        match_create(round=round_, entries=pair, best_of=tournament.best_of, table=table)
    if result.bye is not None:
        match_create(round=round_, entries=[result.bye], best_of=tournament.best_of)
    tournament_changed(tournament)
    return round_


def proposal_gone_message() -> str:
    return _(
        "The proposal was just re-paired or published by someone else; look at the round again."
    )


def _locked(round_: Round) -> Round | None:
    """Lock the tournament, then the round (None if it is gone): the order of every service."""
    tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
    locked = Round.objects.select_for_update().filter(pk=round_.pk).first()
    if locked is not None:
        locked.tournament = tournament
    return locked


def _proposed(round_: Round) -> Round:
    """The proposal ``round_`` locked, refused if it was re-paired or published meanwhile."""
    locked = _locked(round_)
    if locked is None:
        raise TournamentError(proposal_gone_message())
    if locked.status != Round.Status.PROPOSED:
        if round_.status == Round.Status.PROPOSED:  # it was a proposal when the caller read it
            raise TournamentError(proposal_gone_message())
        raise TournamentError(_("This round is published; its pairings can no longer change."))
    return locked


@transaction.atomic
def round_repair(*, round: Round, seed: int | None = None) -> Round:  # noqa: A002
    """Throw away a proposal and pair the round again (with a new seed by default)."""
    round_ = _proposed(round)
    tournament = round_.tournament
    round_.delete()
    return round_propose(tournament=tournament, seed=new_seed() if seed is None else seed)


@transaction.atomic
def round_swap(*, round: Round, first: Entry, second: Entry) -> Round:  # noqa: A002
    """Swap two players' places in a proposal (between tables, or with the bye)."""
    round_ = _proposed(round)
    seats = {s.entry_id: s for s in Seat.objects.filter(round=round_, entry__in=[first, second])}
    if len(seats) != 2:
        raise TournamentError(_("Choose two different players who are in this round."))
    a, b = seats[first.pk], seats[second.pk]
    if a.match_id == b.match_id:
        raise TournamentError(_("These two already play each other."))
    _check_tables_allowed(round_, [(b.match_id, a.entry_id), (a.match_id, b.entry_id)])
    seats_exchange(first=a, second=b)
    swaps = [*round_.explanation.get("swapped", []), [first.pk, second.pk]]
    round_.explanation = {**round_.explanation, "swapped": swaps}
    round_.save(update_fields=["explanation"])
    tournament_changed(round_.tournament_id)
    return round_


def _check_tables_allowed(round_: Round, moves: list[tuple[int, int]]) -> None:
    """Each ``(match, entry)`` of ``moves``: may the entry meet whoever stays at that match?"""
    names = dict(
        Entry.objects.filter(tournament=round_.tournament_id).values_list("pk", "player__name")
    )
    moving = {entry for _match, entry in moves}
    for match_id, entry in moves:
        others = Seat.objects.filter(match_id=match_id).exclude(entry_id__in=moving)
        for other in others:
            if not bridge.pair_is_allowed(round_.tournament, entry, other.entry_id):
                raise TournamentError(
                    _("%(a)s and %(b)s may not be paired: they have met or are a forbidden pair.")
                    % {"a": names[entry], "b": names[other.entry_id]}
                )


@transaction.atomic
def round_publish(*, round: Round) -> Round:  # noqa: A002
    """Publish a proposal: players see their tables and can report."""
    round_ = _proposed(round)
    round_.status = Round.Status.PLAYING
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    Tournament.objects.filter(
        pk=round_.tournament_id, status=Tournament.Status.REGISTRATION
    ).update(status=Tournament.Status.SWISS)
    tournament_changed(round_.tournament_id)
    return round_


def close_refusal(round_: Round) -> str | None:
    """Why ``round_`` cannot be closed now, or None when every match is final."""
    if round_.status != Round.Status.PLAYING:
        return _("Only a round being played can be closed.")
    # A bye is final from the start: every open match has its table.
    open_tables = list(
        round_.matches.exclude(status=Match.Status.FINAL)
        .order_by("table")
        .values_list("table", flat=True)
    )
    if open_tables:
        return _("Not every match is final yet (tables %(tables)s).") % {
            "tables": ", ".join(str(t) for t in open_tables)
        }
    return None


@transaction.atomic
def round_close(*, round: Round) -> Round:  # noqa: A002
    """Close a round whose matches are all final."""
    round_ = _locked(round)
    if round_ is None:  # only proposals are ever deleted
        raise TournamentError(proposal_gone_message())
    refusal = close_refusal(round_)
    if refusal is not None:
        raise TournamentError(refusal)
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    round_closed.announce(round=round_.pk)
    if round_.kind == Round.Kind.PLAYOFF:
        playoff_advance(round_)
    tournament_changed(round_.tournament_id)
    return round_
