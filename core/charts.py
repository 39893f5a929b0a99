"""What the site's line charts share, as plain numbers for their SVG templates: a member's
rating history (``ratings.chart``) and their accuracy (``play.accuracy_chart``).

Terms: a chart's *points* stand evenly spaced from left to right (``spaced``), oldest
first; its *grid* is horizontal lines, each labelled with its value (``GridLine``); a
*polyline* is SVG's ``points`` through them (``polyline``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


def spaced(count: int, left: float, right: float) -> list[float]:
    """The x of ``count`` (two or more) points spread evenly from ``left`` to ``right``."""
    spacing = (right - left) / (count - 1)
    return [left + index * spacing for index in range(count)]


def polyline(corners: Iterable[tuple[float, float]]) -> str:
    """SVG's ``points`` through ``corners`` ((x, y) each), to a tenth of a unit."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


@dataclass(frozen=True, slots=True)
class GridLine:
    y: float
    label: int
