"""Tournaments and their entries: create, register players, check in, withdraw, forbid pairs.

A *late entry* joins after rounds have been paired and starts with zero in the
next round. A withdrawn entry keeps its results and is not paired again.
"""

from __future__ import annotations

import random
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from club.models import Player
from club.services import player_create
from core.errors import full_clean
from tournaments import copies
from tournaments.errors import TournamentError
from tournaments.models import Entry, ForbiddenPair, Round, Tournament
from tournaments.ports import final_results_changed
from tournaments.services.changes import tournament_changed

TOURNAMENT_FIELDS = (
    "name",
    "year",
    "venue",
    "starts_on",
    "ends_on",
    "is_championship",
    "swiss_rounds",
    "seeding",
    "rated",
    "best_of",
    "playoff_size",
    "playoff_best_of",
    "points_win",
    "points_skunk",
    "points_double_skunk",
    "tiebreaks",
    "bye_game_points",
)


def _unique_slug(name: str, year: int) -> str:
    base = slugify(f"{name}-{year}" if str(year) not in name else name)[:50] or f"t-{year}"
    slug, n = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def _check_championship(year: int, is_championship: bool, pk: int | None) -> None:
    if not is_championship:
        return
    others = Tournament.objects.filter(year=year, is_championship=True)
    if pk is not None:
        others = others.exclude(pk=pk)
    if others.exists():
        raise TournamentError(_("%(year)d already has a championship.") % {"year": year})


@transaction.atomic
def tournament_create(
    *, seed: int | None = None, slug: str = "", rehearsal: bool = False, **fields: Any
) -> Tournament:
    """A new tournament in registration; the draw seed is recorded now. A ``rehearsal``
    (``manage.py simulate_tournament``) is never rated nor the year's championship."""
    _check_championship(fields["year"], fields.get("is_championship", False), None)
    tournament = Tournament(
        slug=slug or _unique_slug(fields["name"], fields["year"]),
        seed=random.SystemRandom().randrange(1, 2**31) if seed is None else seed,
        rehearsal=rehearsal,
        **{key: value for key, value in fields.items() if key in TOURNAMENT_FIELDS},
    )
    full_clean(tournament, TournamentError)
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError as error:
        raise TournamentError(
            _("The tournament could not be saved: %(error)s") % {"error": error}
        ) from error
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, **fields: Any) -> Tournament:
    """Change a tournament's settings; the match format and the pairing of round 1 are
    fixed once play has begun."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_championship(
        fields.get("year", tournament.year), fields.get("is_championship", False), tournament.pk
    )
    started = tournament_started(tournament)
    fixed = ("best_of", "points_win", "points_skunk", "points_double_skunk")
    if started and any(key in fields and fields[key] != getattr(tournament, key) for key in fixed):
        raise TournamentError(
            _("Match length and game points cannot change once a round has been published.")
        )
    if started and fields.get("seeding", tournament.seeding) != tournament.seeding:
        raise TournamentError(_("Round 1 has been published; how it is paired cannot change."))
    if started and fields.get("rated", tournament.rated) != tournament.rated:
        raise TournamentError(rated_fixed_reason())
    days = (tournament.starts_on, tournament.ends_on, tournament.rated)
    for key, value in fields.items():
        if key in TOURNAMENT_FIELDS:
            setattr(tournament, key, value)
    full_clean(tournament, TournamentError)
    tournament.save()
    tournament_changed(tournament)
    if (tournament.starts_on, tournament.ends_on, tournament.rated) != days:
        # Its rounds may now be rated in another order, on other days, or not at all;
        # before round 1 is published nothing of it is final, so this changes nothing.
        final_results_changed(round=None)
    return tournament


def rated_fixed_reason() -> str:
    """Why a tournament's rating setting cannot change on its page once play has begun."""
    return _(
        "Round 1 has been published, so whether the tournament is rated can only be changed "
        "by the club's administrator (manage.py set_tournament_rated), who re-rates the list."
    )


def tournament_started(tournament: Tournament) -> bool:
    """Whether a round has been published (or imported): its results may be final."""
    return tournament.rounds.exclude(status=Round.Status.PROPOSED).exists()


@transaction.atomic
def tournament_set_rated(*, tournament: Tournament, rated: bool) -> Tournament:
    """Make the tournament rated or unrated at any time, even after play has begun; the
    rating list is told once it is saved (``manage.py set_tournament_rated``, which then
    has the list rated at once).

    Refused (``TournamentError``) for rated when its matches are already on the list
    (``tournaments.copies``): a copy of a rated tournament."""
    copies.lock_rated_switches()
    tournament = Tournament.objects.get(pk=tournament.pk)
    if tournament.rated == rated:
        return tournament
    if rated and tournament.rehearsal:
        # For the administrator at the terminal, in English like the command.
        raise TournamentError(
            "It is a rehearsal, played by the computer to try the site out: a rehearsal is "
            "never rated."
        )
    refusal = copies.copy_refusal(tournament) if rated else None
    if refusal:
        raise TournamentError(refusal)
    tournament.rated = rated
    tournament.save(update_fields=["rated"])
    tournament_changed(tournament)
    # Its rounds join or leave the rating periods, and later ones move.
    final_results_changed(round=None)
    return tournament


