"""``{% cacheonce %}``: Django's ``{% cache %}`` whose fragment is rendered once per key.

    {% load fragments %}
    {% cacheonce pairings tournament.pk tournament.results_version round.number %}
      ... the round's table ...
    {% endcacheonce %}

The fragment is kept for a day under its name and the values after it, like
``{% cache 86400 ... %}``; but when many readers find it missing at the same moment
(a result has just moved the version everyone polls), one renders it and the others
wait for that render (``core.caching.computed_once``) instead of each doing the same
work. The values must name everything the fragment shows, as for ``{% cache %}``.
"""

from __future__ import annotations

from django import template
from django.core.cache.utils import make_template_fragment_key
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.utils.safestring import SafeString

from core.caching import computed_once

register = template.Library()

KEEP_SECONDS = 24 * 60 * 60
# A table renders in well under a second; past this a waiting reader renders its own.
WAIT_SECONDS = 2.0


class CacheOnceNode(template.Node):
    def __init__(self, nodelist: NodeList, name: str, vary_on: list[FilterExpression]) -> None:
        self.nodelist = nodelist
        self.name = name
        self.vary_on = vary_on

    def render(self, context: template.Context) -> SafeString:
        key = make_template_fragment_key(
            self.name, [value.resolve(context) for value in self.vary_on]
        )
        fragment = computed_once(
            key,
            lambda: self.nodelist.render(context),
            timeout=KEEP_SECONDS,
            wait=WAIT_SECONDS,
        )
        return SafeString(fragment or "")


@register.tag("cacheonce")
def do_cacheonce(parser: Parser, token: Token) -> CacheOnceNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError(f"{bits[0]!r} needs a fragment name.")
    nodelist = parser.parse(("endcacheonce",))
    parser.delete_first_token()
    return CacheOnceNode(nodelist, bits[1], [parser.compile_filter(bit) for bit in bits[2:]])
