"""What the site benchmarks share: Django on a fresh database, a field played by the services.

Production settings without collected static files (``config.test_settings``), on a new
SQLite file in a temporary folder unless ``DATABASE_URL`` is set.
"""

from __future__ import annotations

import datetime
import os
import tempfile
import warnings
from typing import Any


def setup_django() -> None:
    warnings.filterwarnings("ignore", message="No directory at")  # whitenoise, once a request
    folder = tempfile.mkdtemp(prefix="club-bench-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def played_field(names: list[tuple[str, str]], rounds: int, *, in_play: bool, year: int) -> Any:
    """A tournament of ``names`` (name, club) with ``rounds`` closed rounds, paired by the services.

    With ``in_play`` the next round is paired and published too, its matches unreported.
    """
    from django.contrib.auth import get_user_model

    from club.services import player_create
    from tournaments.models import Match
    from tournaments.services import results
    from tournaments.services import rounds as round_services
    from tournaments.services import tournaments as services

    tournament = services.tournament_create(
        name=f"Bench {len(names)} {year}",
        year=year,
        starts_on=datetime.date(year, 1, 1),
        ends_on=datetime.date(year, 1, 2),
        swiss_rounds=rounds + 1,
        seed=5,
    )
    organiser = get_user_model().objects.create(username=f"bench-{len(names)}-{year}")
    for name, club in names:
        player = player_create(name=name, club=club)
        services.entry_add(tournament=tournament, player=player, checked_in=True)
    for _ in range(rounds):
        round_ = round_services.round_propose(tournament=tournament)
        round_services.round_publish(round=round_)
        for match in Match.objects.filter(round=round_, is_bye=False):
            games = [(match.pk % 2, 40 + match.pk % 80), (match.pk % 2, 100)]
            results.match_settle(match=match, organiser=organiser, first_dealer=0, games=games)
        round_services.round_close(round=round_)
    if in_play:
        round_services.round_publish(round=round_services.round_propose(tournament=tournament))
    return tournament
