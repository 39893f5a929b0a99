"""Pages of the club register: the member list with search, player pages, organiser edits."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club import selectors, services
from club.forms import PlayerForm, PlayerSearchForm
from club.invitations import invitation_for
from club.models import Player
from club.roles import is_organiser, organiser_required
from core.errors import DomainError
from core.http import AuthenticatedHttpRequest, HtmxHttpRequest
from core.sections import sections


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    context = {"tables_now": sections("home_top", request), "sections": sections("home", request)}
    return render(request, "club/home.html", context)


@require_safe
def player_list(request: HtmxHttpRequest) -> HttpResponse:
    form = PlayerSearchForm(request.GET)
    query, inactive = "", False
    if form.is_valid():
        query = form.cleaned_data["q"]
        inactive = form.cleaned_data["inactive"] and is_organiser(request.user)
    players = selectors.player_search(query=query, include_inactive=inactive)
    context = {"form": form, "players": players, "query": query}
    if request.htmx and request.htmx.target == "player-results":
        return render(request, "club/player_list.html#results", context)
    return render(request, "club/player_list.html", context)


@require_safe
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(selectors.members().select_related("user"), pk=pk)
    context: dict[str, object] = {"player": player}
    if is_organiser(request.user):
        invitation = invitation_for(player)
        if invitation is not None:
            context["invitation"] = invitation
            context["invitation_url"] = request.build_absolute_uri(invitation.path)
            context["invitation_mail"] = selectors.invitation_mail_latest(player=player)
    context["sections"] = sections("player", request, player=player)
    return render(request, "club/player_detail.html", context)


def _save_player(form: PlayerForm, player: Player | None) -> Player | None:
    try:
        if player is None:
            return services.player_create(**form.cleaned_data)
        return services.player_update(player=player, **form.cleaned_data)
    except ValidationError as error:
        form.add_error(None, error)
        return None


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_add(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    twins: list[Player] = []
    if request.method == "POST" and form.is_valid():
        # Same name as someone on the register: ask before making a twin.
        if request.POST.get("add_anyway") != "1":
            twins = selectors.possible_twins(name=form.cleaned_data["name"])
        player = None if twins else _save_player(form, None)
        if player is not None:
            added = _("%(player)s was added to the register.") % {"player": player}
            messages.success(request, added)
            return redirect("player_detail", pk=player.pk)
    context = {"form": form, "player": None, "twins": twins}
    return render(request, "club/player_form.html", context)


@organiser_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_edit(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(selectors.members(), pk=pk)
    form = PlayerForm(request.POST or None, instance=selectors.members().get(pk=pk))
    if request.method == "POST" and form.is_valid():
        saved = _save_player(form, player)
        if saved is not None:
            changed = _("The changes to %(player)s were saved.") % {"player": saved}
            messages.success(request, changed)
            return redirect("player_detail", pk=saved.pk)
    return render(request, "club/player_form.html", {"form": form, "player": player})


@organiser_required
@require_POST
def player_set_active(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(selectors.members().select_related("user"), pk=pk)
    active = request.POST.get("active") == "1"
    close_account = request.POST.get("close_account") == "1"
    try:
        services.player_set_active(
            player=player, active=active, close_account=close_account, by=request.user
        )
    except DomainError as error:
        messages.error(request, error.message)
        return redirect("player_detail", pk=player.pk)
    if active:
        done = _("%(player)s is an active member again.")
    elif close_account and player.user is not None:
        done = _("%(player)s was deactivated and their account closed: they can no longer log in.")
    else:
        done = _("%(player)s was deactivated.")
    messages.success(request, done % {"player": player})
    return redirect("player_detail", pk=player.pk)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "404.html", status=404)
