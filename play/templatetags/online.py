"""Lines of the lobby, the home page and a tournament match's page about games between
members (``play.online``, ``play.championship``)."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AnonymousUser, User
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from play.championship import refusal_to_propose
from play.models import Challenge, OnlineGame
from play.online import member_name, rated_refusal
from play.online_selectors import challenges_to, finished_games, online_games_for
from tournaments.models import Match as TournamentMatch
from tournaments.selectors import result_by_organiser

register = template.Library()


@register.simple_tag
def game_title(game: OnlineGame, user: User) -> str:
    """ "Match against Bertil Ås, best of 3", as ``user`` (a player of it) reads it."""
    other = game.seat_1 if game.seat_of(user.pk) == 0 else game.seat_0
    if game.is_match:
        return _("Match against %(name)s, best of %(best_of)s") % {
            "name": member_name(other),
            "best_of": game.best_of,
        }
    return _("Game against %(name)s") % {"name": member_name(other)}


@register.simple_tag
def challenge_line(challenge: Challenge, reader: User | None = None) -> SafeString:
    """Who challenges whom to what, and when; a proposal to play a tournament match, as
    ``reader`` (its proposer or their opponent) reads it."""
    if challenge.match is not None:
        return _proposal_line(challenge, reader)
    length = _("a match, best of three") if challenge.best_of == 3 else _("one game")
    terms = [length]
    if challenge.muggins:
        terms.append(_("muggins"))
    elif challenge.self_count:
        terms.append(_("count it yourselves"))
    if challenge.rated:
        terms.append(_("rated"))
    if challenge.challenged is None:
        who = _("%(name)s, to anyone") % {"name": member_name(challenge.challenger)}
    else:
        who = _("%(name)s to %(other)s") % {
            "name": member_name(challenge.challenger),
            "other": member_name(challenge.challenged),
        }
    when = _("%(time)s ago") % {"time": timesince(challenge.created)}
    return format_html(
        '<span class="challenge">{}: {}</span> <span class="help">{}</span>',
        who,
        ", ".join(terms),
        when,
    )


@register.simple_tag
def rated_note(challenge: Challenge, user: User) -> str:
    """What a rated challenge means for ``user`` (docs/rating.md): the waiting time, and
    whether it could still be rated between them this month."""
    if not challenge.rated:
        return ""
    note = _(
        "Rated: a player who has not moved for 72 hours loses the match if the other claims it."
    )
    mine = challenge.challenger_id == user.pk
    other = challenge.challenged if mine else challenge.challenger
    refusal = rated_refusal(user, other) if other is not None else None
    return f"{note} {refusal}" if refusal else note


@register.filter
def waits_for(game: OnlineGame, user: User) -> bool:
    return game.waits_for(user.pk)


@register.filter
def seat_of(game: OnlineGame, user: User) -> int | None:
    return game.seat_of(user.pk)


@register.inclusion_tag("play/online_summary.html", takes_context=True)
def online_summary(context: template.Context) -> dict[str, object]:
    """A member's challenges to answer and games waiting for their move (home page)."""
    user = context.get("user")
    if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated:
        return {"shown": False}
    games = online_games_for(user).filter(finished=False)
    return {
        "shown": True,
        "user": user,
        "challenges": list(challenges_to(user)[:10]),
        "your_move": [game for game in games[:30] if game.waits_for(user.pk)],
    }


def _proposal_line(challenge: Challenge, reader: User | None) -> SafeString:
    """A proposal to play a tournament match on the site, linked to the match: worded for
    its proposer ("You proposed … against Björn") or for the opponent it waits for."""
    match = challenge.match
    assert match is not None
    tournament = match.round.tournament
    if reader is not None and reader.pk == challenge.challenger_id:
        said = _(
            "You proposed to play your match against %(name)s on the site: %(tournament)s, "
            "round %(round)s, table %(table)s, best of %(best_of)s. It starts when they accept."
        )
        other = challenge.challenged
    else:
        said = _(
            "%(name)s proposes to play your match on the site: %(tournament)s, round "
            "%(round)s, table %(table)s, best of %(best_of)s"
        )
        other = challenge.challenger
    assert other is not None, "a proposal is made to the match's other player"
    what = said % {
        "name": member_name(other),
        "tournament": tournament.name,
        "round": match.round.number,
        "table": match.table,
        "best_of": match.best_of,
    }
    return format_html(
        '<a class="challenge" href="{}">{}</a>',
        reverse("tournaments:match", args=[tournament.slug, match.pk]),
        what,
    )


@register.inclusion_tag("play/match_online.html", takes_context=True)
def match_online(context: template.Context, match: TournamentMatch) -> dict[str, object]:
    """On a tournament match's page: its game on the site (to play or watch), the proposal
    to play it there (to answer or withdraw), or the button that proposes it."""
    user = context.get("user")
    member = user if isinstance(user, User) else None
    shown: dict[str, object] = {"csrf_token": context.get("csrf_token"), "match": match}
    game = (
        OnlineGame.objects.filter(match=match)
        .only("pk", "seat_0", "seat_1", "finished", "best_of", "ended", "record")
        .first()
    )
    if game is not None:
        plays = member is not None and game.seat_of(member.pk) is not None
        replays = finished_games(game) if plays and game.finished else []
        by_organiser = match.status == TournamentMatch.Status.FINAL and result_by_organiser(match)
        return {
            **shown,
            "game": game,
            "plays": plays,
            "replays": replays,
            "by_organiser": by_organiser,
        }
    if member is None or match.is_bye:
        return shown
    proposal = (
        match.online_proposals.filter(status=Challenge.Status.OPEN)
        .select_related("challenger__player")
        .first()
    )
    if proposal is not None:
        if member.pk not in (proposal.challenger_id, proposal.challenged_id):
            return shown
        return {**shown, "proposal": proposal, "mine": proposal.challenger_id == member.pk}
    return {**shown, "may_propose": refusal_to_propose(match, member) is None}
