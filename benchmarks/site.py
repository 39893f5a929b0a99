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


def played_field(
    names: list[tuple[str, str]],
    rounds: int,
    *,
    in_play: bool,
    year: int,
    bulk: bool = False,
    more_rounds: int = 1,
) -> Any:
    """A tournament of ``names`` (name, club) with ``rounds`` closed rounds, paired by the services.

    With ``in_play`` the next round is paired and published too, its matches unreported.
    The tournament has ``more_rounds`` Swiss rounds after that one, to pair later.
    With ``bulk`` each round's results are written at once (:func:`settle_round`) instead
    of one ``match_settle`` a match; the rating list is rated once at the end.
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
        swiss_rounds=rounds + 1 + more_rounds,  # the round in play, and more after it
        seed=5,
    )
    organiser = get_user_model().objects.create(username=f"bench-{len(names)}-{year}")
    for name, club in names:
        player = player_create(name=name, club=club)
        services.entry_add(tournament=tournament, player=player, checked_in=True)
    for _ in range(rounds):
        round_ = round_services.round_propose(tournament=tournament)
        round_services.round_publish(round=round_)
        if bulk:
            settle_round(round_, organiser)
        else:
            for match in Match.objects.filter(round=round_, is_bye=False):
                results.match_settle(
                    match=match, organiser=organiser, first_dealer=0, games=_games(match.pk)
                )
        round_services.round_close(round=round_)
    if bulk and rounds:
        from tournaments.ports import final_results_changed, rating_list

        # Written in bulk, told as a whole: ``round=None`` has the list compare every
        # period (a field's rounds settled in bulk elsewhere are not told either); the
        # seed waits for the list, as the administrator's commands do.
        final_results_changed(round=None)
        rating_list().rate_now()
    if in_play:
        round_services.round_publish(round=round_services.round_propose(tournament=tournament))
    return tournament


def _games(pk: int) -> list[tuple[int, int]]:
    """A 2-0 for one seat of match ``pk`` (which one, and the first loser's score, by pk)."""
    return [(pk % 2, 40 + pk % 80), (pk % 2, 100)]


def settle_round(round_: Any, organiser: Any) -> None:
    """Every unreported match of ``round_`` entered final by ``organiser``, written at once.

    What ``results.match_settle`` writes for each match (the games as the engine derives
    them, the match final with a new report version and version, a line of the result
    log), in a few bulk statements, and the versions moved once for the round
    (``tournament_changed``): a round of 128 tables in well under a second instead of
    one transaction, lock and version update a match. The rating list is left to the
    caller (one re-rate after all the rounds).
    """
    from django.db import transaction

    from tournaments.models import Match, ResultChange
    from tournaments.services.changes import tournament_changed
    from tournaments.services.matches import game_rows
    from tournaments.services.results import check_report

    matches = list(
        Match.objects.filter(round=round_, is_bye=False, status=Match.Status.PENDING)
        .select_related("round__tournament")
        .order_by("pk")
    )
    games, changes = [], []
    for match in matches:
        result = check_report(match, 0, _games(match.pk))
        games += game_rows(match=match, result=result)
        match.first_dealer, match.winner = 0, result.winner
        match.status, match.dispute_note = Match.Status.FINAL, ""
        match.report_version += 1
        match.version += 1
        after = {
            "status": match.status,
            "first_dealer": 0,
            "winner": result.winner,
            "reported_seat": None,
            "games": [[game.winner, game.loser_score] for game in result.games],
        }
        before = {**after, "status": Match.Status.PENDING, "first_dealer": None, "winner": None}
        before["games"] = []
        changes.append(
            ResultChange(
                match=match,
                user=organiser,
                action=ResultChange.Action.ENTERED,
                before=before,
                after=after,
            )
        )
    with transaction.atomic():
        _write(matches, games, changes)
        tournament_changed(round_.tournament_id, round_id=round_.pk, final=True)


def _write(matches: list[Any], games: list[Any], changes: list[Any]) -> None:
    from tournaments.models import Game, Match, ResultChange

    Game.objects.bulk_create(games)
    fields = ["first_dealer", "winner", "status", "dispute_note", "report_version", "version"]
    Match.objects.bulk_update(matches, fields)
    ResultChange.objects.bulk_create(changes)
