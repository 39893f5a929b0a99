"""``manage.py set_tournament_rated SLUG --rated|--unrated``: count a tournament's matches
on the rating list, or stop counting them, at any time.

On the tournament's page an organiser changes the setting only until round 1 is
published; after that its results may be final and on the list, so the change is the
administrator's (``tournaments.services.tournaments.tournament_set_rated``), and once it
is saved the command has the list rated again before it returns (docs/rating.md).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.ports import rating_list
from tournaments.services.tournaments import tournament_set_rated


class Command(BaseCommand):
    help = (
        "Make a tournament rated (--rated) or unrated (--unrated), even after play has "
        "begun, and rate the list again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        setting = parser.add_mutually_exclusive_group(required=True)
        setting.add_argument("--rated", dest="rated", action="store_true")
        setting.add_argument("--unrated", dest="rated", action="store_false")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament has the address {options['slug']!r}.")
        was = tournament.rated
        try:
            tournament = tournament_set_rated(tournament=tournament, rated=options["rated"])
        except TournamentError as error:
            raise CommandError(str(error)) from error
        if was != tournament.rated:
            rating_list().rate_now()
        state = "rated" if tournament.rated else "unrated"
        if was == tournament.rated:
            self.stdout.write(f"{tournament.name} was already {state}; nothing changed.")
        else:
            self.stdout.write(f"{tournament.name} is now {state}; the rating list is rated again.")
