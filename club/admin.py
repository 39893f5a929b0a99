"""The admin of the register and of the accounts.

A member with results (tournament entries, rated matches, a line on the rating list) is
never deleted: the database refuses it (``PROTECT`` on the entries and the list, and
``play.models.protect_rated_games`` on rated matches between members), because the
rating list would no longer be what its results give. The delete pages then say what to
do instead: deactivate the member, or close the account.
"""

from collections.abc import Sequence
from typing import Any

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _

from club.models import Player
from club.services import fold


def _say_what_to_do(request: HttpRequest, protected: Sequence[Any]) -> None:
    if protected:
        messages.warning(
            request,
            _(
                "Members with results are never deleted: the rating list is computed from "
                "them. Deactivate the member in the register instead (or close the account): "
                "they leave the list and the results stay."
            ),
        )


Deleted = tuple[list[Any], dict[Any, Any], set[Any], list[Any]]

admin.site.unregister(User)


@admin.register(User)
class MemberAccountAdmin(UserAdmin[User]):
    def get_deleted_objects(
        self, objs: Sequence[User] | QuerySet[User], request: HttpRequest
    ) -> Deleted:
        deleted = super().get_deleted_objects(objs, request)
        _say_what_to_do(request, deleted[3])
        return deleted


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "club", "email", "active", "fictional", "user", "joined"]
    list_filter = ["active", "fictional", "club"]
    # Made up by ``manage.py simulate_tournament --fictional`` alone.
    readonly_fields = ["fictional"]
    search_fields = ["name", "club", "email", "search_key"]
    autocomplete_fields = ["user"]

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        obj.search_key = fold(f"{obj.name} {obj.club}")
        if change and "active" in form.changed_data and not obj.active:
            obj.invited_at = None  # leaving ends the invitation for good, as player_set_active does
        super().save_model(request, obj, form, change)

    def get_deleted_objects(
        self, objs: Sequence[Player] | QuerySet[Player], request: HttpRequest
    ) -> Deleted:
        deleted = super().get_deleted_objects(objs, request)
        _say_what_to_do(request, deleted[3])
        return deleted
