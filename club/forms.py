"""Forms for the club register; validation messages appear next to the field."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from club.models import Player


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "club", "email", "joined", "user"]
        widgets = {
            "joined": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "name": forms.TextInput(attrs={"autocomplete": "name"}),
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
        }
        help_texts = {
            "user": _("The site account this player logs in with to report results."),
        }

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["user"].queryset = get_user_model().objects.order_by("username")
        self.fields["user"].label_from_instance = lambda user: user.get_username()


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    inactive = forms.BooleanField(label=_("Show inactive members too"), required=False)
