"""Forms for the club register; validation messages appear next to the field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    PasswordChangeForm,
    PasswordResetForm,
    SetPasswordMixin,
    UsernameField,
)
from django.contrib.auth.models import User
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from club import mail
from club.lockouts import current_password_check
from club.models import Player
from core.http import AuthenticatedHttpRequest

if TYPE_CHECKING:
    # Generic in django-stubs only: Django's own SetPasswordMixin takes no type argument.
    _NewPassword = SetPasswordMixin[User]
else:
    _NewPassword = SetPasswordMixin


class AccountChoiceField(forms.ModelChoiceField[User]):
    """A site account, shown by its username."""

    def label_from_instance(self, obj: User) -> str:
        return obj.get_username()


class PlayerForm(forms.ModelForm[Player]):
    class Meta:
        model = Player
        fields = ["name", "club", "email", "joined", "user"]
        field_classes = {"user": AccountChoiceField}
        widgets = {
            "joined": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "name": forms.TextInput(attrs={"autocomplete": "name"}),
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
        }
        help_texts = {
            "user": _("The site account this player logs in with to report results."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        accounts = cast(AccountChoiceField, self.fields["user"])
        accounts.queryset = get_user_model().objects.order_by("username")


class PlayerSearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    inactive = forms.BooleanField(label=_("Show inactive members too"), required=False)


class InvitationAcceptForm(_NewPassword, forms.Form):
    """A new member's own username and password; the service checks them against the site."""

    username = UsernameField(
        label=_("Username"),
        max_length=150,
        help_text=_("You log in with it. Letters, digits and @ . + - _ only."),
    )
    password1, password2 = SetPasswordMixin.create_password_fields()

    def clean(self) -> dict[str, Any] | None:
        self.validate_passwords()
        return super().clean()


class AccountEmailForm(forms.Form):
    """A member's new e-mail address, with their current password (it counts toward the lock)."""

    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text=_("Password resets and messages from the organisers go here."),
    )
    password = forms.CharField(
        label=_("Your current password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, request: AuthenticatedHttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        current_password_check(self.request, user=self.request.user, password=password)
        return password


class CurrentPasswordChangeForm(PasswordChangeForm):
    """Django's password change; the old password is checked as a login is (the lock)."""

    def __init__(self, user: User, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        password: str = self.cleaned_data["old_password"]
        current_password_check(self.request, user=self.user, password=password)
        return password


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's password reset form, whose mail the worker sends (``club.mail``).

    The letter is written here, as Django writes it; only the sending waits in the
    queue, so the page answers at once and the same whatever the mail server does.
    """

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        body = render_to_string(email_template_name, context)
        html = (
            render_to_string(html_email_template_name, context) if html_email_template_name else ""
        )
        mail.letter_queue(
            mail.letter(subject=subject, body=body, html=html, to=[to_email], from_email=from_email)
        )
