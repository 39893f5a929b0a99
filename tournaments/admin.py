"""The Django admin for the tournament models.

Tournaments, entries and forbidden pairs can be edited here. Results cannot: rounds,
matches, seats, games and the result log are only shown, since a result is changed on
the site (the match page), where the engine checks each change and the result log keeps
who made it. For the same reason a tournament's status and champion, which the rounds
decide, are shown and not edited.
"""

from typing import Any

from django import forms
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
from tournaments.ports import final_results_changed
from tournaments.services.changes import pages_moved, tournament_changed
from tournaments.services.tournaments import made_up_refusal


def tournament_of(obj: Tournament | Entry | ForbiddenPair) -> int:
    """The tournament an object of an editable model is, or belongs to."""
    return obj.pk if isinstance(obj, Tournament) else obj.tournament_id


class ChangesTournament(admin.ModelAdmin[Any]):
    """A change made in the admin is a change to the tournament's pages like any other."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        tournament_changed(tournament_of(form.instance))
        if isinstance(form.instance, Tournament) and "slug" in form.changed_data:
            pages_moved([form.initial["slug"]])  # the old address answers 404 now

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        pk = tournament_of(obj)
        super().delete_model(request, obj)
        if isinstance(obj, Tournament):
            pages_moved([obj.slug])
        else:
            tournament_changed(pk)

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        pks = {tournament_of(obj) for obj in queryset}
        slugs = [obj.slug for obj in queryset] if queryset.model is Tournament else []
        super().delete_queryset(request, queryset)
        if queryset.model is Tournament:
            pages_moved(slugs)
        else:
            for pk in pks:
                tournament_changed(pk)


LOG_FIELDS = ("at", "user", "player", "action", "before", "after", "note")


class ShownOnly:
    """Neither added, changed nor deleted here (mixed into an admin or an inline)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EntryForm(forms.ModelForm[Entry]):
    """An entry in the admin: refused, as on the site, for a made-up player in a tournament
    that is not a rehearsal (``made_up_refusal``)."""

    class Meta:
        model = Entry
        fields = ["tournament", "player", "checked_in", "withdrawn", "first_round"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        player = data.get("player")
        # In the tournament's own page the entry's tournament is the one being saved.
        tournament = data.get("tournament") or getattr(self.instance, "tournament", None)
        if player is not None and tournament is not None:
            refusal = made_up_refusal(player, tournament)
            if refusal is not None:
                self.add_error("player", refusal)
        return data


class EntryInline(admin.TabularInline[Entry, Tournament]):
    model = Entry
    form = EntryForm
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(ChangesTournament):
    list_display = ["name", "year", "is_championship", "rated", "rehearsal", "status", "champion"]
    list_filter = ["is_championship", "rated", "rehearsal", "status", "year"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    # Whether it is a rehearsal is set by ``manage.py simulate_tournament`` alone.
    readonly_fields = ["status", "champion", "rehearsal"]
    inlines = [EntryInline]

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Other days may put its rounds in another place among the rating periods: announced
        as ``tournament_update`` does (the rating list re-rates only from an announced
        period on, and this change names none)."""
        super().save_model(request, obj, form, change)
        if change and {"starts_on", "ends_on"} & set(form.changed_data):
            final_results_changed(round=None)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """Whether a tournament is rated is changed by ``manage.py set_tournament_rated``
        alone once it exists (it takes the rated switches' one lock, refuses a copy and
        re-rates the list); a new tournament has no results to count twice."""
        fixed = list(self.readonly_fields)
        return fixed if obj is None else [*fixed, "rated"]


@admin.register(Entry)
class EntryAdmin(ChangesTournament):
    form = EntryForm
    list_display = ["player", "tournament", "checked_in", "withdrawn", "first_round"]
    list_filter = ["tournament", "checked_in", "withdrawn"]
    search_fields = ["player__name", "player__club"]
    autocomplete_fields = ["player"]


@admin.register(ForbiddenPair)
class ForbiddenPairAdmin(ChangesTournament):
    list_display = ["tournament", "first", "second", "reason"]
    raw_id_fields = ["first", "second"]


class MatchInline(ShownOnly, admin.TabularInline[Match, Round]):
    model = Match
    extra = 0
    fields = ["table", "is_bye", "status", "winner"]
    show_change_link = True


@admin.register(Round)
class RoundAdmin(ShownOnly, admin.ModelAdmin[Round]):
    list_display = ["tournament", "number", "kind", "status", "published_at", "closed_at"]
    list_filter = ["tournament", "kind", "status"]
    inlines = [MatchInline]


class SeatInline(ShownOnly, admin.TabularInline[Seat, Match]):
    model = Seat
    extra = 0


class GameInline(ShownOnly, admin.TabularInline[Game, Match]):
    model = Game
    extra = 0
    exclude = ["record"]


class ResultChangeInline(ShownOnly, admin.TabularInline[ResultChange, Match]):
    model = ResultChange
    extra = 0
    fields = readonly_fields = LOG_FIELDS  # "at" is no field of a form


@admin.register(Match)
class MatchAdmin(ShownOnly, admin.ModelAdmin[Match]):
    list_display = ["__str__", "status", "is_bye", "winner"]
    list_filter = ["status", "round__tournament"]
    inlines = [SeatInline, GameInline, ResultChangeInline]


@admin.register(Game)
class GameAdmin(ShownOnly, admin.ModelAdmin[Game]):
    list_display = ["match", "number", "dealer", "winner", "loser_score"]


@admin.register(ResultChange)
class ResultChangeAdmin(ShownOnly, admin.ModelAdmin[ResultChange]):
    list_display = ["match", "at", "user", "action"]
    list_filter = ["action"]
