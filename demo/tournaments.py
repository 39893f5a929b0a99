"""Demo championships for a first look: last year's, finished, and this year's, in play."""

from __future__ import annotations

import datetime
import io

from django.core.management import call_command
from django.utils import timezone

from tournaments.models import Match, Round, Seat, Tournament

CHAMPIONSHIP_NAME = "Svenska mästerskapen i cribbage"


def seed_championships(*, today: datetime.date | None = None) -> list[str]:
    """Simulate the missing demo championships with the engine; return what was created."""
    year = (today or timezone.localdate()).year
    done = []
    plans = [
        (year - 1, {"players": 16, "rounds": 4, "playoff": 4, "venue": "Folkets hus, Uppsala"}),
        (
            year,
            {
                "players": 24,
                "rounds": 6,
                "playoff": 8,
                "stop_after": 3,
                "venue": "Medborgarhuset, Örebro",
            },
        ),
    ]
    for plan_year, options in plans:
        if Tournament.objects.filter(year=plan_year, is_championship=True).exists():
            continue
        call_command(
            "simulate_tournament",
            name=f"{CHAMPIONSHIP_NAME} {plan_year}",
            year=plan_year,
            championship=True,
            rated=True,  # the demo's championships fill its rating list
            seed=plan_year,
            no_progress=True,
            stdout=io.StringIO(),
            **options,
        )
        done.append(f"championship {plan_year}")
    return done


def links_to_try(*, base_url: str) -> tuple[Tournament | None, list[tuple[int, str, str]]]:
    """The demo championship and, for each match left to report, both players' private links.

    ``make run`` prints them so a newcomer can play both sides of a report: one
    player saves the games, the other opens their own link and confirms.
    """
    championship = Tournament.objects.filter(is_championship=True).order_by("-year").first()
    if championship is None:
        return None, []
    seats = (
        Seat.objects.filter(
            round__tournament=championship,
            round__status=Round.Status.PLAYING,
            match__is_bye=False,
            match__status__in=[Match.Status.PENDING, Match.Status.IN_PLAY, Match.Status.REPORTED],
            entry__private_key__isnull=False,
        )
        .select_related("entry__player")
        .order_by("match__table", "seat")
    )
    base = base_url.rstrip("/")
    return championship, [
        (seat.match.table or 0, str(seat.entry.player), f"{base}/p/{seat.entry.private_key}/")
        for seat in seats.select_related("match")
    ]
