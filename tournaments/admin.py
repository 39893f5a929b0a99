"""The Django admin for every tournament model (results are better changed on the site,
where each change is checked by the engine and logged)."""

from django.contrib import admin

from tournaments.models import (
    Entry,
    ForbiddenPair,
    Game,
    Match,
    ResultChange,
    Round,
    Seat,
    Tournament,
)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "year", "is_championship", "status", "champion"]
    list_filter = ["is_championship", "status", "year"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [EntryInline]
    raw_id_fields = ["champion"]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "checked_in", "withdrawn", "first_round"]
    list_filter = ["tournament", "checked_in", "withdrawn"]
    search_fields = ["player__name", "player__club"]
    autocomplete_fields = ["player"]


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(admin.ModelAdmin):
    list_display = ["tournament", "first", "second", "reason"]
    raw_id_fields = ["first", "second"]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "is_bye", "status", "winner"]
    readonly_fields = fields
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "kind", "status", "published_at", "closed_at"]
    list_filter = ["tournament", "kind", "status"]
    inlines = [MatchInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["entry", "round"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    exclude = ["record"]


class ResultChangeInline(admin.TabularInline):
    model = ResultChange
    extra = 0
    readonly_fields = ["at", "user", "action", "before", "after", "note"]
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "is_bye", "winner"]
    list_filter = ["status", "round__tournament"]
    inlines = [SeatInline, GameInline, ResultChangeInline]
    raw_id_fields = ["round", "reported_by"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["match", "number", "dealer", "winner", "loser_score"]
    raw_id_fields = ["match"]


@admin.register(ResultChange)
class ResultChangeAdmin(admin.ModelAdmin):
    list_display = ["match", "at", "user", "action"]
    list_filter = ["action"]
    readonly_fields = ["match", "at", "user", "action", "before", "after", "note"]
