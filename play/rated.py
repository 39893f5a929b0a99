"""What makes a rated online match count, as play refuses challenges and ratings rates them:
at most ``RATED_A_MONTH`` between the same two members in one month (docs/rating.md)."""

from __future__ import annotations

import datetime

from django.utils import timezone

RATED_A_MONTH = 3
"""Rated online matches between the same two members that count in one month."""


def month_of(moment: datetime.datetime) -> datetime.date:
    """The first day of the month of ``moment`` (in the site's time zone)."""
    return timezone.localdate(moment).replace(day=1)
