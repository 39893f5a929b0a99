"""What the rating list does when a final result is announced (``tournaments.signals``,
``play.signals``), and its answers to the tournaments' questions about ratings.

An announcement is noted in the result's transaction (``ratings_announce``) and a re-rate
is queued in it too, so with the database queue the task exists if and only if the result
was saved; a worker runs it a moment later. ``at_once`` (the administrator's commands):
rated again in the same transaction.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from ratings.selectors import expected_scores, list_version, ratings_now
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


def on_ratings_wanted(sender: object, *, players: Iterable[int], **kwargs: Any) -> dict[int, float]:
    return {player: rating.rating for player, rating in ratings_now(players).items()}


def on_expected_scores_wanted(
    sender: object, *, pairs: Mapping[int, tuple[int, int]], **kwargs: Any
) -> dict[int, float]:
    return expected_scores(pairs)


def on_expected_scores_version_wanted(sender: object, **kwargs: Any) -> int:
    return list_version()
