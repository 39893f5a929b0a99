"""Pages of the games between members: the lobby, a game, its moves, resigning and claiming.

Every decision is a POST that the engine checks (``play.online``), as in practice
games. Where push is available (``play.push``: a Redis, the ASGI server) the page opens
the game's event stream (``events``) and fetches its table when a newer version is
announced; elsewhere, or when the stream cannot be had, it polls its table with htmx once
a second (``POLL_MS``). Either way the table is asked for with its ETag in
``If-None-Match``: while nothing has changed the answer is an empty 304 (one small query;
htmx swaps nothing, so a card being chosen keeps its focus), otherwise the new table.
Any server answers any request, and a restart or a reload picks up the game where it is.
Without JavaScript the page has a "Refresh" link (and refreshes itself every 20
seconds), and the forms post and come back. Only the two players reach a game, except a
tournament match's (``play.championship``), which anyone may watch as a spectator at the
table would: no hand is shown until it is counted.
"""

from __future__ import annotations

from collections.abc import Callable

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    HttpResponseNotModified,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from core.errors import DomainError
from core.http import HtmxHttpRequest
from play import push
from play.championship import match_propose
from play.forms import ChallengeForm, MoveForm
from play.lobby_presenter import open_tables, with_rated_notes
from play.models import Challenge, OnlineGame
from play.online import (
    challenge_accept,
    challenge_close,
    challenge_create,
    online_claim,
    online_decide,
    online_resign,
)
from play.online_selectors import (
    challenges_by,
    challenges_open_to_all,
    challenges_to,
    members_to_challenge,
    online_etag,
    online_games_for,
    online_replay,
    online_table,
    online_version,
    seen_by,
    tables_open,
)
from play.services import FOUR_COLOURS
from play.tables import table_begin, table_hand_over, table_leave, table_sit, table_stand
from tournaments.models import Match as TournamentMatch

LOBBY_POLL_SECONDS = 5
"""How often the lobby of a member waiting at a table asks whether it filled or began."""
POLL_MS = 1000
"""How often a game's page asks whether the game changed (``settings.ONLINE_POLL_MS``)."""


