"""Demo championships for a first look: last year's, finished, and this year's, in play."""

from __future__ import annotations

import datetime
import io

from django.core.management import call_command
from django.utils import timezone

from tournaments.models import Tournament

CHAMPIONSHIP_NAME = "Svenska mästerskapen i cribbage"


def seed_championships(*, today: datetime.date | None = None) -> list[str]:
    """Simulate the missing demo championships with the engine; return what was created."""
    year = (today or timezone.localdate()).year
    done = []
    plans = [
        (year - 1, {"players": 16, "rounds": 4, "playoff": 4}),
        (year, {"players": 24, "rounds": 6, "playoff": 8, "stop_after": 3}),
    ]
    for plan_year, options in plans:
        if Tournament.objects.filter(year=plan_year, is_championship=True).exists():
            continue
        call_command(
            "simulate_tournament",
            name=f"{CHAMPIONSHIP_NAME} {plan_year}",
            year=plan_year,
            championship=True,
            seed=plan_year,
            no_progress=True,
            stdout=io.StringIO(),
            **options,
        )
        done.append(f"championship {plan_year}")
    return done
