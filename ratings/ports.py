"""The club's rating list as the tournaments ask it (``tournaments.ports.RatingList``;
``TOURNAMENTS_RATING_LIST`` names this class in the settings)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ratings import selectors


class ClubRatingList:
    def ratings_now(self, players: Iterable[int]) -> dict[int, float]:
        return {player: now.rating for player, now in selectors.ratings_now(players).items()}

    def expected_scores(self, pairs: Mapping[int, tuple[int, int]]) -> dict[int, float]:
        return selectors.expected_scores(pairs)

    def version(self) -> int:
        return selectors.list_version()
