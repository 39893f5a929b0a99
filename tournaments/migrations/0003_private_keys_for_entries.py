"""Give every existing entry a private link key, and name the person behind each logged change."""

import secrets

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
LENGTH = 14


def forwards(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Entry = apps.get_model("tournaments", "Entry")
    ResultChange = apps.get_model("tournaments", "ResultChange")
    Player = apps.get_model("club", "Player")
    for entry in Entry.objects.filter(private_key__isnull=True).only("pk"):
        entry.private_key = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        entry.save(update_fields=["private_key"])
    players = dict(Player.objects.filter(user__isnull=False).values_list("user_id", "pk"))
    for change in ResultChange.objects.filter(user__isnull=False, player__isnull=True):
        if change.user_id in players:
            change.player_id = players[change.user_id]
            change.save(update_fields=["player"])


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0003_player_invited_at"),
        ("tournaments", "0002_private_links_and_game_by_game"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
