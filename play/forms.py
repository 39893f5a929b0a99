"""Forms of the practice pages: starting a game, and the player's decisions.

A decision form carries the ``version`` the page was drawn at, so a stale or
doubled post is refused (``play.services.practice_decide``). The forms check
only the shape of a post (a card is a card, two cards for the crib); whether
the player holds the card is the engine's question, asked under a lock.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from play.models import PracticeGame
from play.services import SEED_LIMIT, Action, Decision
from scoring.rules.cards import Card, InvalidCardError
from scoring.rules.events import WINNING_SCORE

_NOT_A_CARD = _("%(value)s is not a card.")
LENGTHS = [(1, _("One game")), (3, _("A match, best of three"))]
"""A game's length, as a practice game and a challenge offer it."""


def _card(code: object) -> Card:
    """The card a post names (``5H``, ``TS``, ``10S``), as the engine reads it."""
    try:
        return Card.parse(str(code))
    except InvalidCardError:
        raise ValidationError(_NOT_A_CARD, code="invalid", params={"value": code}) from None


class CardField(forms.Field):
    """One card by its code; the engine's parser judges what is a card."""

    def to_python(self, value: Any) -> Card | None:
        return None if value in self.empty_values else _card(value)


class CardsField(forms.Field):
    """Cards by their codes, one value each (checkboxes of one name)."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[Card]:
        if value in self.empty_values:
            return []
        if not isinstance(value, list | tuple):
            raise ValidationError(_NOT_A_CARD, code="invalid", params={"value": value})
        return [_card(code) for code in value]


def seed_field_allowed() -> bool:
    """A fixed seed replays a deal: offered in development and in tests only."""
    return bool(getattr(settings, "PRACTICE_SEED_FIELD", settings.DEBUG))


class LengthAndCountForm(forms.Form):
    """How long a game is and who counts the show, as a practice game offers them to one
    player; a challenge words the same choices for two (``ChallengeForm``)."""

    best_of = forms.TypedChoiceField(
        label=_("Length"),
        choices=LENGTHS,
        coerce=int,
        initial=1,
        widget=forms.RadioSelect,
    )
    self_count = forms.BooleanField(
        label=_("Count it yourself"),
        required=False,
        help_text=_("In the show you enter the points of your hand and crib."),
    )
    muggins = forms.BooleanField(
        label=_("Muggins"),
        required=False,
        help_text=_("The computer claims the points you miss (you count yourself)."),
    )


SEAT_CHOICES = [
    (2, _("Two: you against the computer")),
    (3, _("Three: you against two computers, each for themself")),
    (4, _("Four: you and a computer partner against two computers")),
]
"""The practice table's sizes (``scoring.SEATINGS``); games of three and four are never rated."""
TARGET_CHOICES = [
    (121, _("121 points")),
    (91, _("91 points")),
    (61, _("61 points")),
]
"""A game's lengths (``scoring.TARGETS``): 121, or 91 and 61 for a shorter practice."""


class TableForm(LengthAndCountForm):
    """How many at the table, to how many points and the computer's level, beside the
    length and who counts: the options of two (a best-of-three match, muggins) are refused
    at three or four, and a match at 61 or 91 (docs/rules.md §7)."""

    # Not required: a post without them (an older page, a script) is the game of two to 121.
    seats = forms.TypedChoiceField(
        label=_("Players"),
        help_text=_(
            "At three or four each lays away one card, and the game is never rated; "
            "muggins and a match of three games are for two."
        ),
        choices=SEAT_CHOICES,
        coerce=int,
        initial=2,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("A table has two, three or four players.")},
    )
    target = forms.TypedChoiceField(
        label=_("Game to"),
        choices=TARGET_CHOICES,
        coerce=int,
        initial=121,
        required=False,
        empty_value=None,
        widget=forms.RadioSelect,
        error_messages={"invalid_choice": _("A game is played to 61, 91 or 121 points.")},
    )
    level = forms.ChoiceField(
        label=_("The computer plays"),
        choices=PracticeGame.Level.choices,
        initial=PracticeGame.Level.STANDARD,
        widget=forms.RadioSelect,
    )

    def clean(self) -> dict[str, Any]:
        """Refuse what only two can play: muggins (the engine's rule, docs/rules.md §7)
        and a best-of-three match, which is played to 121."""
        super().clean()
        data = self.cleaned_data
        for name, default in (("seats", 2), ("target", WINNING_SCORE)):
            if data.get(name) is None and name not in self.errors:
                data[name] = default
        seats, target = data.get("seats"), data.get("target")
        if seats in (3, 4) and data.get("muggins"):
            self.add_error(
                "muggins", _("Muggins is played by two only: leave it off at three or four.")
            )
        if data.get("best_of", 1) > 1 and (seats in (3, 4) or target in (61, 91)):
            self.add_error(
                "best_of",
                _("A match of three games is played by two to 121: choose one game."),
            )
        return data


