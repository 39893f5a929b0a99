from django.contrib import admin

from play.models import PracticeGame


@admin.register(PracticeGame)
class PracticeGameAdmin(admin.ModelAdmin[PracticeGame]):
    list_display = ["pk", "owner", "level", "best_of", "version", "finished", "winner", "updated"]
    list_filter = ["level", "finished", "best_of"]
    search_fields = ["owner__username", "session_key"]
    readonly_fields = ["state", "record", "version", "seed", "created", "updated"]
    raw_id_fields = ["owner"]
