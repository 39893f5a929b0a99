"""``{% card face %}``: a playing card as the practice pages draw it; ``{% game_line line %}``.

A tag rather than an included template: a game page draws a few hundred cards (the
hand, the play, every line of the log), and an include costs a template render each.
"""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from play.board import CardFace
from play.narration import Line

register = template.Library()


@register.simple_tag
def card(face: CardFace, small: bool = False) -> SafeString:
    """The card's face: its rank and suit shown, its name for screen readers."""
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
def game_line(line: Line) -> SafeString:
    """One event of a game as the news, the log and the replay tell it (play/line.html)."""
    return _drawn(line, get_language())


@lru_cache(maxsize=1 << 12)
def _drawn(line: Line, language: str | None) -> SafeString:
    """A line's HTML, drawn once per line and language: a game's past lines never change,
    and each decision's page tells the whole log again (some 150 lines by the end)."""
    html = render_to_string("play/line.html", {"line": line, "LANGUAGE_CODE": language})
    return mark_safe(html)  # noqa: S308  # the template's own output, escaped as it rendered