class StartForm(TableForm):
    """A practice game: the computer's level, how many at the table, to how many points,
    and the options of two (a best-of-three match, muggins), refused at three or four."""

    field_order = ["level", "seats", "target", "best_of", "self_count", "muggins", "seed"]

    seed = forms.IntegerField(
        label=_("Seed (for development)"), required=False, min_value=0, max_value=SEED_LIMIT - 1
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not seed_field_allowed():
            del self.fields["seed"]


class MoveForm(forms.Form):
    """One decision: ``action`` with its ``cards`` (discard), ``card`` (play) or ``points``."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    action = forms.ChoiceField(choices=[(action.value, action.value) for action in Action])
    cards = CardsField(required=False)
    card = CardField(required=False)
    points = forms.IntegerField(label=_("Points"), required=False)

    def clean(self) -> dict[str, Any]:
        """The decision's shape; whether the rules allow it is the engine's to say."""
        super().clean()
        data = self.cleaned_data
        if data.get("action") == Action.PLAY and not data.get("card"):
            self.add_error("card", _("Choose a card to play."))
        return data

    @property
    def decision(self) -> Decision:
        data = self.cleaned_data
        action = Action(data["action"])
        if action is Action.DISCARD:
            return Decision(action, tuple(data["cards"]))
        if action is Action.PLAY:
            return Decision(action, (data["card"],))
        if action in (Action.COUNT, Action.MUGGINS):
            return Decision(action, points=data["points"])
        return Decision(action)

    def error_text(self) -> str:
        return " ".join(str(error) for errors in self.errors.values() for error in errors)


class SettingsForm(forms.Form):
    """The reader's deck: two colours (red and black) or four (each suit its own)."""

    four_colours = forms.BooleanField(required=False)
    next = forms.CharField(required=False, max_length=300)


class MemberField(forms.ModelChoiceField):  # type: ignore[type-arg]  # of User
    """A member to pick by their name and club in the register (else their username)."""

    def label_from_instance(self, obj: Any) -> str:
        player = getattr(obj, "player", None)
        return f"{player.name} ({player.club})" if player is not None else str(obj.get_username())


TABLE_CHOICES = [
    (2, _("Two: you against one member")),
    (3, _("Three: a table of three, each for themself")),
    (4, _("Four: two partnerships, partners sitting opposite")),
]
"""A challenge's table sizes: members take the seats, the computer any still free."""


class ChallengeForm(TableForm):
    """A challenge: to one member, or to anyone (an open challenge in the lobby); or a
    table of three or four, open in the lobby, whose free seats members take."""

    field_order = [
        "seats", "opponent", "best_of", "target", "self_count", "muggins", "rated", "level",
    ]  # fmt: skip

    opponent = MemberField(
        label=_("Whom to challenge"),
        queryset=None,
        required=False,
        empty_label=_("Anyone (an open challenge in the lobby)"),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_(
            "The match counts on the rating list once both of you have played the first "
            "hand, however it ends: played out, resigned, or claimed after 72 hours without "
            "a move (a loss for who stopped answering). At most 3 rated matches against the "
            "same member count in a month. Accepting agrees to it; the site counts every hand."
        ),
    )

    def __init__(self, *args: Any, members: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["self_count"].label = _("Count it yourselves")
        self.fields["self_count"].help_text = _(
            "In the show each of you enters the points of their hand and crib."
        )
        self.fields["muggins"].help_text = _(
            "You count yourselves, and after each count the other checks it and may call "
            "muggins to take the points missed."
        )
        seats = self.fields["seats"]
        assert isinstance(seats, forms.TypedChoiceField)
        seats.choices = TABLE_CHOICES
        seats.help_text = _(
            "A table of three or four is open in the lobby: members choose their seats, and "
            "you may begin once one has sat down; the computer plays the seats still free. "
            "One game, never rated, without muggins."
        )
        level = self.fields["level"]
        level.label = _("The computer, in a seat no member takes")
        level.required = False  # a challenge of two, posted by an older page, has none
        field = self.fields["opponent"]
        assert isinstance(field, MemberField)
        field.queryset = members

    def clean(self) -> dict[str, Any]:
        """Beside the table's refusals: a table is open to all and never rated, and a
        game to 61 or 91 is never rated."""
        data = super().clean()
        data["level"] = data.get("level") or PracticeGame.Level.STANDARD
        table = data.get("seats") in (3, 4)
        if table and data.get("opponent") is not None:
            self.add_error(
                "opponent",
                _("A table of three or four is open in the lobby: members choose their seats."),
            )
        if data.get("rated") and (table or data.get("target") in (61, 91)):
            self.add_error("rated", _("Only a game or match of two to 121 is rated: leave it off."))
        return data
