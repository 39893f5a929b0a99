"""The play-off and the end of a tournament.

The play-off takes the top ``playoff_size`` of the Swiss standings (withdrawn
players excluded) into a seeded single-elimination bracket
(``competition.playoff``); each player's seed is kept on their entry
(``Entry.playoff_seed``). Each bracket round is a ``Round`` of kind play-off,
numbered after the Swiss rounds and published at once; a match's
``bracket_slot`` is its place in the bracket, seat 0 the better seed. Closing a
bracket round pairs the next one; closing the final crowns the champion.
Without a play-off the tournament is finished from the Swiss standings, after
all Swiss rounds or, when the organiser *ends it early*, after the last closed one.
Each action has a ``*_refusal`` function saying why it cannot be done now, so the
pages offer only what applies and the services refuse with the same words.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import playoff
from tournaments import bridge
from tournaments.errors import TournamentError
from tournaments.models import Entry, Round, Tournament
from tournaments.services.changes import tournament_changed
from tournaments.services.matches import match_create


def _swiss_unfinished(tournament: Tournament, rounds: Sequence[Round]) -> str | None:
    swiss = [r for r in rounds if r.kind == Round.Kind.SWISS]
    if len(swiss) < tournament.swiss_rounds or any(r.status != Round.Status.CLOSED for r in swiss):
        return _("Play and close all %(n)d Swiss rounds first.") % {"n": tournament.swiss_rounds}
    return None


def playoff_refusal(tournament: Tournament, rounds: Sequence[Round]) -> str | None:
    """Why the play-off cannot start now (``rounds``: the tournament's rounds), or None."""
    if not tournament.playoff_size:
        return _("This tournament has no play-off.")
    if tournament.status != Tournament.Status.SWISS:
        return _("The play-off can start only after the Swiss stage.")
    return _swiss_unfinished(tournament, rounds)


def finish_refusal(
    tournament: Tournament, rounds: Sequence[Round], *, early: bool = False
) -> str | None:
    """Why a tournament without a play-off cannot be finished now, or None.

    ``early`` allows ending after any closed Swiss round, while no round is being played;
    a proposal nobody has seen yet is then discarded.
    """
    if tournament.playoff_size:
        return _("This tournament ends with its play-off.")
    if tournament.status == Tournament.Status.FINISHED:
        return _("The tournament is already finished.")
    if not early:
        return _swiss_unfinished(tournament, rounds)
    swiss = [r for r in rounds if r.kind == Round.Kind.SWISS]
    playing = [r.number for r in swiss if r.status == Round.Status.PLAYING]
    if playing:
        return _("Close round %(n)d first.") % {"n": playing[0]}
    if not any(r.status == Round.Status.CLOSED for r in swiss):
        return _("No round has been played yet.")
    return None


def _create_bracket_round(tournament: Tournament, pairings: list[playoff.PlayoffPairing]) -> Round:
    round_ = Round.objects.create(
        tournament=tournament,
        number=tournament.rounds.count() + 1,
        kind=Round.Kind.PLAYOFF,
        status=Round.Status.PLAYING,
        seed=tournament.seed,
        published_at=timezone.now(),
    )
    for pairing in pairings:
        match_create(
            round=round_,
            entries=[pairing.high] if pairing.low is None else [pairing.high, pairing.low],
            best_of=tournament.playoff_best_of,
            table=pairing.slot + 1,
            bracket_slot=pairing.slot,
        )
    return round_


@transaction.atomic
def playoff_start(*, tournament: Tournament) -> Round:
    """Seed the top of the standings into the bracket and publish its first round."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refusal = playoff_refusal(tournament, list(tournament.rounds.order_by("number")))
    if refusal is not None:
        raise TournamentError(refusal)
    rows = [row for row in bridge.standings(tournament) if not row.entry.withdrawn]
    qualified = [row.entry.pk for row in rows[: tournament.playoff_size]]
    if len(qualified) < 2:
        raise TournamentError(_("A play-off needs at least two players."))
    seeded = [
        Entry(pk=entry, playoff_seed=seed) for entry, seed in playoff.seeds_of(qualified).items()
    ]
    Entry.objects.bulk_update(seeded, ["playoff_seed"])
    round_ = _create_bracket_round(tournament, playoff.first_round(qualified))
    tournament.status = Tournament.Status.PLAYOFF
    tournament.save(update_fields=["status"])
    tournament_changed(tournament)
    return round_


def playoff_advance(round_: Round) -> Round | None:
    """After a closed bracket round: the next round, or the champion after the final."""
    tournament = Tournament.objects.select_for_update().get(pk=round_.tournament_id)
    pairings, winners = bridge.bracket_round(round_)
    if len(pairings) == 1:
        tournament.champion_id = playoff.champion(pairings, winners)
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["champion", "status"])
        return None
    seeds = bridge.playoff_seeds(tournament)
    return _create_bracket_round(tournament, playoff.next_round(pairings, winners, seeds=seeds))


@transaction.atomic
def tournament_finish(*, tournament: Tournament, early: bool = False) -> Tournament:
    """End a tournament without a play-off: the top of the standings is the champion.

    With ``early`` the organiser ends it before all Swiss rounds are played (see
    ``finish_refusal``); the standings after the last closed round decide.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refusal = finish_refusal(tournament, list(tournament.rounds.order_by("number")), early=early)
    if refusal is not None:
        raise TournamentError(refusal)
    tournament.rounds.filter(status=Round.Status.PROPOSED).delete()
    rows = bridge.standings(tournament)
    tournament.champion = rows[0].entry if rows else None
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["champion", "status"])
    tournament_changed(tournament)
    return tournament
