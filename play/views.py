"""Pages of the practice games: start a game, play it, hints, replays and statistics.

Every decision is a POST that the engine checks (``play.services``). With htmx
the game area is swapped in place (the ``game`` partial of play/game.html);
without JavaScript the form posts, the page redirects back and shows the game.
A visitor reaches only their own games (a member's account, a guest's session):
any other game is a 404.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.exceptions import Ratelimited

from core.errors import DomainError
from core.http import HtmxHttpRequest
from core.throttles import over_limit
from play.forms import MoveForm, SettingsForm, StartForm
from play.models import PracticeGame
from play.online_selectors import online_games_for
from play.replays import practice_replay
from play.selectors import (
    hint_view,
    practice_games_for,
    practice_table,
)
from play.services import (
    FOUR_COLOURS,
    guest_remember,
    load_match,
    practice_decide,
    practice_hint,
    practice_start,
)
from play.stats import online_stats, practice_stats

GUEST_STARTS = "30/m"
"""New guest games one address may start: a venue's guests share its one address (60 of
them starting a game each in the same minute is not normal use), a script does not get
far. Members are not limited."""


def _my_games(request: HttpRequest) -> QuerySet[PracticeGame]:
    return practice_games_for(user=request.user, session=request.session)


def _my_game(request: HttpRequest, pk: int) -> PracticeGame:
    return get_object_or_404(_my_games(request), pk=pk)


def _deck(request: HttpRequest) -> dict[str, object]:
    return {"four_colours": bool(request.session.get(FOUR_COLOURS, False))}


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    return _index(request, StartForm())


def _index(request: HttpRequest, form: StartForm, status: int = 200) -> HttpResponse:
    games = list(_my_games(request).order_by("-updated", "-pk")[:20])
    context = {
        "form": form,
        "playing": [game for game in games if not game.finished],
        "finished": [game for game in games if game.finished],
    }
    return render(request, "play/index.html", context, status=status)


def _guest_starts(group: str, request: HttpRequest) -> str | None:
    return None if request.user.is_authenticated else GUEST_STARTS


def _guest_starts_refused(request: HttpRequest) -> bool:
    """Count a guest's new game against their address; True past ``GUEST_STARTS``.

    Fails open: a game is a few rows, and refusing every guest at the venue while the
    cache cannot count is worse than a script's extra games for that while.
    """
    return over_limit(
        request, group="guest-game-start", key="ip", rate=_guest_starts, fail_open=True
    )


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    if _guest_starts_refused(request):
        raise Ratelimited
    form = StartForm(request.POST)
    if not form.is_valid():
        return _index(request, form, status=400)
    owner = request.user if request.user.is_authenticated else None
    if owner is None and request.session.session_key is None:
        request.session.save()
    practice = practice_start(
        owner=owner,
        session_key="" if owner else request.session.session_key or "",
        level=form.cleaned_data["level"],
        best_of=form.cleaned_data["best_of"],
        self_count=form.cleaned_data["self_count"],
        muggins=form.cleaned_data["muggins"],
        seed=form.cleaned_data.get("seed"),
        seats=form.cleaned_data["seats"],
        target=form.cleaned_data["target"],
    )
    if owner is None:
        guest_remember(request.session, practice)
    return redirect("play:game", pk=practice.pk)


def _game_page(
    request: HttpRequest, practice: PracticeGame, *, error: str = "", partial: str = ""
) -> HttpResponse:
    match = load_match(practice)  # once: the table, the news, the board and the hint share it
    hint = None
    if request.GET.get("hint") == "1":
        hint = hint_view(practice_hint(practice=practice, match=match))
    context = {
        "practice": practice,
        "table": None if partial == "hint" else practice_table(practice=practice, match=match),
        "hint": hint,
        "error": error,
        **_deck(request),
    }
    template = f"play/game.html#{partial}" if partial else "play/game.html"
    return render(request, template, context)


@require_safe
def game(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    practice = _my_game(request, pk)
    if request.htmx and request.htmx.target == "hint":
        return _game_page(request, practice, partial="hint")
    return _game_page(request, practice, partial="game" if request.htmx else "")


@require_POST
def move(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    form = MoveForm(request.POST)
    practice, error = None, ""
    if not form.is_valid():
        error = form.error_text()
    else:
        try:
            practice = practice_decide(
                games=_my_games(request),
                pk=pk,
                version=form.cleaned_data["version"],
                decision=form.decision,
            )
        except PracticeGame.DoesNotExist:
            raise Http404("no such game") from None
        except DomainError as refused:
            error = refused.message
    if practice is None:  # nothing decided: the game as it stands
        practice = _my_game(request, pk)
    if request.htmx:
        return _game_page(request, practice, error=error, partial="game")
    if error:
        messages.error(request, error)
    return redirect("play:game", pk=practice.pk)


@require_safe
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    practice = _my_game(request, pk)
    try:
        game_number = int(request.GET.get("game", "1"))
        step = int(request.GET.get("step", "0"))
    except ValueError:
        game_number, step = 0, -1
    view = practice_replay(practice=practice, game_number=game_number, step=step)
    if view is None:
        raise Http404("no such game or step")
    context = {
        "replay": view,
        "back_url": reverse("play:game", args=[practice.pk]),
        "review_url": reverse("play:review", args=[practice.pk]) if practice.finished else "",
        **_deck(request),
    }
    return render(request, "play/replay.html", context)


@require_safe
def stats(request: HtmxHttpRequest) -> HttpResponse:
    context: dict[str, object] = {"stats": practice_stats(games=_my_games(request))}
    if isinstance(request.user, User):
        online = online_games_for(request.user)
        context["online"] = online_stats(user_id=request.user.pk, games=online)
    if request.htmx and request.htmx.target == "practice-summary":
        return render(request, "play/stats.html#summary", context)
    return render(request, "play/stats.html", context)


@require_POST
def deck(request: HttpRequest) -> HttpResponse:
    form = SettingsForm(request.POST)
    chosen = form.cleaned_data if form.is_valid() else {}
    request.session[FOUR_COLOURS] = bool(chosen.get("four_colours"))
    target = chosen.get("next") or ""
    if not _page_of_this_site(request, target):
        target = reverse("play:index")
    return HttpResponseRedirect(target)


def _page_of_this_site(request: HttpRequest, target: str) -> bool:
    """A path on this site that names a page (a next= may be anything a visitor typed)."""
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return False
    try:
        resolve(urlsplit(target).path)
    except Resolver404:
        return False
    return True
