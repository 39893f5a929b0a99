"""The club's rating list as the tournaments ask and tell it (``tournaments.ports.RatingList``;
``TOURNAMENTS_RATING_LIST`` names this class in the settings)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ratings import selectors
from ratings.services import ratings_announce, ratings_rerate
from ratings.tasks import rerate
from tournaments.models import Round


class ClubRatingList:
    def ratings_now(self, players: Iterable[int]) -> dict[int, float]:
        return {player: now.rating for player, now in selectors.ratings_now(players).items()}

    def expected_scores(self, pairs: Mapping[int, tuple[int, int]]) -> dict[int, float]:
        return selectors.expected_scores(pairs)

    def version(self) -> int:
        return selectors.list_version()

    def results_changed(self, *, round: int | None) -> None:  # noqa: A002
        # A round deleted since the change was saved: its results left the list.
        named = round if round is not None and Round.objects.filter(pk=round).exists() else None
        ratings_announce(round_id=named)
        rerate.enqueue()

    def rate_now(self) -> None:
        ratings_rerate()
