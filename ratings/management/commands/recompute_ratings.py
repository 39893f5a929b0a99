"""``manage.py recompute_ratings``: the rating list from scratch, then printed.

One line per rated member, best first, the fields separated by a TAB: rank, name,
club, rating, deviation (both as of now, to whole points) and the matches rated.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings import selectors
from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Recompute the rating list from every final result and print it (tab-separated)."

    def handle(self, *args: Any, **options: Any) -> None:
        ratings_recompute()
        for line in selectors.rating_list():
            fields = (
                line.rank,
                line.player.name,
                line.player.club,
                round(line.rating.rating),
                round(line.rating.deviation),
                line.matches,
            )
            self.stdout.write("\t".join(str(field) for field in fields))
