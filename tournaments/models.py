"""Tournaments: entries, rounds, matches, games, reports and their audit log.

Terms: an *entry* is a player's place in one tournament (checked in, withdrawn,
or a late entry). A *round* is Swiss (numbered from 1) or a play-off round.
A *match* is best of N games between two *seats* (0 and 1), or a *bye* with one
seat. A *game* records its first dealer, its winner and the loser's score; the
winner always has 121. A *report* is what one player says happened; when both
agree (the opponent confirms) the match is final; a dispute goes to the
organisers, whose corrections are kept in the *result log*.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from club.models import Player
from tournaments.tiebreaks import DEFAULT_CHAIN, validate_chain

# Private link keys: 14 characters that are easy to read off a slip and type (no 0/o,
# 1/l/i), about 69 bits, so they cannot be guessed.
PRIVATE_KEY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
PRIVATE_KEY_LENGTH = 14


def new_private_key() -> str:
    return "".join(secrets.choice(PRIVATE_KEY_ALPHABET) for _ in range(PRIVATE_KEY_LENGTH))


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_CHAIN)


class Seeding(models.TextChoices):
    """How a tournament pairs round 1 (``competition.pairing``); later rounds are Swiss.

    By rating: the top half of the club's rating list order against the bottom half
    (``competition.seeding``).
    """

    RANDOM_DRAW = "random_draw", _("Random draw")
    BY_RATING = "by_rating", _("By rating: the top half against the bottom half")


class Tournament(models.Model):
    Seeding = Seeding

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        SWISS = "swiss", _("Swiss rounds")
        PLAYOFF = "playoff", _("Play-off")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    year = models.PositiveSmallIntegerField(_("year"))
    venue = models.CharField(_("venue"), max_length=150, blank=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    is_championship = models.BooleanField(_("the year's championship"), default=False)
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), default=6)
    best_of = models.PositiveSmallIntegerField(_("games per match (best of)"), default=3)
    playoff_size = models.PositiveSmallIntegerField(_("play-off size"), null=True, blank=True)
    playoff_best_of = models.PositiveSmallIntegerField(
        _("play-off games per match (best of)"), default=3
    )
    points_win = models.PositiveSmallIntegerField(_("game points for a win"), default=2)
    points_skunk = models.PositiveSmallIntegerField(_("game points for a skunk"), default=3)
    points_double_skunk = models.PositiveSmallIntegerField(
        _("game points for a double skunk"), default=4
    )
    tiebreaks = models.JSONField(
        _("tie-break order"), default=default_tiebreaks, validators=[validate_chain]
    )
    bye_game_points = models.PositiveSmallIntegerField(_("game points for a bye"), default=4)
    seed = models.BigIntegerField(_("draw seed"))
    seeding = models.CharField(
        _("round 1 pairing"), max_length=20, choices=Seeding.choices, default=Seeding.RANDOM_DRAW
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION
    )
    # Whether its final matches count on the rating list (ratings.bridge, docs/rating.md):
    # a rehearsal or an imported copy does not.
    rated = models.BooleanField(
        _("rated"),
        default=True,
        help_text=_(
            "Its matches count on the club's rating list. Leave it off for a rehearsal or a "
            "friendly tournament."
        ),
    )
    # Played by the computer to try the site out (``manage.py simulate_tournament``): never
    # rated, never the year's championship (the constraints below), marked wherever it is
    # shown and listed after the real ones (``tournaments.marks``).
    rehearsal = models.BooleanField(
        _("rehearsal"),
        default=False,
        db_default=False,  # also for rows written at an older state of the schema
        editable=False,
        help_text=_(
            "Played by the computer with manage.py simulate_tournament: never rated, and marked "
            "as a rehearsal wherever it is shown."
        ),
    )
    champion = models.ForeignKey(
        "Entry",
        verbose_name=_("champion"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Bumped by every service that changes what the tournament's pages or documents
    # show (tournaments.services.changes): the pages' ETag and the PDF cache key.
    results_version = models.PositiveIntegerField(default=1, editable=False)
    changed_at = models.DateTimeField(default=timezone.now, editable=False)
    # Two parts of it (docs/operating.md, "Versions a page keys on"): every change that is
    # not a result (a name, an entry, a pairing, a publication, a setting) moves
    # ``setup_version``; a result becoming final or a final one corrected moves
    # ``final_version``. The standings key on both; a report awaiting its confirmation
    # moves neither.
    setup_version = models.PositiveIntegerField(default=1, editable=False)
    final_version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-year", "-starts_on", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["year"],
                condition=Q(is_championship=True),
                name="one_championship_a_year",
                violation_error_message=_("This year already has a championship."),
            ),
            models.CheckConstraint(
                condition=Q(best_of__in=[1, 3, 5, 7]) & Q(playoff_best_of__in=[1, 3, 5, 7]),
                name="tournament_best_of_odd",
            ),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="tournament_dates_in_order"
            ),
            models.CheckConstraint(condition=Q(swiss_rounds__gte=1), name="tournament_has_rounds"),
            models.CheckConstraint(
                condition=Q(points_skunk__gte=models.F("points_win"))
                & Q(points_double_skunk__gte=models.F("points_skunk")),
                name="tournament_skunk_points_grow",
            ),
            models.CheckConstraint(
                condition=Q(playoff_size__isnull=True) | Q(playoff_size__gte=2),
                name="tournament_playoff_size",
            ),
            models.CheckConstraint(
                condition=Q(seeding__in=Seeding.values), name="tournament_seeding_known"
            ),
            models.CheckConstraint(
                condition=Q(rehearsal=False) | Q(rated=False),
                name="rehearsal_never_rated",
                violation_error_message=_("A rehearsal is never rated."),
            ),
            models.CheckConstraint(
                condition=Q(rehearsal=False) | Q(is_championship=False),
                name="rehearsal_never_championship",
                violation_error_message=_("A rehearsal is never the year's championship."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player's place in one tournament, with the private link that opens their own page.

    ``private_key`` is the unguessable part of the player's private link (no account
    needed); empty when an organiser has revoked it. ``playoff_seed`` is the player's
    seed in the play-off (1 = top; ``competition.playoff``), empty for the others.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    first_round = models.PositiveSmallIntegerField(_("first round"), default=1)
    private_key = models.CharField(
        _("private link key"),
        max_length=32,
        unique=True,
        null=True,
        blank=True,
        editable=False,
        default=new_private_key,
    )
    playoff_seed = models.PositiveSmallIntegerField(
        _("play-off seed"), null=True, blank=True, editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["player__name", "player__club"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player"),
            models.UniqueConstraint(
                fields=["tournament", "playoff_seed"], name="playoff_seed_once"
            ),
            models.CheckConstraint(
                condition=Q(playoff_seed__isnull=True) | Q(playoff_seed__gte=1),
                name="playoff_seed_from_one",
            ),
        ]

    def __str__(self) -> str:
        return str(self.player)


class ForbiddenPair(models.Model):
    """Two entries the organisers never pair (family members, say)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=150, blank=True)

    class Meta:
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="forbidden_pair_once"),
            models.CheckConstraint(
                condition=Q(first__lt=models.F("second")), name="forbidden_pair_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first} – {self.second}"


class Round(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        PLAYOFF = "playoff", _("Play-off")

    class Status(models.TextChoices):
        PROPOSED = "proposed", _("Proposed")
        PLAYING = "playing", _("Being played")
        CLOSED = "closed", _("Closed")

    # A tournament that has rounds is never deleted: its results are the club's history.
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SWISS)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PROPOSED)
    seed = models.BigIntegerField(_("pairing seed"))
    explanation = models.JSONField(default=dict, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Moved with the tournament's results_version when a change touches this round (a
    # result) or may touch any (everything else): what is kept of the rounds before
    # another, such as the players' records, keys on the versions of those rounds.
    results_version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class Match(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Not reported")
        IN_PLAY = "in_play", _("In play")
        ONLINE = "online", _("Being played on the site")
        REPORTED = "reported", _("Reported, awaiting confirmation")
        DISPUTED = "disputed", _("Disputed")
        FINAL = "final", pgettext_lazy("match status", "Final")  # not "the final" of a play-off

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    is_bye = models.BooleanField(_("bye"), default=False)
    best_of = models.PositiveSmallIntegerField(_("best of"), default=3)
    bracket_slot = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    first_dealer = models.PositiveSmallIntegerField(null=True, blank=True)  # seat 0 or 1
    winner = models.PositiveSmallIntegerField(null=True, blank=True)  # seat 0 or 1
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reported_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    dispute_note = models.CharField(max_length=500, blank=True)
    # Counts the changes to the reported result; a confirmation names the version it saw.
    report_version = models.PositiveIntegerField(default=0)
    # Moved by every change to what the match's page or its row of the pairings shows (a
    # report, a confirmation, a proposal to play it on the site, the games' records):
    # the page's ETag and the row's cached fragment key on it (services.changes).
    version = models.PositiveIntegerField(default=1, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "is_bye", "table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_match_per_table"),
            models.UniqueConstraint(
                fields=["round", "bracket_slot"], name="one_match_per_bracket_slot"
            ),
            models.CheckConstraint(
                condition=Q(first_dealer__in=[0, 1]) | Q(first_dealer__isnull=True),
                name="match_first_dealer_seat",
            ),
            models.CheckConstraint(
                condition=Q(winner__in=[0, 1]) | Q(winner__isnull=True), name="match_winner_seat"
            ),
            models.CheckConstraint(
                condition=~Q(status="final") | Q(winner__isnull=False),
                name="final_match_has_winner",
            ),
            models.CheckConstraint(
                condition=Q(is_bye=True) | Q(table__isnull=False), name="match_has_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.table or '-'}"


class Seat(models.Model):
    """A player's place in a match; the round is repeated so a player sits once a round."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="player_once_a_round"),
            models.UniqueConstraint(fields=["match", "seat"], name="seat_once_a_match"),
            models.CheckConstraint(condition=Q(seat__in=[0, 1]), name="seat_zero_or_one"),
        ]

    def __str__(self) -> str:
        return f"{self.match} · {self.seat}"


class Game(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()  # seat that dealt first in this game
    winner = models.PositiveSmallIntegerField()  # seat
    loser_score = models.PositiveSmallIntegerField()
    record = models.JSONField(
        null=True, blank=True
    )  # the engine's game record, when played on the site

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_once"),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=7), name="game_number_range"
            ),
            models.CheckConstraint(condition=Q(loser_score__lte=120), name="loser_below_121"),
            models.CheckConstraint(
                condition=Q(dealer__in=[0, 1]) & Q(winner__in=[0, 1]), name="game_seats"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} · {self.number}"


class ResultChange(models.Model):
    """The audit log: every change to a match's result, who made it and when."""

    class Action(models.TextChoices):
        REPORTED = "reported", _("reported")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        ENTERED = "entered", _("entered by an organiser")
        SAVED = "saved", _("games saved")
        SETTLED = "settled", _("corrected by an organiser")
        IMPORTED = "imported", _("imported")
        ONLINE_STARTED = "online_started", _("started on the site")
        ONLINE = "online", _("played on the site")
        ONLINE_STOPPED = "online_stopped", _("stopped on the site")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # The person who acted: the account's player, or the entry's player behind a private link.
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=20, choices=Action.choices)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)
    note = models.CharField(max_length=500, blank=True)

    class Meta:
        verbose_name = _("result change")
        verbose_name_plural = _("result log")
        ordering = ["match", "at", "pk"]

    def __str__(self) -> str:
        return f"{self.match} · {self.action}"

    @staticmethod
    def _text(snapshot: dict[str, Any] | None) -> str:
        if not snapshot or not snapshot.get("games"):
            return "–"
        games = ", ".join(
            f"121–{score}" if winner == 0 else f"{score}–121" for winner, score in snapshot["games"]
        )
        status = snapshot.get("status")
        return f"{games} ({Match.Status(status).label})" if status in Match.Status.values else games

    @property
    def who(self) -> str:
        """The person's name (never a username when a name is known)."""
        if self.player is not None:
            return self.player.name
        if self.user is not None:
            return self.user.get_full_name() or self.user.get_username()
        if self.action == self.Action.ONLINE:
            return gettext("the site")
        return "–"

    @property
    def before_text(self) -> str:
        return self._text(self.before)

    @property
    def after_text(self) -> str:
        return self._text(self.after)
