"""What the tournaments need from a rating list, declared here and implemented above.

Tournaments seed a round 1 by rating and show each unplayed match's expected scores; a
rating list knows both. A rating list rates final results, so the tournaments tell it
when theirs change (``final_results_changed``, once the change is saved) and, for the
administrator's commands, ask it to rate them at once (``rate_now``).

Which one is asked is a setting, as Django chooses its backends:
``TOURNAMENTS_RATING_LIST``, the dotted path of a class implementing ``RatingList``
(the club's: ``ratings.ports.ClubRatingList``). Without it the tournaments run with
``NoRatingList``: no one is rated, no match has expected scores, a random draw for
round 1 of a tournament seeded by rating. The tournaments app imports no implementation.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Protocol

from django.conf import settings
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

from ops import outbox

DEFAULT = "tournaments.ports.NoRatingList"

EXPECTED_SCORES = "expected-scores"
"""The scope (``core.revalidation``) of the expected scores: a rating list moves its mark
with every change of its ``version``, so the pages answered from the cache that show
them are drawn again (tournaments/revalidation.py)."""


class RatingList(Protocol):
    """The three questions a tournament asks of a rating list (each is one or two queries),
    and what it tells it."""

    def ratings_now(self, players: Iterable[int]) -> dict[int, float]:
        """{player id: rating number now} of those of ``players`` who are rated."""
        ...

    def expected_scores(self, pairs: Mapping[int, tuple[int, int]]) -> dict[int, float]:
        """{match id: seat 0's expected score, 0 to 1} of the matches of ``pairs`` (match id:
        the player ids in seats 0 and 1) the ratings say something of."""
        ...

    def version(self) -> int:
        """A number that moves whenever those ratings and expected scores may change (the
        pages that show them key on it); when it moves, so does ``EXPECTED_SCORES``'s mark."""
        ...

    def results_changed(self, *, round: int | None) -> None:  # noqa: A002
        """Final results of the round with id ``round`` became final or were corrected
        (None: a tournament's final results joined, left or moved among the rated ones).
        Told once the change is saved, perhaps twice; quick: the rating is the list's to
        do, later."""
        ...

    def rate_now(self) -> None:
        """Rate every change told so far, before returning (the administrator's commands)."""
        ...


class NoRatingList:
    """No rating list: nobody is rated."""

    def ratings_now(self, players: Iterable[int]) -> dict[int, float]:
        return {}

    def expected_scores(self, pairs: Mapping[int, tuple[int, int]]) -> dict[int, float]:
        return {}

    def version(self) -> int:
        return 0

    def results_changed(self, *, round: int | None) -> None:  # noqa: A002
        pass

    def rate_now(self) -> None:
        pass


def rating_list() -> RatingList:
    """The rating list ``TOURNAMENTS_RATING_LIST`` names (``NoRatingList`` by default)."""
    return _loaded(getattr(settings, "TOURNAMENTS_RATING_LIST", DEFAULT))


def final_results_changed(*, round: int | None) -> None:  # noqa: A002
    """Tell the rating list, once the current transaction commits, that final results of
    the round with id ``round`` changed (None: which tournaments are rated, or when)."""
    outbox.after_commit(tell_results_changed, round=round)


def tell_results_changed(*, round: int | None) -> None:  # noqa: A002
    """``final_results_changed``'s call, made after the commit (``ops.outbox``)."""
    rating_list().results_changed(round=round)


@functools.cache
def _loaded(path: str) -> RatingList:
    chosen: RatingList = import_string(path)()
    return chosen


def _forget(*, setting: str, **kwargs: object) -> None:
    if setting == "TOURNAMENTS_RATING_LIST":
        _loaded.cache_clear()


setting_changed.connect(_forget, dispatch_uid="tournaments-rating-list")
