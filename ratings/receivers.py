"""What the rating list does when a rated online match has ended (``play.signals``; the
tournaments tell it of their final results through their port: ``ratings.ports``).

Told once the match's end is saved, in a transaction of its own (``ops.outbox``): the
announcement is noted (``ratings_announce``) and a re-rate queued, which a worker runs a
moment later. Told twice, the list is rated twice to the same result.
"""

from __future__ import annotations

import datetime
from typing import Any

from ratings.services import ratings_announce
from ratings.tasks import rerate


def on_rated_match_ended(sender: object, *, month: str, **kwargs: Any) -> None:
    ratings_announce(month=datetime.date.fromisoformat(month))
    rerate.enqueue()
