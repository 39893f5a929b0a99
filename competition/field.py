"""What a Swiss matching knows of the field, by pairing position.

``Field`` is shared by the matching (``competition.matching``), its windows
(``competition.window``) and the seeded round 1 (``competition.seeding``); it lives
here, importing none of them, so that their imports run one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

NOISE_RANGE = 1 << 10
"""The seeded random numbers that break ties between pairs are below this."""


@dataclass(frozen=True, slots=True)
class Field:
    """What the matching needs to know, by position.

    ``legal[i, j]`` is true when ``i`` and ``j`` may meet (never met, not
    forbidden); ``bye_order`` lists the positions that may take the bye,
    preferred first (lowest-ranked first).
    """

    wins: np.ndarray
    legal: np.ndarray
    bye_order: tuple[int, ...]
    noise: np.ndarray

    @classmethod
    def build(
        cls, wins: Sequence[int], legal: np.ndarray, bye_order: Sequence[int], *, seed: int
    ) -> Field:
        size = len(wins)
        noise = np.random.default_rng(seed).integers(0, NOISE_RANGE, size=(size, size))
        return cls(np.asarray(wins, dtype=np.int64), legal, tuple(bye_order), noise)

    @property
    def size(self) -> int:
        return len(self.wins)

    @property
    def needs_bye(self) -> bool:
        return self.size % 2 == 1
