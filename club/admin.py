from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from club.models import Player
from club.services import fold


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "club", "email", "active", "user", "joined"]
    list_filter = ["active", "club"]
    search_fields = ["name", "club", "email", "search_key"]
    autocomplete_fields = ["user"]

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        obj.search_key = fold(f"{obj.name} {obj.club}")
        if change and "active" in form.changed_data and not obj.active:
            obj.invited_at = None  # leaving ends the invitation for good, as player_set_active does
        super().save_model(request, obj, form, change)
