"""The club's rating list: rating periods, each player's rating after each, the current list.

Terms (``ratings.glicko`` and ``ratings.periods`` define the rest): a *rating period*
is one tournament round with at least one rated match, at its *position* in the
order the periods are rated. A *period rating* is a player's rating after a period
in which they played: the rating history. A player's *list rating* is their place on
the current list: their rating after the last period they played in (the deviation
has grown since by every period they missed: ``ratings.selectors`` says it as of now).

Everything here is a function of the final results: ``ratings.services`` alone writes
it, rebuilding it from a period onward, and recomputing it from scratch gives the same
rows. The rows are never edited by hand.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Player
from tournaments.models import Round


class RatingList(models.Model):
    """The list as a whole: one row, locked while the list is rated again (so results
    saved at the same moment are rated one after the other), and a version that moves
    with every change to the list."""

    version = models.PositiveIntegerField(default=0)
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("rating list")
        constraints = [models.CheckConstraint(condition=Q(id=1), name="one_rating_list")]

    def __str__(self) -> str:
        return f"{self._meta.verbose_name} {self.version}"


class RatingPeriod(models.Model):
    """A rating period: a tournament round, or a month of rated matches played on the site
    (``month``: its first day); its position, its date and its rated matches.

    A round's date is the day it was published, within the tournament's days; a month's,
    the day of its latest rated match.
    """

    # A rated round is the club's history: it is never deleted while it is rated.
    round = models.OneToOneField(
        Round, on_delete=models.PROTECT, related_name="rating_period", null=True, blank=True
    )
    month = models.DateField(_("month"), null=True, blank=True, unique=True)
    position = models.PositiveIntegerField(unique=True)
    date = models.DateField(_("date"))
    matches = models.PositiveSmallIntegerField(_("rated matches"))

    class Meta:
        verbose_name = _("rating period")
        verbose_name_plural = _("rating periods")
        ordering = ["position"]
        constraints = [
            models.CheckConstraint(condition=Q(position__gte=1), name="rating_period_position"),
            models.CheckConstraint(condition=Q(matches__gte=1), name="rating_period_has_matches"),
            models.CheckConstraint(
                condition=Q(round__isnull=False, month__isnull=True)
                | Q(round__isnull=True, month__isnull=False),
                name="rating_period_a_round_or_a_month",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position}: {self.round or self.month}"


class RatedValues(models.Model):
    """What a player's rating says after a period: Glicko-2's three numbers, and the
    matches and wins rated so far (that period's included)."""

    rating = models.FloatField(_("rating"))
    deviation = models.FloatField(_("deviation"))
    volatility = models.FloatField(_("volatility"))
    matches = models.PositiveIntegerField(_("rated matches"))
    wins = models.PositiveIntegerField(_("wins"))

    class Meta:
        abstract = True
        constraints = [
            models.CheckConstraint(condition=Q(deviation__gt=0), name="%(class)s_deviation"),
            models.CheckConstraint(condition=Q(volatility__gt=0), name="%(class)s_volatility"),
            models.CheckConstraint(condition=Q(matches__gte=1), name="%(class)s_has_matches"),
            models.CheckConstraint(
                condition=Q(wins__lte=F("matches")), name="%(class)s_wins_of_matches"
            ),
        ]


class PeriodRating(RatedValues):
    """A player's rating after a period in which they played (one point of their history),
    and the position of the period they last played in before it (``previous_position``;
    None: this is their first), so a re-rate from a period on finds how its players stood
    before it in their rows from it on, without reading the history before it."""

    period = models.ForeignKey(RatingPeriod, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="period_ratings")
    previous_position = models.PositiveIntegerField(null=True, blank=True)

    class Meta(RatedValues.Meta):
        verbose_name = _("period rating")
        verbose_name_plural = _("period ratings")
        ordering = ["period", "player"]
        constraints = [
            *RatedValues.Meta.constraints,
            # Player first: the index also finds a player's history.
            models.UniqueConstraint(fields=["player", "period"], name="rated_once_a_period"),
            models.CheckConstraint(
                condition=Q(previous_position__gte=1), name="period_rating_previous_position"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} · {self.period.position}"


class ListRating(RatedValues):
    """A player's line on the current list: their rating after the last period they
    played in (``period``)."""

    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="list_rating")
    period = models.ForeignKey(RatingPeriod, on_delete=models.PROTECT, related_name="+")

    class Meta(RatedValues.Meta):
        verbose_name = _("list rating")
        verbose_name_plural = _("list ratings")
        ordering = ["-rating", "deviation", "player"]
        indexes = [models.Index(fields=["-rating"], name="list_rating_order")]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.0f}"


class PendingRerate(models.Model):
    """A final result announced and not yet rated: the round it belongs to, or the month
    of a rated online match (neither: a tournament's results joined, left or moved among
    the rated ones). Written in the result's own transaction, so it exists if and only if
    the result was saved; the re-rate that takes it into account deletes it in its own
    (``ratings.services.ratings_rerate``). While any is left, the list is updating."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    month = models.DateField(null=True, blank=True)
    announced_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("pending re-rate")
        verbose_name_plural = _("pending re-rates")

    def __str__(self) -> str:
        return f"{self.round_id or self.month or '*'} @ {self.announced_at:%Y-%m-%d %H:%M:%S}"
