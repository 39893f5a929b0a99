"""The club's register of players.

A *player* is a person on the register; two players may share a name, and the
club or town tells them apart. A player may be linked to a site *account* (a
Django user) so they can report their own results. Players are deactivated,
never deleted, once they have results. A *made-up player* (``fictional``) plays in a
rehearsal only and is not a member: not on the register's lists, without an account.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(
        _("club or town"), max_length=120, help_text=_("Tells apart players with the same name.")
    )
    email = models.EmailField(_("e-mail"), blank=True)
    active = models.BooleanField(_("active"), default=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("account"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    joined = models.DateField(_("joined"), default=timezone.localdate)
    # When the latest invitation was made: part of the invitation token, so a new
    # invitation makes the older links invalid.
    invited_at = models.DateTimeField(_("invited"), null=True, blank=True, editable=False)
    # Made up for a rehearsal (``manage.py simulate_tournament --fictional``), not a member:
    # left out of the register's lists and pages, never given an account, never rated.
    fictional = models.BooleanField(
        _("made-up player"),
        default=False,
        db_default=False,  # also for rows written at an older state of the schema
        editable=False,
        help_text=_("Made up for a rehearsal: not a member of the club."),
    )
    # Case- and accent-folded "name club", kept by the services, so that a search
    # for "ostlund" finds "Östlund" on every database.
    search_key = models.CharField(max_length=250, editable=False, db_index=True, default="")

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "club", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(name=""), name="player_name_not_empty"),
            models.CheckConstraint(
                condition=models.Q(fictional=False) | models.Q(user__isnull=True),
                name="made_up_player_has_no_account",
                violation_error_message=_("A made-up player has no account."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name


class InvitationMail(models.Model):
    """One e-mail of an invitation link: queued, sent, or given up on (``club.mail``).

    Kept so that organisers see on the player's page whether the mail went out, and
    when it was last tried. ``letter`` is the mail as written (its link included) while
    it waits, so that a restore can queue it again (the task queue is not in a backup:
    docs/operating.md, "Backups"); it is emptied once the mail is sent or given up on.
    """

    class State(models.TextChoices):
        QUEUED = "queued", _("queued")
        SENT = "sent", _("sent")
        FAILED = "failed", _("not sent")

    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="invitation_mails", verbose_name=_("player")
    )
    to = models.EmailField(_("to"))
    state = models.CharField(_("state"), max_length=8, choices=State, default=State.QUEUED)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    queued_at = models.DateTimeField(_("queued"), default=timezone.now)
    tried_at = models.DateTimeField(_("last tried"), null=True, blank=True)
    retry_at = models.DateTimeField(_("next try"), null=True, blank=True)
    error = models.CharField(_("error"), max_length=300, blank=True)
    letter = models.JSONField(default=dict, blank=True, editable=False)

    class Meta:
        verbose_name = _("invitation e-mail")
        verbose_name_plural = _("invitation e-mails")
        ordering = ["-queued_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(state__in=["queued", "sent", "failed"]),
                name="invitation_mail_state_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.to} ({self.state})"