def _member(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required let only members in
    return request.user


def _variant(request: HttpRequest) -> str:
    return f"{get_language()}|{int(bool(request.session.get(FOUR_COLOURS, False)))}"


@require_safe
@login_required
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    member = _member(request)
    return _lobby(request, ChallengeForm(members=members_to_challenge(member)))


def _lobby(request: HtmxHttpRequest, form: ChallengeForm, status: int = 200) -> HttpResponse:
    member = _member(request)
    games = list(online_games_for(member)[:30])
    tables = open_tables(member, tables_open())
    context = {
        "form": form,
        "to_me": with_rated_notes(member, challenges_to(member)),
        "open_to_all": with_rated_notes(member, challenges_open_to_all(member)),
        "mine": with_rated_notes(member, challenges_by(member)),
        "tables": tables,
        # The reader waits at a table (their own, or one they sit at) for it to fill or
        # begin: the lobby's live part asks again every few seconds (htmx).
        "waiting": any(table.yours or table.seated for table in tables),
        "lobby_poll_seconds": LOBBY_POLL_SECONDS,
        "playing": [game for game in games if not game.finished],
        "finished": [game for game in games if game.finished],
    }
    page = "play/lobby.html#live" if request.htmx and status == 200 else "play/lobby.html"
    return render(request, page, context, status=status)


@require_POST
@login_required
def challenge(request: HtmxHttpRequest) -> HttpResponse:
    member = _member(request)
    form = ChallengeForm(request.POST, members=members_to_challenge(member))
    if not form.is_valid():
        return _lobby(request, form, status=400)
    try:
        made = challenge_create(
            challenger=member,
            challenged=form.cleaned_data["opponent"],
            best_of=form.cleaned_data["best_of"],
            self_count=form.cleaned_data["self_count"],
            muggins=form.cleaned_data["muggins"],
            rated=form.cleaned_data["rated"],
            seats=form.cleaned_data["seats"],
            target=form.cleaned_data["target"],
            level=form.cleaned_data["level"],
        )
    except DomainError as refused:
        form.add_error(None, refused.message)
        return _lobby(request, form, status=400)
    if made.is_table:
        messages.success(
            request, _("Your table is in the lobby: members choose their seats there.")
        )
    elif made.challenged is None:
        messages.success(request, _("Your open challenge is in the lobby."))
    else:
        messages.success(request, _("Your challenge was sent."))
    return redirect("play:lobby")


@require_POST
@login_required
def answer(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept a challenge (the game starts), decline it, or withdraw one's own; at a table
    of three or four, sit down in a free seat, stand up, or begin it (one's own)."""
    member = _member(request)
    answer = request.POST.get("answer")
    try:
        started = None
        if answer == "accept":
            started = challenge_accept(pk=pk, member=member)
        elif answer == "sit":
            started = table_sit(pk=pk, member=member, seat=_seat(request.POST.get("seat")))
            if started is None:
                messages.success(
                    request,
                    _(
                        "You sit at the table: it begins when it is full, or when its maker "
                        "begins it."
                    ),
                )
        elif answer == "stand":
            table_stand(pk=pk, member=member)
        elif answer == "begin":
            started = table_begin(pk=pk, member=member)
        else:
            challenge_close(pk=pk, member=member)
        if started is not None:
            return redirect("play:online_game", pk=started.pk)
    except Challenge.DoesNotExist:
        raise Http404("no such challenge") from None
    except DomainError as refused:
        messages.error(request, refused.message)
    # Back where it was answered: a proposal on its match's page, a challenge in the lobby.
    answered = Challenge.objects.select_related("match__round__tournament").filter(pk=pk).first()
    match = answered.match if answered is not None else None
    if match is not None:
        return redirect("tournaments:match", match.round.tournament.slug, match.pk)
    return redirect("play:lobby")


def _seat(text: str | None) -> int:
    """The seat a post names (-1, no seat at all, for anything else: the service refuses it)."""
    try:
        return int(text or "")
    except ValueError:
        return -1


def _game_page(
    request: HttpRequest, game: OnlineGame, *, error: str = "", partial: str = ""
) -> HttpResponse:
    """The game's page (or its ``partial``) for its player, or for a spectator of a
    tournament match."""
    seat = game.seat_of(request.user.pk)
    if seat is None and game.match_id is None and not game.is_table:
        raise Http404("not a player of this game")
    context = {
        "poll_ms": getattr(settings, "ONLINE_POLL_MS", POLL_MS),
        "pushed": push.configured(),
        "online": online_table(game, seat=seat, reader_id=request.user.pk),
        "error": error,
        "etag": online_etag(game.pk, game.version, request.user, variant=_variant(request)),
        "four_colours": bool(request.session.get(FOUR_COLOURS, False)),
    }
    if game.is_table:
        page = "play/table_game.html"
    else:
        page = "play/online_game.html" if seat is not None else "play/online_watch.html"
    response = render(request, f"{page}#{partial}" if partial else page, context)
    response["Cache-Control"] = "no-store"  # the poll asks with the ETag it was given
    return response


def _players_game(request: HttpRequest, pk: int) -> OnlineGame:
    game = get_object_or_404(online_games_for(_member(request)), pk=pk)
    return game


def _watched_game(request: HttpRequest, pk: int) -> OnlineGame:
    """A game the reader may see (``seen_by``): one they play, or any tournament match."""
    games = OnlineGame.objects.select_related("match__round__tournament")
    return get_object_or_404(games.filter(seen_by(request.user)), pk=pk)


@require_safe
def game(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The game's page: a player's table, or a spectator's of a tournament match (no login:
    the round page links it). Anyone else is sent to log in, or gets a 404."""
    try:
        watched = _watched_game(request, pk)
    except Http404:
        if request.user.is_authenticated:
            raise
        return redirect_to_login(request.get_full_path())
    return _game_page(request, watched, partial="game" if request.htmx else "")


@require_safe
def watch_match(request: HttpRequest, match_pk: int) -> HttpResponse:
    """The game of the tournament match ``match_pk``, from the round page's "watch" link."""
    game = get_object_or_404(OnlineGame.objects.only("pk"), match_id=match_pk)
    return redirect("play:online_game", pk=game.pk)


@require_POST
@login_required
def propose(request: HttpRequest, match_pk: int) -> HttpResponse:
    """Propose to the opponent to play one's tournament match on the site."""
    match = get_object_or_404(
        TournamentMatch.objects.select_related("round__tournament"), pk=match_pk
    )
    try:
        match_propose(match=match, member=_member(request))
    except DomainError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request, _("Your proposal was sent: the game starts when your opponent accepts it.")
        )
    return redirect("tournaments:match", match.round.tournament.slug, match.pk)


LONG_POLL_SECONDS = 25.0
"""The longest a long poll (``table?wait=``) is held open."""


@require_safe
def table(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """The game's table for the poll: a 304 while it has not changed since ``If-None-Match``.

    ``?wait=s`` (the long poll, measured as candidate B in docs/benchmarks.md) holds an
    unchanged table's answer up to ``s`` seconds (at most ``LONG_POLL_SECONDS``) for a move,
    where ``PUSH_LONG_POLL`` allows it: only the benchmark's server does (the site pushes by
    event stream; a long poll holds a thread, which anyone could take many of)."""
    version = online_version(pk, request.user)
    if version is None:
        raise Http404("no such game of yours")
    etag = online_etag(pk, version, request.user, variant=_variant(request))
    wait = _seconds(request.GET.get("wait", ""))
    unchanged = request.headers.get("If-None-Match") == etag
    if wait and settings.PUSH_LONG_POLL and push.configured() and unchanged:
        push.wait_for_news(pk, version, wait, lambda: online_version(pk, request.user))
        version = online_version(pk, request.user)
        if version is None:
            raise Http404("no such game of yours")
        etag = online_etag(pk, version, request.user, variant=_variant(request))
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
        response["ETag"] = etag
        response["Cache-Control"] = "no-store"
        return response
    return _game_page(request, _watched_game(request, pk), partial="game")


def _seconds(text: str) -> float:
    try:
        return min(max(float(text), 0.0), LONG_POLL_SECONDS)
    except ValueError:
        return 0.0


def _version_for(pk: int, user: User | AnonymousUser) -> int | None:
    """``online_version``, then the request's database connection given back (to its
    process's pool): a stream holds none for the hours it may stay open (else each open
    stream kept one, and the pool ran dry at ten)."""
    try:
        return online_version(pk, user)
    finally:
        if not connection.in_atomic_block:  # (a test's transaction stays open)
            connection.close()


@require_safe
async def events(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Game ``pk``'s event stream (``play.push``): each newer version as it is saved, for a
    reader who may see the game (``seen_by``, checked once, at connect; else 404). 204
    when push is not available here: the browser's EventSource then stops, and the page
    polls."""
    user = await request.auser()
    if not push.available(request):
        if await sync_to_async(_version_for)(pk, user) is None:
            raise Http404("no such game of yours")
        return HttpResponse(status=204)
    subscription = await push.subscribe(pk)
    version = await sync_to_async(_version_for)(pk, user)  # after subscribing: none missed
    if version is None or subscription is None:
        if subscription is not None:
            await subscription.close()
        if version is None:
            raise Http404("no such game of yours")
        return HttpResponse(status=204)
    response = StreamingHttpResponse(
        push.stream(subscription, version), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


@require_POST
@login_required
def move(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _after(request, pk, form.error_text())
    try:
        game = online_decide(
            pk=pk,
            member=_member(request),
            moves=form.cleaned_data["version"],
            decision=form.decision,
        )
    except OnlineGame.DoesNotExist:
        raise Http404("no such game of yours") from None
    except DomainError as refused:
        return _after(request, pk, refused.message)
    return _after(request, pk, "", game=game)


_ENDINGS: dict[str, Callable[..., OnlineGame]] = {
    "resign": online_resign,
    "claim": online_claim,
    "leave": table_leave,
    "hand_over": table_hand_over,
}


@require_POST
@login_required
def end(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Resign the match, or claim it from a player who has left it waiting 72 hours; at a
    table, leave it, or hand a seat left waiting 72 hours to the computer."""
    ending = _ENDINGS.get(request.POST.get("end", ""))
    if ending is None:
        return _after(request, pk, _("Choose whether to resign or to claim the match."))
    try:
        game = ending(pk=pk, member=_member(request))
    except OnlineGame.DoesNotExist:
        raise Http404("no such game of yours") from None
    except DomainError as refused:
        return _after(request, pk, refused.message)
    return _after(request, pk, "", game=game)


def _after(
    request: HtmxHttpRequest, pk: int, error: str, *, game: OnlineGame | None = None
) -> HttpResponse:
    """The game after a post: its table for htmx, else back to its page (with the error).

    ``game`` is the row the service just saved, when it took the post: the table is drawn
    from it and its match (kept by ``play.online._save``) without reading the row again
    (docs/benchmarks.md, "Games between members"). A later move by the other player is
    then brought by the next poll, as the page's ETag is this row's."""
    if game is None:
        game = _players_game(request, pk)
    if request.htmx:
        return _game_page(request, game, error=error, partial="game")
    if error:
        messages.error(request, error)
    return redirect("play:online_game", pk=game.pk)


@require_safe
@login_required
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """A finished game of the match, step by step, both hands face up (its players only)."""
    game = _players_game(request, pk)
    seat = game.sat_at(request.user.pk)  # a member who left a table replays from their seat
    assert seat is not None
    try:
        game_number = int(request.GET.get("game", "1"))
        step = int(request.GET.get("step", "0"))
    except ValueError:
        game_number, step = 0, -1
    view = online_replay(game, seat=seat, game_number=game_number, step=step)
    if view is None:
        raise Http404("no such game or step")
    context = {
        "replay": view,
        "back_url": reverse("play:online_game", args=[game.pk]),
        "review_url": reverse("play:online_review", args=[game.pk]) if game.finished else "",
        "four_colours": bool(request.session.get(FOUR_COLOURS, False)),
    }
    return render(request, "play/replay.html", context)
