"""Cards and game lines as the practice pages draw them: ``{% card %}``, ``{% cards_text %}``
(cards in a line of text) and ``{% game_line %}``.

Tags rather than included templates: a game page draws a few hundred cards (the
hand, the play, every line of the log), and an include costs a template render
each. Each face and each line is drawn once per process and language, then looked
up: neither ever changes.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from play.board import CardFace
from play.narration import Line
from scoring.rules.events import EventType

register = template.Library()


@register.simple_tag
def card(face: CardFace, small: bool = False) -> SafeString:
    """The card's face: its rank and suit shown, its name for screen readers."""
    return _face_html(face, small)


@lru_cache(maxsize=1 << 9)  # 52 cards, two sizes, a few languages
def _face_html(face: CardFace, small: bool) -> SafeString:
    return format_html(
        '<span class="card suit-{}{}" role="img" aria-label="{}" title="{}">'
        '<span class="card-rank" aria-hidden="true">{}</span>'
        '<span class="card-suit" aria-hidden="true">{}</span></span>',
        face.suit,
        " card-small" if small else "",
        face.name,
        face.name,
        face.rank,
        face.glyph,
    )


@register.simple_tag
def cards_text(faces: list[CardFace]) -> SafeString:
    """Cards as part of a line of text, rank and suit glyph in the suit's colour, each
    named for screen readers as ``{% card %}`` names it."""
    return mark_safe(" ".join(_text_html(face) for face in faces))  # noqa: S308  # cards


@lru_cache(maxsize=1 << 8)
def _text_html(face: CardFace) -> SafeString:
    return format_html(
        '<span class="card-text suit-{}" role="img" aria-label="{}">{}{}</span>',
        face.suit,
        face.name,
        face.rank,
        face.glyph,
    )


@register.simple_tag
def game_line(line: Line) -> SafeString:
    """One event of a game as the news, the log and the replay tell it."""
    return _drawn(line, get_language())


@lru_cache(maxsize=1 << 12)
def _drawn(line: Line, language: str | None) -> SafeString:
    """A line's HTML, drawn once per line and language: a game's past lines never change,
    and each decision's page tells the whole log again (some 150 lines by the end).

    Written here rather than in a template, as the card is: a shown hand's line holds
    some thirty cards, and its template took 0.74 ms to draw it, this 0.16 ms.
    """
    kind = "mine" if line.mine else "theirs" if line.player is not None else ""
    classes = " ".join(
        name
        for name in ("line", f"line-{line.type}", kind, "scoring" if line.points else "")
        if name
    )
    parts = [
        format_html(
            '<li class="{}" data-pegs="{}" data-scores="{} {}"{}>',
            classes,
            line.data_pegs,
            line.scores[0],
            line.scores[1],
            format_html(' data-seat="{}"', line.player) if line.player is not None else "",
        ),
        format_html('<span class="line-text">{}</span>', line.text),
    ]
    if line.cards:
        starter = (
            format_html(
                '<span class="plus" aria-hidden="true">+</span>'
                '<span class="visually-hidden">{}</span>{}',
                _("and the starter"),
                card(line.starter, small=True),
            )
            if line.starter
            else ""
        )
        parts.append(
            format_html('<span class="mini-cards">{}{}</span>', _small(line.cards), starter)
        )
    if line.said:
        parts.append(format_html('<q class="said" lang="{}">{}</q>', language, line.said))
    if line.type == EventType.SHOW and line.items:
        items = format_html_join(
            "",
            '<li><span class="item-label">{}</span> <span class="mini-cards">{}</span> '
            '<span class="item-points">{}</span></li>',
            (
                (
                    item.label,
                    _small(item.cards),
                    ngettext("%(points)s point", "%(points)s points", item.points)
                    % {"points": item.points},
                )
                for item in line.items
            ),
        )
        parts.append(format_html('<ul class="breakdown">\n{}\n</ul>', items))
    if line.missed_text:
        parts.append(format_html('<p class="missed">{}</p>', line.missed_text))
    parts.append(mark_safe("</li>"))
    return mark_safe("\n".join(parts))  # noqa: S308  # every part escaped by format_html


def _small(faces: tuple[CardFace, ...]) -> SafeString:
    return mark_safe("".join(card(face, small=True) for face in faces))  # noqa: S308  # cards
