"""A game's table as the online benchmarks' players read it: the decision a click would post
(``benchmarks/online_locustfile.py``, ``benchmarks/push.py``)."""

from __future__ import annotations

import re
from typing import Any

MOVE_VERSION = re.compile(r'name="version" value="(\d+)"')
DISCARDS = re.compile(r'name="cards" value="([^"]+)"')
PLAYABLE = re.compile(r'name="card" value="([^"]+)" class="card-button"(?! disabled)')


def decision(table: str) -> dict[str, Any] | None:
    """The post a player's click would make from ``table``, or None when none is due."""
    found = MOVE_VERSION.search(table)
    if found is None:
        return None
    version = found.group(1)
    if "discard-form" in table:
        return {"version": version, "action": "discard", "cards": DISCARDS.findall(table)[:2]}
    if "play-form" in table:
        card = PLAYABLE.search(table)
        return (
            None if card is None else {"version": version, "action": "play", "card": card.group(1)}
        )
    if 'value="next"' in table:
        return {"version": version, "action": "next"}
    return None
