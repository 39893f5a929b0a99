"""Practice games against the computer, as the engine saved them.

A member's games belong to their account, a guest's to their session; the
engine (``scoring``) plays and judges them, ``play.services`` takes the decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.db.models.deletion import Collector, ProtectedError
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class PracticeGame(models.Model):
    """A practice game (or best-of-N match) against the computer, as the engine saved it.

    ``state`` is ``scoring.rules.match.Match.to_json()``: the seed and every decision,
    so any worker can load it and go on. The player sits in seat 0, the
    computer in seat 1; with ``seats`` 3 or 4 a computer in each other seat (with four,
    seat 2 is the player's partner), a single game to ``target`` (61, 91 or 121), never
    rated. ``winner`` is the winning side (the player's is 0). A member's games belong
    to their account; a guest's to their session (``session_key``, and the game ids
    kept in the session).
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
    seats = models.PositiveSmallIntegerField(_("players at the table"), default=2)
    target = models.PositiveSmallIntegerField(_("game to"), default=121)
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
                | models.Q(finished=True, winner__in=(0, 1, 2)),
                name="practice_winner_when_finished",
            ),
            models.CheckConstraint(
                condition=models.Q(seats__in=(2, 3, 4), target__in=(61, 91, 121)),
                name="practice_seats_and_target_known",
            ),
            models.CheckConstraint(
                condition=models.Q(best_of=1) | models.Q(seats=2, target=121),
                name="practice_match_of_two_to_121",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_level_display()} #{self.pk}"

    @property
    def is_match(self) -> bool:
        return self.best_of > 1

    @property
    def partners(self) -> bool:
        """Whether the player has a partner (four seats: the computer across the table)."""
        return self.seats == 4


def _refuse_if_rated(sub_objs: Any, instead: str) -> None:
    """Refuse (``ProtectedError``) to delete what a rated match on the rating list hangs on:
    the list (ratings.bridge) would no longer be what its results give (docs/rating.md)."""
    rated = [game for game in sub_objs if game.rated and game.finished and game.both_played]
    if rated:
        raise ProtectedError(
            f"A member with rated matches on the rating list cannot be deleted: {instead}.",
            set(rated),
        )


def protect_rated_games(
    collector: Collector, field: models.Field[Any, Any], sub_objs: Any, using: str
) -> None:
    """A member's account is deleted: their games go with it, but not a rated match both
    took part in (refused: the member is deactivated or their account closed instead)."""
    _refuse_if_rated(sub_objs, "deactivate them or close their account instead")
    models.CASCADE(collector, field, sub_objs, using)


def keep_rated_results(
    collector: Collector, field: models.Field[Any, Any], sub_objs: Any, using: str
) -> None:
    """A member of the register is deleted: the games they sat down to forget them
    (``SET_NULL``), but not a rated match on the rating list, whose result is theirs
    (refused, as for their account)."""
    _refuse_if_rated(sub_objs, "deactivate them instead")
    models.SET_NULL(collector, field, sub_objs, using)


