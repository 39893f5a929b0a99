"""The practice games move to their own app, ``play``: the table is renamed, the model leaves
the club's state here and enters play's in ``play/migrations/0001_initial.py``."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0003_player_invited_at"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name="practicegame", table="play_practicegame"),
            ],
            state_operations=[
                migrations.DeleteModel(name="PracticeGame"),
            ],
        ),
    ]
