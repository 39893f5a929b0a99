"""Private links: each entry's own address for a tournament, opened without an account.

A private link (``/p/<key>/``) opens the player's page for that tournament: their
table, opponent and match with the report, confirm and dispute forms. The key is
unguessable (``tournaments.models.new_private_key``). An organiser revokes a key
(no link works) or issues a new one (the old one stops working).
"""

from __future__ import annotations

from django.db import transaction

from tournaments.models import Entry, new_private_key
from tournaments.services.changes import tournament_changed


@transaction.atomic
def entry_link_issue(*, entry: Entry) -> Entry:
    """A new private link for the entry; any earlier one stops working."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.private_key = new_private_key()
    entry.save(update_fields=["private_key"])
    tournament_changed(entry.tournament_id)  # the login slips print the links
    return entry


@transaction.atomic
def entry_link_revoke(*, entry: Entry) -> Entry:
    """No private link opens this entry's page until a new one is issued."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.private_key = None
    entry.save(update_fields=["private_key"])
    tournament_changed(entry.tournament_id)  # no slip may print the old link
    return entry