def _next_round_number(tournament: Tournament) -> int:
    return tournament.rounds.filter(kind=Round.Kind.SWISS).count() + 1


def entries_closed(tournament: Tournament) -> bool:
    return tournament.status in (Tournament.Status.PLAYOFF, Tournament.Status.FINISHED)


def _check_open(tournament: Tournament) -> None:
    if entries_closed(tournament):
        raise TournamentError(_("The Swiss stage is over; entries can no longer change."))


def entry_add_refusal(tournament: Tournament) -> str | None:
    """Why no player can be registered now, or None."""
    if entries_closed(tournament):
        return _("The Swiss stage is over; entries can no longer change.")
    if tournament.rounds.filter(status=Round.Status.PROPOSED).exists():
        return _("Publish or re-pair the proposed round first; then add the late entry.")
    return None


def made_up_refusal(player: Player, tournament: Tournament) -> str | None:
    """Why ``player`` cannot enter ``tournament``: made up for a rehearsal (``Player.fictional``),
    they play in rehearsals only, so never on the rating list. None when they may."""
    if player.fictional and not tournament.rehearsal:
        return _("%(player)s was made up for a rehearsal and plays in rehearsals only.") % {
            "player": player
        }
    return None


@transaction.atomic
def entry_add(*, tournament: Tournament, player: Player, checked_in: bool = False) -> Entry:
    """Register a club member; after round 1 is paired this is a late entry from the next round."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refusal = entry_add_refusal(tournament)
    if refusal is not None:
        raise TournamentError(refusal)
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise TournamentError(_("%(player)s is already registered.") % {"player": player})
    refusal = made_up_refusal(player, tournament)
    if refusal is not None:
        raise TournamentError(refusal)
    first_round = _next_round_number(tournament)
    entry = Entry.objects.create(
        tournament=tournament,
        player=player,
        checked_in=checked_in or first_round > 1,
        first_round=first_round,
    )
    tournament_changed(tournament)
    return entry


@transaction.atomic
def entry_add_new_player(*, tournament: Tournament, name: str, club: str, email: str = "") -> Entry:
    """Add a new member to the club register and register them at once.

    The register's refusal (a field's value: ``ValidationError``) is this one's too."""
    try:
        player = player_create(name=name, club=club, email=email)
    except ValidationError as error:
        raise TournamentError(" ".join(error.messages), code="invalid") from error
    return entry_add(tournament=tournament, player=player, checked_in=True)


def _entry_set(entry: Entry, field: str, value: bool) -> Entry:
    """One flag of an entry (checked in, withdrawn) set while its tournament is open."""
    entry = Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
    _check_open(entry.tournament)
    setattr(entry, field, value)
    entry.save(update_fields=[field])
    tournament_changed(entry.tournament_id)
    return entry


@transaction.atomic
def entry_check_in(*, entry: Entry, checked_in: bool = True) -> Entry:
    return _entry_set(entry, "checked_in", checked_in)


@transaction.atomic
def entry_withdraw(*, entry: Entry, withdrawn: bool = True) -> Entry:
    """Withdraw a player (results stand, no more pairings), or bring them back."""
    return _entry_set(entry, "withdrawn", withdrawn)


@transaction.atomic
def entry_remove(*, entry: Entry) -> None:
    """Take back a registration; only before the player has been paired."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.seats.exists():
        raise TournamentError(
            _("%(player)s has been paired already; withdraw them instead.")
            % {"player": entry.player}
        )
    ForbiddenPair.objects.filter(first=entry).delete()
    ForbiddenPair.objects.filter(second=entry).delete()
    entry.delete()
    tournament_changed(entry.tournament_id)


@transaction.atomic
def forbidden_pair_add(
    *, tournament: Tournament, first: Entry, second: Entry, reason: str = ""
) -> ForbiddenPair:
    """Two entries the pairing must never put at one table."""
    if first.pk == second.pk:
        raise TournamentError(_("Choose two different players."))
    if {first.tournament_id, second.tournament_id} != {tournament.pk}:
        raise TournamentError(_("Both players must be entered in this tournament."))
    low, high = sorted((first, second), key=lambda entry: entry.pk)
    pair, created = ForbiddenPair.objects.get_or_create(
        tournament=tournament, first=low, second=high, defaults={"reason": reason.strip()[:150]}
    )
    if not created:
        raise TournamentError(_("These two are already kept apart."))
    return pair


@transaction.atomic
def forbidden_pair_remove(*, pair: ForbiddenPair) -> None:
    pair.delete()
