"""A member's accuracy over their last reviewed games as a line chart: plain numbers for
an SVG template (play/accuracy_panel.html), as the rating history is drawn.

Terms: the chart's *games* are the member's reviewed games, oldest first, spaced evenly
from left to right (the table beside the chart gives the dates); each has two *points*,
the accuracy of the discards and of the play (0..100, docs/review.md). The *grid* is a
line every 25.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.charts import GridLine, polyline, spaced

WIDTH, HEIGHT = 640, 220
"""The chart's drawing area in SVG units (the page scales it to its width)."""
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 12, 12
"""Margins: the percentage labels on the left."""
GRID = (0, 25, 50, 75, 100)


@dataclass(frozen=True, slots=True)
class Plotted:
    x: float
    y: float
    value: float

    @property
    def corner(self) -> tuple[float, float]:
        """The top left corner of the point's square (the play's points are squares)."""
        return self.x - 3, self.y - 3


@dataclass(frozen=True, slots=True)
class AccuracyChart:
    discards: tuple[Plotted, ...]
    plays: tuple[Plotted, ...]
    grid: tuple[GridLine, ...]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT

    @property
    def discards_line(self) -> str:
        return _line(self.discards)

    @property
    def plays_line(self) -> str:
        return _line(self.plays)


def _line(points: tuple[Plotted, ...]) -> str:
    return polyline((point.x, point.y) for point in points)


def _y(value: float) -> float:
    return TOP + (1 - min(max(value, 0.0), 100.0) / 100) * (HEIGHT - TOP - BOTTOM)


def accuracy_chart(games: Sequence[tuple[float, float]]) -> AccuracyChart | None:
    """The chart of ``games`` ((discard accuracy, play accuracy) of each, oldest first);
    None for fewer than two (one game is no line)."""
    if len(games) < 2:
        return None
    xs = spaced(len(games), LEFT, WIDTH - RIGHT)
    discards = tuple(Plotted(x, _y(d), d) for x, (d, _p) in zip(xs, games, strict=True))
    plays = tuple(Plotted(x, _y(p), p) for x, (_d, p) in zip(xs, games, strict=True))
    return AccuracyChart(discards, plays, tuple(GridLine(_y(v), v) for v in GRID))
