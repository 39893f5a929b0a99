"""Play's sections on other apps' pages (``core.sections``): a member's challenges and
games waiting for them on the home page, their accuracy on their page in the register,
and a tournament match's game on the site on the match's page.

Each reads all it shows here, before the page is drawn; its template only draws it
(the lines with ``play.templatetags.online``).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest

from club.models import Player
from core.sections import Section
from play.accuracy_chart import accuracy_chart
from play.championship import refusal_to_propose
from play.models import Challenge, OnlineGame
from play.online_selectors import challenges_to, finished_games, online_games_for
from play.reviews import member_accuracy
from tournaments.models import Match as TournamentMatch
from tournaments.selectors import result_by_organiser

LAST_GAMES = 20
"""The reviewed games a member's accuracy panel shows."""


def online_summary(request: HttpRequest) -> Section:
    """A member's challenges to answer and games waiting for their move (home page)."""
    user = request.user
    if not isinstance(user, User):
        return Section("play/online_summary.html", {"shown": False})
    games = online_games_for(user).filter(finished=False)
    return Section(
        "play/online_summary.html",
        {
            "shown": True,
            "user": user,
            "challenges": list(challenges_to(user)[:10]),
            "your_move": [game for game in games[:30] if game.waits_for(user.pk)],
        },
    )


def accuracy_panel(request: HttpRequest, *, player: Player) -> Section:
    """On a member's page: their accuracy in the discards and the play over their last
    ``LAST_GAMES`` reviewed games, a chart and a table; nothing when they have none."""
    points = member_accuracy(player.user, last=LAST_GAMES) if player.user is not None else []
    return Section(
        "play/accuracy_panel.html",
        {
            "player": player,
            "games": list(reversed(points)),  # the table: the latest first
            "chart": accuracy_chart([(p.discard_accuracy, p.play_accuracy) for p in points]),
        },
    )


def match_online(request: HttpRequest, *, match: TournamentMatch) -> Section:
    """On a tournament match's page: its game on the site (to play or watch), the proposal
    to play it there (to answer or withdraw), or the button that proposes it."""
    user = request.user
    member = user if isinstance(user, User) else None
    shown: dict[str, object] = {"match": match}
    template = "play/match_online.html"
    game = (
        OnlineGame.objects.filter(match=match)
        .only("pk", "seat_0", "seat_1", "finished", "best_of", "ended", "record")
        .first()
    )
    if game is not None:
        plays = member is not None and game.seat_of(member.pk) is not None
        replays = finished_games(game) if plays and game.finished else []
        by_organiser = match.status == TournamentMatch.Status.FINAL and result_by_organiser(match)
        return Section(
            template,
            {
                **shown,
                "game": game,
                "plays": plays,
                "replays": replays,
                "by_organiser": by_organiser,
            },
            csrf=True,
        )
    if member is None or match.is_bye:
        return Section(template, shown, csrf=True)
    proposal = (
        match.online_proposals.filter(status=Challenge.Status.OPEN)
        .select_related("challenger__player", "challenged__player")
        .first()
    )
    if proposal is not None:
        if member.pk not in (proposal.challenger_id, proposal.challenged_id):
            return Section(template, shown, csrf=True)
        mine = proposal.challenger_id == member.pk
        return Section(template, {**shown, "proposal": proposal, "mine": mine}, csrf=True)
    may_propose = refusal_to_propose(match, member) is None
    return Section(template, {**shown, "may_propose": may_propose}, csrf=True)
