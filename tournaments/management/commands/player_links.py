"""``manage.py player_links SLUG``: every player's private link, one a line, to pass on.

Each line is the player's name, a tab and the absolute address of their private
link, for the entries not withdrawn, by name in the reader's alphabet (as on the
login slips). Revoked links have no line; standard error says how many there are.
``--base-url`` gives the scheme and host, as the request does for the printed ones.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Tournament
from tournaments.printing import links
from tournaments.printing.documents import name_key


class Command(BaseCommand):
    help = "List each player's name and private link (tab-separated) for a tournament."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "--base-url",
            default=links.DEFAULT_BASE_URL,
            help=f"scheme and host of the links (default {links.DEFAULT_BASE_URL})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(
                _("No tournament has the address '%(slug)s'.") % {"slug": options["slug"]}
            )
        try:
            base_url = links.checked_base_url(options["base_url"])
        except ValueError as error:
            raise CommandError(
                _("--base-url must be a scheme and host, like %(example)s.")
                % {"example": links.DEFAULT_BASE_URL}
            ) from error
        entries = tournament.entries.filter(withdrawn=False).select_related("player")
        listed = sorted(
            ((entry.player.name, entry.private_key) for entry in entries if entry.private_key),
            key=lambda listing: name_key(listing[0]),
        )
        for name, key in listed:
            url = links.private_url(base_url, key)
            self.stdout.write(f"{name}\t{url}")
        if revoked := len(entries) - len(listed):
            self.stderr.write(
                ngettext(
                    "%(count)d player's link is revoked and not listed.",
                    "%(count)d players' links are revoked and not listed.",
                    revoked,
                )
                % {"count": revoked}
            )
