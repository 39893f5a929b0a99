"""The review pages of finished games (docs/review.md): a practice game's, for whoever
may see the game (its member, or the guest's session), and a game between members', for
its two players and, for a championship match, for anyone who may watch it.

Nobody reaches the review of a game in progress: a 404, as for its replay. A finished
game whose review is not stored yet gets a page that says it is being prepared (asking
the worker for it, ``play.tasks.review_requested``) and fills in by itself: htmx asks
for the ``content`` partial every few seconds, and without JavaScript the page reloads.

``?only=mistakes`` lists only the reader's own mistakes (a player's; a spectator's,
both players'), ``&seat=0`` or ``1`` only that player's (``play.review_presenter.Shown``).
"""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from club.names import member_name
from core.http import HtmxHttpRequest
from play.models import OnlineGame
from play.online_selectors import seat_names as member_seat_names
from play.online_selectors import seen_by
from play.review_presenter import review_page, shown_from_query
from play.reviews import Reviewed, stored_review
from play.seating import seat_names
from play.selectors import practice_games_for
from play.services import FOUR_COLOURS
from play.tasks import review_requested
from scoring.review import from_json

REFRESH_SECONDS = 4
"""How often the page of a review being prepared asks again."""


@require_safe
def practice_review(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    games = practice_games_for(user=request.user, session=request.session)
    practice = get_object_or_404(games, pk=pk, finished=True)
    return _page(
        request,
        practice,
        names=(_("You"), _("The computer")) if practice.seats == 2 else seat_names(practice.seats),
        listed=(0,),
        reader=0,
        replay=("play:replay", practice.pk),
    )


@require_safe
def online_review(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    games = OnlineGame.objects.select_related(
        "seat_0__player", "seat_1__player", "seat_2__player", "seat_3__player", "match"
    )
    game = games.filter(seen_by(request.user), pk=pk).first()
    if game is None:
        if request.user.is_authenticated:
            raise Http404("not a game this member may see")
        return redirect_to_login(request.get_full_path())
    if not game.finished:
        raise Http404("the review opens when the match is over")
    seat = game.sat_at(request.user.pk)  # a member who left a table reads their own seat
    if game.is_table:
        assert game.record is not None, "a finished table has its record"
        names = member_seat_names(game, game.record["players"])
        listed = tuple(s for s, member in enumerate(game.members) if member is not None)
    else:
        names, listed = tuple(member_name(member) for member in game.pair), (0, 1)
    return _page(
        request,
        game,
        names=names,
        listed=listed,
        reader=seat,
        replay=("play:online_replay", game.pk) if seat is not None else None,
    )


def _page(
    request: HtmxHttpRequest,
    game: Reviewed,
    *,
    names: tuple[str, ...],
    listed: tuple[int, ...],
    reader: int | None,
    replay: tuple[str, int] | None,
) -> HttpResponse:
    stored = stored_review(game)
    if stored is None and review_requested(game):
        stored = stored_review(game)  # a queue that runs at once (no worker) has made it
    shown = shown_from_query(request.GET, listed=listed, reader=reader)
    context = {
        "game": game,
        "online": isinstance(game, OnlineGame),
        "back_url": _back_url(game),
        "review": None
        if stored is None
        else review_page(
            from_json(stored.review),
            names=names,
            listed=listed,
            replay=replay,
            reader=reader,
            shown=shown,
        ),
        "refresh_seconds": REFRESH_SECONDS,
        "path": request.path,
        "url": request.get_full_path(),
        "four_colours": bool(request.session.get(FOUR_COLOURS, False)),
    }
    partial = request.htmx and request.htmx.target == "review-content"
    template = "play/review.html#content" if partial else "play/review.html"
    response = render(request, template, context)
    if stored is None:
        response["Cache-Control"] = "no-store"
    return response


def _back_url(game: Reviewed) -> str:
    if isinstance(game, OnlineGame):
        return reverse("play:online_game", args=[game.pk])
    return reverse("play:game", args=[game.pk])
