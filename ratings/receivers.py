"""What the rating list does when a final result is announced (``tournaments.signals``,
``play.signals``). Its answers to the tournaments' questions are ``ratings.ports``.

An announcement is noted in the result's transaction (``ratings_announce``) and a re-rate
is queued in it too, so with the database queue the task exists if and only if the result
was saved; a worker runs it a moment later. ``at_once`` (the administrator's commands):
rated again in the same transaction.
"""

from __future__ import annotations

import datetime
from typing import Any

from ratings.services import ratings_announce, ratings_rerate
from ratings.tasks import rerate
from tournaments.models import Round


def on_final_results_changed(
    sender: object,
    *,
    round: Round | None,  # noqa: A002
    at_once: bool = False,
    **kwargs: Any,
) -> None:
    ratings_announce(round=round)
    if at_once:
        ratings_rerate()
    else:
        rerate.enqueue()


def on_rated_match_ended(sender: object, *, month: datetime.date, **kwargs: Any) -> None:
    ratings_announce(month=month)
    rerate.enqueue()
