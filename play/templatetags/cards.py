"""``{% card face %}``: a playing card as the practice pages draw it.

A tag rather than an included template: a game page draws a few hundred cards (the
hand, the play, every line of the log), and an include costs a template render each.
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from play.board import CardFace

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
