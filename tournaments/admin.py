"""The Django admin for every tournament model (results are better changed on the site,
where each change is checked by the engine and logged)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

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
from tournaments.services.changes import tournament_changed


def tournament_of(obj: Any) -> int | None:
    """The tournament an object of any tournament model belongs to."""
    if isinstance(obj, Tournament):
        return obj.pk
    for path in ("tournament_id", "round.tournament_id", "match.round.tournament_id"):
        value: Any = obj
        for part in path.split("."):
            value = getattr(value, part, None)
        if value is not None:
            return int(value)
    return None


class ChangesTournament(admin.ModelAdmin):
    """A change made in the admin is a change to the tournament's pages like any other."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        pk = tournament_of(form.instance)
        if pk is not None:
            tournament_changed(pk)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        pk = tournament_of(obj)
        super().delete_model(request, obj)
        if pk is not None and not isinstance(obj, Tournament):
            tournament_changed(pk)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        pks = {tournament_of(obj) for obj in queryset}
        super().delete_queryset(request, queryset)
        if queryset.model is not Tournament:
            for pk in pks:
                if pk is not None:
                    tournament_changed(pk)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(ChangesTournament):
    list_display = ["name", "year", "is_championship", "status", "champion"]
    list_filter = ["is_championship", "status", "year"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [EntryInline]
    raw_id_fields = ["champion"]


@admin.register(Entry)
class EntryAdmin(ChangesTournament):
    list_display = ["player", "tournament", "checked_in", "withdrawn", "first_round"]
    list_filter = ["tournament", "checked_in", "withdrawn"]
    search_fields = ["player__name", "player__club"]
    autocomplete_fields = ["player"]


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(ChangesTournament):
    list_display = ["tournament", "first", "second", "reason"]
    raw_id_fields = ["first", "second"]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "is_bye", "status", "winner"]
    readonly_fields = fields
    show_change_link = True


@admin.register(Round)
class RoundAdmin(ChangesTournament):
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
class MatchAdmin(ChangesTournament):
    list_display = ["__str__", "status", "is_bye", "winner"]
    list_filter = ["status", "round__tournament"]
    inlines = [SeatInline, GameInline, ResultChangeInline]
    raw_id_fields = ["round", "reported_by"]


@admin.register(Game)
class GameAdmin(ChangesTournament):
    list_display = ["match", "number", "dealer", "winner", "loser_score"]
    raw_id_fields = ["match"]


@admin.register(ResultChange)
class ResultChangeAdmin(ChangesTournament):
    list_display = ["match", "at", "user", "action"]
    list_filter = ["action"]
    readonly_fields = ["match", "at", "user", "action", "before", "after", "note"]
