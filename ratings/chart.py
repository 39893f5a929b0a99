"""A member's rating history drawn as a line chart: plain numbers for an SVG template.

Terms: the chart's *points* are the member's ratings after each period they played
in, oldest first, spaced evenly from left to right (a period is a tournament round,
and rounds are not evenly spaced in time: the table beside the chart gives the dates).
The *band* is each rating plus and minus two deviations, where the true strength lies
with 95 % confidence. The *grid* is a line at every ``step`` rating points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from core.charts import GridLine, polyline, spaced

WIDTH, HEIGHT = 640, 240
"""The chart's drawing area in SVG units (the page scales it to its width)."""
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 12, 24
"""Margins: the rating labels on the left, room for the first and last dates below."""
STEPS = (25, 50, 100, 200, 250, 500)
"""Grid spacings to choose from: the smallest that gives at most six lines."""


@dataclass(frozen=True, slots=True)
class Plotted:
    """A point of the chart: where it is drawn and the rating it stands for."""

    x: float
    y: float
    rating: float
    deviation: float


@dataclass(frozen=True, slots=True)
class Chart:
    points: tuple[Plotted, ...]
    grid: tuple[GridLine, ...]
    band: str
    """The polygon of the band (rating ± 2 deviations), as SVG ``points``."""
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def line(self) -> str:
        """The polyline through the ratings, as SVG ``points``."""
        return polyline((point.x, point.y) for point in self.points)

    @property
    def left(self) -> int:
        return LEFT

    @property
    def bottom(self) -> int:
        return HEIGHT - BOTTOM


def history_chart(ratings: Sequence[tuple[float, float]]) -> Chart | None:
    """The chart of ``ratings`` ((rating, deviation) after each period, oldest first);
    None for fewer than two (one rating is no line)."""
    if len(ratings) < 2:
        return None
    lows = [rating - 2 * deviation for rating, deviation in ratings]
    highs = [rating + 2 * deviation for rating, deviation in ratings]
    step = next((s for s in STEPS if (max(highs) - min(lows)) / s <= 5), STEPS[-1])
    floor = math.floor(min(lows) / step) * step
    ceiling = math.ceil(max(highs) / step) * step

    def y(rating: float) -> float:
        share = (rating - floor) / (ceiling - floor)
        return TOP + (1 - share) * (HEIGHT - TOP - BOTTOM)

    xs = spaced(len(ratings), LEFT, WIDTH - RIGHT)
    points = tuple(
        Plotted(x, y(rating), rating, deviation)
        for x, (rating, deviation) in zip(xs, ratings, strict=True)
    )
    edge = [(x, y(high)) for x, high in zip(xs, highs, strict=True)]
    edge += [(x, y(low)) for x, low in reversed(list(zip(xs, lows, strict=True)))]
    band = polyline(edge)
    grid = tuple(GridLine(y(value), value) for value in range(floor, ceiling + 1, step))
    return Chart(points, grid, band)
