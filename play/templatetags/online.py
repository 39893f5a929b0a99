"""Lines of the lobby and the home page about games between members (``play.online``)."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AnonymousUser, User
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from play.models import Challenge, OnlineGame
from play.online import member_name
from play.online_selectors import challenges_to, online_games_for

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
def challenge_line(challenge: Challenge) -> SafeString:
    """Who challenges whom to what, and when."""
    length = _("a match, best of three") if challenge.best_of == 3 else _("one game")
    terms = [length]
    if challenge.muggins:
        terms.append(_("muggins"))
    elif challenge.self_count:
        terms.append(_("count it yourselves"))
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
