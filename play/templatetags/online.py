"""Lines of the lobby and the home page about games between members (``play.online``,
``play.championship``), from the challenges and games their views read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import get_text_list
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from club.names import member_name

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from play.models import Challenge, OnlineGame

register = template.Library()


@register.simple_tag
def game_title(game: OnlineGame, user: User) -> str:
    """ "Match against Bertil Ås, best of 3", as ``user`` (a player of it) reads it; "Table
    of four with Bertil Ås, Cecilia Berg and the computer" at a table."""
    if game.is_table:
        return _table_title(game, user)
    first, second = game.pair
    other = second if game.seat_of(user.pk) == 0 else first
    if game.is_match:
        return _("Match against %(name)s, best of %(best_of)s") % {
            "name": member_name(other),
            "best_of": game.best_of,
        }
    return _("Game against %(name)s") % {"name": member_name(other)}


def _table_title(game: OnlineGame, user: User) -> str:
    members = (game.seat_0, game.seat_1, game.seat_2, game.seat_3)[: game.seats]
    others = [member_name(member) for member in members if member is not None and member != user]
    if any(member is None for member in members):
        others.append(_("the computer"))
    names = get_text_list(others, _("and"))
    if game.seats == 3:
        return _("Table of three with %(names)s") % {"names": names}
    return _("Table of four with %(names)s") % {"names": names}


@register.simple_tag
def table_line(challenge: Challenge) -> SafeString:
    """Whose table of three or four it is, to how many points, the computer's level."""
    values = {
        "name": member_name(challenge.challenger),
        "target": challenge.target,
        "level": challenge.get_level_display(),
    }
    if challenge.seats == 3:
        what = _("%(name)s's table of three, a game to %(target)s") % values
    else:
        what = _("%(name)s's table of four, two partnerships, a game to %(target)s") % values
    if challenge.self_count:
        what += ", " + _("count it yourselves")
    free = _("the computer plays a free seat at %(level)s level") % values
    when = _("%(time)s ago") % {"time": timesince(challenge.created)}
    return format_html('{}; {}. <span class="help">{}</span>', what, free, when)


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


@register.filter
def waits_for(game: OnlineGame, user: User) -> bool:
    return game.waits_for(user.pk)


@register.filter
def seat_of(game: OnlineGame, user: User) -> int | None:
    return game.seat_of(user.pk)


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
