"""``{% pairing_rows table %}``: a round's pairings rows, as its view read them
(``tournaments.pairing_table.PairingTable``): the rows kept in the cache as they are, the
others drawn with the page's ``pairing_row`` partial and kept under their keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template
from django.core.cache import cache
from django.template.loader import get_template
from django.utils.safestring import SafeString

if TYPE_CHECKING:
    from tournaments.pairing_table import PairingTable

register = template.Library()

KEEP_SECONDS = 24 * 60 * 60
ROW_TEMPLATE = "tournaments/round_detail.html#pairing_row"


@register.simple_tag
def pairing_rows(table: PairingTable) -> SafeString:
    """The ``<tr>`` of each match of the round, in table order."""
    row = get_template(ROW_TEMPLATE)
    drawn = {key: row.render({"line": line, "mine": mine}) for key, line, mine in table.to_draw}
    if drawn:
        cache.set_many(drawn, KEEP_SECONDS)
    shown = {**table.kept, **drawn}
    return SafeString("".join(shown.get(key, "") for key in table.keys))