class OnlineGame(models.Model):
    """A game (or best-of-N match) between members, played on the site through the engine.

    ``state`` is the engine's match (``Match.to_json()``). The members sit in
    ``seat_0`` and ``seat_1`` (the challenger first). A *table* of ``seats`` three or four
    (``play.tables``) is one game to ``target`` (61, 91 or 121), never rated: members sit
    in ``seat_0`` to ``seat_3`` (with four, seats 0 and 2 against 1 and 3), and the
    computer at ``level`` plays the seats in ``computers`` (those left free when the game
    began, a null seat, and those their member left; the member's seat stays theirs to
    read as a spectator's). ``winner`` is the winning side (a partnership with four).
    ``version`` counts every change (a decision of either player, a resignation, a claim):
    the pages ask whether it moved (an ETag). ``moves_0`` to ``moves_3`` count each seat's
    own decisions: a decision posted with an older count of its seat (a double click, an
    old tab) is refused, while the other players' moves meanwhile do not make it stale.
    ``last_move`` is when the game last changed, for a claim after 72 hours; ``ended``
    says how a finished game ended. ``awaiting`` is the seats the game waits for ("0", "1",
    "01", "0123"; "" between games and at the end), as the engine said at the last change:
    the lists say whose move it is without replaying games.
    ``match`` is the tournament match the game plays, if any (``play.championship``):
    its seats are the match's, and anyone may watch it. An organiser who enters the
    match's result while it is played ends the game (``ended`` "organiser", won by the
    result's winner). ``both_played``: both players have taken part (the first hand of
    the first game has been counted), kept by ``play.online`` so that the rating list can
    leave out a match resigned before it.
    """

    class Ended(models.TextChoices):
        PLAYED = "played", _("played to the end")
        RESIGNED = "resigned", _("resigned")
        CLAIMED = "claimed", _("claimed after 72 hours without a move")
        ORGANISER = "organiser", _("ended by the organisers' result")

    seat_0 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("first player"),
        on_delete=protect_rated_games,
        related_name="online_games_first",
    )
    seat_1 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("second player"),
        on_delete=protect_rated_games,
        null=True,
        blank=True,
        related_name="online_games_second",
    )
    seat_2 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("third player"),
        on_delete=models.CASCADE,  # a table is never rated
        null=True,
        blank=True,
        related_name="online_games_third",
    )
    seat_3 = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("fourth player"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="online_games_fourth",
    )
    # The members of the register who sat down, fixed when the game began: a rated result
    # is theirs for good, whoever the accounts are given to later (ratings.bridge reads
    # these, not the accounts' players today; docs/rating.md).
    player_0 = models.ForeignKey(
        "club.Player",
        verbose_name=_("first member"),
        on_delete=keep_rated_results,
        null=True,
        blank=True,
        related_name="+",
        editable=False,
    )
    player_1 = models.ForeignKey(
        "club.Player",
        verbose_name=_("second member"),
        on_delete=keep_rated_results,
        null=True,
        blank=True,
        related_name="+",
        editable=False,
    )
    best_of = models.PositiveSmallIntegerField(_("best of"), default=1)
    seats = models.PositiveSmallIntegerField(_("players at the table"), default=2)
    target = models.PositiveSmallIntegerField(_("game to"), default=121)
    level = models.CharField(
        _("computer level"), max_length=10, choices=PracticeGame.Level.choices, blank=True
    )
    computers = models.CharField(
        _("seats the computer plays"), max_length=4, blank=True, default="", editable=False
    )
    self_count = models.BooleanField(_("count it yourself"), default=False)
    muggins = models.BooleanField(_("muggins"), default=False)
    rated = models.BooleanField(
        _("rated"), default=False, help_text=_("The match counts on the rating list.")
    )
    # Both players have taken part (play.online.took_part): the first game's first hand
    # has been counted. A rated match counts only from then (ratings.bridge).
    both_played = models.BooleanField(_("both have played"), default=False, editable=False)
    seed = models.BigIntegerField(_("seed"))
    state = models.JSONField(_("engine state"))
    version = models.PositiveIntegerField(_("changes"), default=0)
    moves_0 = models.PositiveIntegerField(default=0, editable=False)
    moves_1 = models.PositiveIntegerField(default=0, editable=False)
    moves_2 = models.PositiveIntegerField(default=0, editable=False)
    moves_3 = models.PositiveIntegerField(default=0, editable=False)
    awaiting = models.CharField(max_length=4, blank=True, default="", editable=False)
    finished = models.BooleanField(_("finished"), default=False)
    ended = models.CharField(_("ended"), max_length=10, choices=Ended.choices, blank=True)
    winner = models.PositiveSmallIntegerField(_("winner"), null=True, blank=True)
    record = models.JSONField(_("record"), null=True, blank=True)
    created = models.DateTimeField(_("started"), auto_now_add=True)
    last_move = models.DateTimeField(_("last move"))
    match = models.OneToOneField(
        "tournaments.Match",
        verbose_name=_("tournament match"),
        on_delete=models.PROTECT,  # its result came from this game
        null=True,
        blank=True,
        related_name="online_game",
    )

    class Meta:
        verbose_name = _("online game")
        verbose_name_plural = _("online games")
        ordering = ["-last_move", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(seat_0=models.F("seat_1")), name="online_two_members"
            ),
            models.CheckConstraint(
                condition=models.Q(best_of__in=(1, 3, 5, 7)), name="online_best_of_odd"
            ),
            models.CheckConstraint(
                condition=models.Q(rated=False)
                | models.Q(match__isnull=True, self_count=False, muggins=False),
                name="online_rated_by_the_rules",
            ),
            models.CheckConstraint(
                condition=models.Q(finished=False, winner__isnull=True, ended="")
                | models.Q(
                    finished=True,
                    winner__in=(0, 1, 2),
                    ended__in=("played", "resigned", "claimed", "organiser"),
                ),
                name="online_winner_when_finished",
            ),
            # Two members, or a table of three or four: one game, never rated, no muggins,
            # with a computer level when the computer plays a seat (docs/rules.md §7).
            models.CheckConstraint(
                condition=models.Q(
                    seats=2,
                    seat_1__isnull=False,
                    seat_2__isnull=True,
                    seat_3__isnull=True,
                    computers="",
                )
                | models.Q(seats=3, seat_3__isnull=True, best_of=1, rated=False, muggins=False)
                | models.Q(seats=4, best_of=1, rated=False, muggins=False),
                name="online_seats_of_a_table",
            ),
            models.CheckConstraint(
                condition=models.Q(target=121)
                | models.Q(target__in=(61, 91), best_of=1, rated=False),
                name="online_target_known",
            ),
            models.CheckConstraint(
                condition=models.Q(match__isnull=True) | models.Q(seats=2, target=121),
                name="online_tournament_match_of_two",
            ),
            models.CheckConstraint(
                condition=models.Q(computers="") | ~models.Q(level=""),
                name="online_computer_has_a_level",
            ),
            models.CheckConstraint(
                condition=models.Q(seat_2__isnull=True)
                | (~models.Q(seat_2=models.F("seat_0")) & ~models.Q(seat_2=models.F("seat_1"))),
                name="online_third_member_another",
            ),
            models.CheckConstraint(
                condition=models.Q(seat_3__isnull=True)
                | (
                    ~models.Q(seat_3=models.F("seat_0"))
                    & ~models.Q(seat_3=models.F("seat_1"))
                    & ~models.Q(seat_3=models.F("seat_2"))
                ),
                name="online_fourth_member_another",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk}"

    @property
    def is_match(self) -> bool:
        return self.best_of > 1

    @property
    def is_table(self) -> bool:
        """Whether three or four sit at the table (``play.tables``)."""
        return self.seats > 2

    @property
    def pair(self) -> tuple[User, User]:
        """The two members of a game of two, seat 0 first (``ValueError`` at a table)."""
        if self.seat_1 is None or self.is_table:
            raise ValueError(f"game {self.pk} is a table, not a game of two")
        return self.seat_0, self.seat_1

    @property
    def members(self) -> tuple[int | None, ...]:
        """Each seat's member's user id (None: a seat the computer had from the start)."""
        ids = (self.seat_0_id, self.seat_1_id, self.seat_2_id, self.seat_3_id)
        return ids[: self.seats]

    def computer_plays(self, seat: int) -> bool:
        """Whether the computer plays ``seat`` (free at the start, or left by its member)."""
        return str(seat) in self.computers

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` plays (0 to 3), or None for anyone else and for a member
        who left the table (the computer plays their seat)."""
        if user_id is None:
            return None
        for seat, member in enumerate(self.members):
            if member == user_id and not self.computer_plays(seat):
                return seat
        return None

    def sat_at(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` sat down in, whether they still play it or left it."""
        if user_id is None:
            return None
        return next((seat for seat, m in enumerate(self.members) if m == user_id), None)

    def moves_of(self, seat: int) -> int:
        return (self.moves_0, self.moves_1, self.moves_2, self.moves_3)[seat]

    def count_move(self, seat: int) -> None:
        """One more decision taken by ``seat``."""
        name = f"moves_{seat}"
        setattr(self, name, getattr(self, name) + 1)

    def waits_for(self, user_id: int | None) -> bool:
        """Whether the game waits for the member ``user_id``'s decision."""
        seat = self.seat_of(user_id)
        return seat is not None and str(seat) in self.awaiting


