"""Forms of the tournament pages: they parse and check input; the services save."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from scoring.rules.match import GamePoints
from tournaments import tiebreaks
from tournaments.models import Entry, Tournament
from tournaments.services.tournaments import (
    TOURNAMENT_FIELDS,
    rated_fixed_reason,
    tournament_started,
)

SCHEME_CHOICES = [
    ("standard", _("2 / 3 / 4 (win, skunk, double skunk)")),
    ("acc", _("ACC: 2 / 3 / 3")),
    ("one", _("1 point per game")),
    ("custom", _("Own numbers")),
]
TIEBREAK_SLOTS = len(tiebreaks.TIEBREAKS)


def scheme_name(win: int, skunk: int, double: int) -> str:
    for name, scheme in GamePoints.PRESETS.items():
        if (scheme.win, scheme.skunk, scheme.double_skunk) == (win, skunk, double):
            return name
    return "custom"


def labelled_errors(form: forms.Form, name: str) -> str:
    """A field's errors as one message for the top of the page: "Label: error"."""
    return " ".join(f"{form[name].label}: {error}" for error in form.errors[name])


class DateInput(forms.DateInput):
    input_type = "date"


class TournamentForm(forms.ModelForm[Tournament]):
    scheme = forms.ChoiceField(label=_("Game points"), choices=SCHEME_CHOICES, initial="standard")

    class Meta:
        model = Tournament
        fields = [name for name in TOURNAMENT_FIELDS if name != "tiebreaks"]
        widgets = {
            "starts_on": DateInput(format="%Y-%m-%d"),
            "ends_on": DateInput(format="%Y-%m-%d"),
            "best_of": forms.Select(choices=[(n, n) for n in (1, 3, 5, 7)]),
            "playoff_best_of": forms.Select(choices=[(n, n) for n in (1, 3, 5, 7)]),
        }
        help_texts = {
            "points_win": _("Used with “Own numbers”."),
            "playoff_size": _(
                "Leave empty for no play-off. Not a power of two: the top seeds get byes."
            ),
            "bye_game_points": _(
                "A bye counts as a match win with these game points and spread 0."
            ),
            "seeding": _(
                "Random draw: round 1 is drawn from the tournament's recorded seed. By rating: "
                "the players are ordered by the club's rating list, highest first, and the top "
                "half plays the bottom half (1 v n/2+1, 2 v n/2+2, …); players without a rating "
                "come below the rated ones in a random order. Later rounds are Swiss either way."
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chain = list(self.instance.tiebreaks)  # a new tournament's is the default chain
        for slot in range(TIEBREAK_SLOTS):
            field = forms.ChoiceField(
                label=_("Tie-break %(n)d") % {"n": slot + 1},
                choices=[("", _("(none)")), *tiebreaks.CHOICES],
                required=slot == 0,
                help_text=_(
                    "The standings order: players are ordered by tie-break 1, ties by the next, "
                    "and so on; players still tied share their place."
                )
                if slot == 0
                else "",
            )
            field.initial = chain[slot] if slot < len(chain) else ""
            self.fields[f"tiebreak_{slot}"] = field
        # A form sent without it (a page from before the setting) keeps the tournament's.
        self.fields["seeding"].required = False
        if self.instance.rehearsal:
            # The database refuses either for a rehearsal (``Tournament`` constraints).
            for name in ("rated", "is_championship"):
                self.fields[name].disabled = True
                self.fields[name].help_text = _(
                    "A rehearsal is never rated nor the year's championship."
                )
        elif self.instance.pk and tournament_started(self.instance):
            # Its results may be final: only the administrator's command re-rates them.
            self.fields["rated"].disabled = True
            self.fields["rated"].help_text = rated_fixed_reason()
        if self.instance.pk:
            self.fields["scheme"].initial = scheme_name(
                self.instance.points_win,
                self.instance.points_skunk,
                self.instance.points_double_skunk,
            )

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{slot}"] for slot in range(TIEBREAK_SLOTS)]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        chain = [data.get(f"tiebreak_{slot}") for slot in range(TIEBREAK_SLOTS)]
        chosen = [key for key in chain if key]
        if len(chosen) != len(set(chosen)):
            self.add_error("tiebreak_0", _("Each tie-break can appear only once in the order."))
        data["tiebreaks"] = chosen
        data["seeding"] = data.get("seeding") or self.instance.seeding
        scheme = data.get("scheme")
        if scheme in GamePoints.PRESETS:
            preset = GamePoints.PRESETS[scheme]
            data["points_win"], data["points_skunk"], data["points_double_skunk"] = (
                preset.win,
                preset.skunk,
                preset.double_skunk,
            )
        win, skunk, double = (
            data.get(k) for k in ("points_win", "points_skunk", "points_double_skunk")
        )
        if (
            win is not None
            and skunk is not None
            and double is not None
            and not (1 <= win <= skunk <= double)
        ):
            self.add_error(
                "points_skunk",
                _("Game points must be at least 1 and grow: win ≤ skunk ≤ double skunk."),
            )
        start, end = data.get("starts_on"), data.get("ends_on")
        if start and end and end < start:
            self.add_error("ends_on", _("The last day cannot be before the first."))
        size = data.get("playoff_size")
        if size is not None and size < 2:
            self.add_error("playoff_size", _("A play-off needs at least two players."))
        return data

    def service_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        fields = {name: data[name] for name in self.Meta.fields}
        fields["tiebreaks"] = data["tiebreaks"]
        return fields


class EntryAddForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)


class NewPlayerEntryForm(forms.Form):
    """A new member to add and register; ``add_anyway`` once told of members of that name."""

    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Club or town"), max_length=120)
    email = forms.EmailField(label=_("E-mail (optional)"), required=False)
    add_anyway = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def member_fields(self) -> dict[str, str]:
        return {key: self.cleaned_data[key] for key in ("name", "club", "email")}


class ForbiddenPairForm(forms.Form):
    first = forms.ModelChoiceField(label=_("Player"), queryset=Entry.objects.none())
    second = forms.ModelChoiceField(label=_("Never paired with"), queryset=Entry.objects.none())
    reason = forms.CharField(label=_("Reason (optional)"), max_length=150, required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entries = tournament.entries.select_related("player")
        for name in ("first", "second"):
            cast(forms.ModelChoiceField[Entry], self.fields[name]).queryset = entries


class ProposalForm(forms.Form):
    """Names the proposal the organiser was shown, so a button never acts on a newer one."""

    round = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


class SwapForm(forms.Form):
    first = forms.ModelChoiceField(label=_("Player"), queryset=Entry.objects.none())
    second = forms.ModelChoiceField(label=_("Swap places with"), queryset=Entry.objects.none())

    def __init__(self, *args: Any, round_entries: QuerySet[Entry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            cast(forms.ModelChoiceField[Entry], self.fields[name]).queryset = round_entries


class MatchReportForm(forms.Form):
    """A whole match, game by game: the first dealer, then each game's winner and loser's score.

    Rows after the last filled one are ignored; a filled row after an empty one is
    an error. Whether the games make a possible match is the engine's call.
    """

    def __init__(self, *args: Any, names: tuple[str, str], best_of: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.best_of = best_of
        seats = [("0", names[0]), ("1", names[1])]
        self.fields["first_dealer"] = forms.ChoiceField(
            label=_("Who dealt first in game 1 (won the cut)?"),
            choices=seats,
            widget=forms.RadioSelect,
        )
        for number in range(1, best_of + 1):
            self.fields[f"game_{number}_winner"] = forms.ChoiceField(
                label=_("Game %(n)d: winner") % {"n": number},
                choices=[("", "—"), *seats],
                required=False,
            )
            self.fields[f"game_{number}_loser_score"] = forms.IntegerField(
                label=_("Game %(n)d: loser's score") % {"n": number},
                required=False,
                min_value=0,
                max_value=120,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 120}),
                error_messages={
                    "min_value": _("The loser's score cannot be negative."),
                    "max_value": _("The loser's score is at most 120: the winner reached 121."),
                },
            )

    def rows(self) -> list[tuple[int, forms.BoundField, forms.BoundField]]:
        return [
            (n, self[f"game_{n}_winner"], self[f"game_{n}_loser_score"])
            for n in range(1, self.best_of + 1)
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        games: list[tuple[int, int]] = []
        ended = False
        for number in range(1, self.best_of + 1):
            winner = data.get(f"game_{number}_winner")
            score = data.get(f"game_{number}_loser_score")
            filled = bool(winner) or score is not None
            if not filled:
                ended = True
                continue
            if ended:
                raise ValidationError(
                    _("Game %(n)d is filled in but an earlier game is empty.") % {"n": number}
                )
            if not winner:
                self.add_error(f"game_{number}_winner", _("Who won this game?"))
            elif score is None:
                self.add_error(f"game_{number}_loser_score", _("Enter the loser's score (0-120)."))
            else:
                games.append((int(winner), score))
        if not games and not self.errors:
            raise ValidationError(_("Enter at least the first game."))
        data["games"] = games
        if data.get("first_dealer") is not None:
            data["first_dealer"] = int(data["first_dealer"])
        return data


class DisputeForm(forms.Form):
    note = forms.CharField(
        label=_("What is wrong with the report?"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 500}),
        help_text=_(
            "Say which game is wrong and what you think happened (at most 500 characters)."
        ),
        error_messages={
            "required": _("Say what is wrong with the report."),
            "max_length": _(
                "The reason can be at most %(limit_value)d characters long (it has %(show_value)d)."
            ),
        },
    )


class ConfirmForm(forms.Form):
    """The confirmation names the report version the player saw."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)


class SettleNoteForm(forms.Form):
    note = forms.CharField(label=_("Note for the log"), max_length=500, required=False)
