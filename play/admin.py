from django.contrib import admin

from play.models import PracticeGame


@admin.register(PracticeGame)
class PracticeGameAdmin(admin.ModelAdmin[PracticeGame]):
    list_display = [
        "pk",
        "owner",
        "level",
        "seats",
        "target",
        "best_of",
        "version",
        "finished",
        "winner",
        "updated",
    ]
    list_filter = ["level", "finished", "seats", "target", "best_of"]
    search_fields = ["owner__username", "session_key"]
    readonly_fields = [
        "state",
        "record",
        "version",
        "seed",
        "seats",
        "target",
        "created",
        "updated",
    ]
    raw_id_fields = ["owner"]