class Challenge(models.Model):
    """A member's invitation to play: to one member, or open in the lobby to any.

    Accepting it starts the game (``game``); the challenged member may decline it
    and the challenger withdraw it while it is open. With ``match`` it is a
    *proposal* to play that tournament match on the site, to the opponent, by the
    tournament's rules (the engine counts; no muggins). A *rated* challenge is one both
    agree to have rated: the challenger by making it, the other by accepting it; its
    match, played to its end or resigned, counts on the rating list. A proposal still open
    when its match is decided otherwise, or its round closed, *lapses*.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        WITHDRAWN = "withdrawn", _("withdrawn")
        LAPSED = "lapsed", _("lapsed")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("challenger"),
        on_delete=models.CASCADE,
        related_name="challenges_made",
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("challenged member"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
        help_text=_("Empty: an open challenge that any member may accept."),
    )
    best_of = models.PositiveSmallIntegerField(_("best of"), default=1)
    seats = models.PositiveSmallIntegerField(_("players at the table"), default=2)
    target = models.PositiveSmallIntegerField(_("game to"), default=121)
    level = models.CharField(
        _("computer level"),
        max_length=10,
        choices=PracticeGame.Level.choices,
        default=PracticeGame.Level.STANDARD,
        help_text=_("How the computer plays the seats still free when the game begins."),
    )
    self_count = models.BooleanField(_("count it yourself"), default=False)
    muggins = models.BooleanField(_("muggins"), default=False)
    rated = models.BooleanField(
        _("rated"), default=False, help_text=_("The match counts on the rating list.")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    game = models.OneToOneField(
        OnlineGame,
        verbose_name=_("game"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="challenge",
    )
    match = models.ForeignKey(
        "tournaments.Match",
        verbose_name=_("tournament match"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="online_proposals",
        help_text=_("A proposal to play this tournament match on the site."),
    )
    created = models.DateTimeField(_("made"), auto_now_add=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["status", "challenged"], name="challenge_status_to")]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(challenger=models.F("challenged")),
                name="challenge_not_yourself",
            ),
            models.CheckConstraint(
                condition=models.Q(best_of__in=(1, 3))
                | models.Q(match__isnull=False, best_of__in=(5, 7)),
                name="challenge_best_of",
            ),
            models.CheckConstraint(
                condition=models.Q(match__isnull=True)
                | models.Q(challenged__isnull=False, self_count=False, muggins=False),
                name="proposal_to_the_opponent_by_the_rules",
            ),
            # A rated match is played by the club's rules: the engine counts, no muggins
            # (docs/rules.md §5); a tournament match is rated with its tournament.
            models.CheckConstraint(
                condition=models.Q(rated=False)
                | models.Q(match__isnull=True, self_count=False, muggins=False),
                name="challenge_rated_by_the_rules",
            ),
            models.UniqueConstraint(
                fields=["match"],
                condition=models.Q(status="open"),
                name="one_open_proposal_a_match",
                violation_error_message=_("This match has already been proposed."),
            ),
            # A table of three or four: open in the lobby, one game, never rated, no
            # muggins (docs/rules.md §7); a game to 61 or 91 is one game, never rated.
            models.CheckConstraint(
                condition=models.Q(seats=2)
                | models.Q(
                    seats__in=(3, 4),
                    challenged__isnull=True,
                    match__isnull=True,
                    best_of=1,
                    rated=False,
                    muggins=False,
                ),
                name="challenge_table_open_and_unrated",
            ),
            models.CheckConstraint(
                condition=models.Q(target=121)
                | models.Q(target__in=(61, 91), best_of=1, rated=False, match__isnull=True),
                name="challenge_target_known",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk}"

    @property
    def is_table(self) -> bool:
        return self.seats > 2


class ChallengeSeat(models.Model):
    """A member sitting down at a table challenge's free ``seat`` (1 to 3) before its game
    begins; they may stand up again until then (``play.tables``)."""

    challenge = models.ForeignKey(
        Challenge, verbose_name=_("challenge"), on_delete=models.CASCADE, related_name="sitting"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("member"),
        on_delete=models.CASCADE,
        related_name="table_seats",
    )
    sat_down = models.DateTimeField(_("sat down"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat taken")
        verbose_name_plural = _("seats taken")
        ordering = ["seat"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(seat__in=(1, 2, 3)), name="challenge_seat_known"
            ),
            models.UniqueConstraint(
                fields=["challenge", "seat"],
                name="one_member_a_seat",
                violation_error_message=_("That seat has been taken."),
            ),
            models.UniqueConstraint(
                fields=["challenge", "member"],
                name="one_seat_a_member",
                violation_error_message=_("You already sit at this table."),
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.challenge}"


class GameReview(models.Model):
    """The engine's review of a finished practice game or game between members (issue 27,
    docs/review.md): every decision judged, stored once so that pages only read it.

    Exactly one of ``practice`` and ``online`` is set. ``review`` is the engine's
    ``GameReview.as_json()`` of version ``version`` (``scoring.review.REVIEW_VERSION``): a
    review of an older version is computed again. The per-seat figures are the review's
    totals, copied out for a member's accuracy chart (``play.reviews.member_accuracy``);
    ``member_0`` to ``member_3`` are the members in the seats (a practice game: its owner in
    seat 0, nobody for the computer; a table of members: nobody in a seat the computer had
    from the start), ``decisions_0`` to ``decisions_3`` how many discards and plays each seat
    was judged on. ``played`` is when the game ended.
    """

    practice = models.OneToOneField(
        PracticeGame,
        verbose_name=_("practice game"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="review",
    )
    online = models.OneToOneField(
        OnlineGame,
        verbose_name=_("online game"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="review",
    )
    version = models.PositiveIntegerField(_("review version"))
    review = models.JSONField(_("review"))
    member_0 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    member_1 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    member_2 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    member_3 = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    decisions_0 = models.PositiveIntegerField(default=0)
    decisions_1 = models.PositiveIntegerField(default=0)
    decisions_2 = models.PositiveIntegerField(default=0)
    decisions_3 = models.PositiveIntegerField(default=0)
    accuracy_0 = models.FloatField(default=0)
    accuracy_1 = models.FloatField(default=0)
    accuracy_2 = models.FloatField(default=0)
    accuracy_3 = models.FloatField(default=0)
    discard_accuracy_0 = models.FloatField(default=0)
    discard_accuracy_1 = models.FloatField(default=0)
    discard_accuracy_2 = models.FloatField(default=0)
    discard_accuracy_3 = models.FloatField(default=0)
    play_accuracy_0 = models.FloatField(default=0)
    play_accuracy_1 = models.FloatField(default=0)
    play_accuracy_2 = models.FloatField(default=0)
    play_accuracy_3 = models.FloatField(default=0)
    lost_0 = models.FloatField(default=0)
    lost_1 = models.FloatField(default=0)
    lost_2 = models.FloatField(default=0)
    lost_3 = models.FloatField(default=0)
    played = models.DateTimeField(_("played"))
    computed_at = models.DateTimeField(_("computed"), auto_now=True)

    class Meta:
        verbose_name = _("game review")
        verbose_name_plural = _("game reviews")
        indexes = [
            models.Index(fields=["member_0", "-played"], name="review_member_0_played"),
            models.Index(fields=["member_1", "-played"], name="review_member_1_played"),
            models.Index(fields=["member_2", "-played"], name="review_member_2_played"),
            models.Index(fields=["member_3", "-played"], name="review_member_3_played"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(practice__isnull=False, online__isnull=True)
                | models.Q(practice__isnull=True, online__isnull=False),
                name="review_of_one_game",
            ),
        ]

    def __str__(self) -> str:
        return f"review of {self.practice or self.online}"
