"""Practice games against the computer, as the engine saved them.

A member's games belong to their account, a guest's to their session; the
engine (``scoring``) plays and judges them, ``play.services`` takes the decisions.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PracticeGame(models.Model):
    """A practice game (or best-of-N match) against the computer, as the engine saved it.

    ``state`` is ``scoring.rules.match.Match.to_json()``: the seed and every decision,
    so any worker can load it and go on. The player sits in seat 0, the
    computer in seat 1. A member's games belong to their account; a guest's to
    their session (``session_key``, and the game ids kept in the session).
    ``version`` counts the player's decisions: a decision posted with an older
    version (a double click, an old tab) is refused. ``news_from`` is where, in
    the current game's events, the events of the latest decision begin.
    """

    class Level(models.TextChoices):
        EASY = "easy", _("easy")
        STANDARD = "standard", _("standard")
        EXPERT = "expert", _("expert")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="practice_games",
    )
    session_key = models.CharField(_("guest session"), max_length=40, blank=True, default="")
    level = models.CharField(_("computer level"), max_length=10, choices=Level.choices)
    best_of = models.PositiveSmallIntegerField(_("best of"), default=1)
    seed = models.BigIntegerField(_("seed"))
    self_count = models.BooleanField(_("count it yourself"), default=False)
    muggins = models.BooleanField(_("muggins"), default=False)
    state = models.JSONField(_("engine state"))
    version = models.PositiveIntegerField(_("decisions taken"), default=0)
    news_from = models.PositiveIntegerField(default=0, editable=False)
    finished = models.BooleanField(_("finished"), default=False)
    winner = models.PositiveSmallIntegerField(_("winner"), null=True, blank=True)
    record = models.JSONField(_("record"), null=True, blank=True)
    created = models.DateTimeField(_("started"), auto_now_add=True)
    updated = models.DateTimeField(_("last move"), auto_now=True)

    class Meta:
        verbose_name = _("practice game")
        verbose_name_plural = _("practice games")
        ordering = ["-updated", "-pk"]
        indexes = [
            models.Index(fields=["owner", "-updated"], name="practice_owner_updated"),
            models.Index(fields=["session_key", "updated"], name="practice_session_updated"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(owner__isnull=False) | ~models.Q(session_key=""),
                name="practice_has_owner_or_session",
            ),
            models.CheckConstraint(
                condition=models.Q(best_of__in=(1, 3, 5, 7)), name="practice_best_of_odd"
            ),
            models.CheckConstraint(
                condition=models.Q(level__in=("easy", "standard", "expert")),
                name="practice_level_known",
            ),
            models.CheckConstraint(
                condition=models.Q(finished=False, winner__isnull=True)
                | models.Q(finished=True, winner__in=(0, 1)),
                name="practice_winner_when_finished",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_level_display()} #{self.pk}"

    @property
    def is_match(self) -> bool:
        return self.best_of > 1
