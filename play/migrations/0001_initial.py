"""The practice games, moved here from the club app (its migration 0004 renamed the table):
the model enters this app's state only, and its content type (and so its permissions) follows."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def content_type_to_play(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _move_content_type(apps, "club", "play")


def content_type_to_club(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _move_content_type(apps, "play", "club")


def _move_content_type(apps: StateApps, old: str, new: str) -> None:
    content_types = apps.get_model("contenttypes", "ContentType")
    if not content_types.objects.filter(app_label=new, model="practicegame").exists():
        content_types.objects.filter(app_label=old, model="practicegame").update(app_label=new)


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("club", "0004_practice_game_to_play"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PracticeGame',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('session_key', models.CharField(blank=True, default='', max_length=40, verbose_name='guest session')),
                        ('level', models.CharField(choices=[('easy', 'easy'), ('standard', 'standard'), ('expert', 'expert')], max_length=10, verbose_name='computer level')),
                        ('best_of', models.PositiveSmallIntegerField(default=1, verbose_name='best of')),
                        ('seed', models.BigIntegerField(verbose_name='seed')),
                        ('self_count', models.BooleanField(default=False, verbose_name='count it yourself')),
                        ('muggins', models.BooleanField(default=False, verbose_name='muggins')),
                        ('state', models.JSONField(verbose_name='engine state')),
                        ('version', models.PositiveIntegerField(default=0, verbose_name='decisions taken')),
                        ('news_from', models.PositiveIntegerField(default=0, editable=False)),
                        ('finished', models.BooleanField(default=False, verbose_name='finished')),
                        ('winner', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='winner')),
                        ('record', models.JSONField(blank=True, null=True, verbose_name='record')),
                        ('created', models.DateTimeField(auto_now_add=True, verbose_name='started')),
                        ('updated', models.DateTimeField(auto_now=True, verbose_name='last move')),
                        ('owner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='practice_games', to=settings.AUTH_USER_MODEL, verbose_name='member')),
                    ],
                    options={
                        'verbose_name': 'practice game',
                        'verbose_name_plural': 'practice games',
                        'ordering': ['-updated', '-pk'],
                        'indexes': [models.Index(fields=['owner', '-updated'], name='practice_owner_updated'), models.Index(fields=['session_key', 'updated'], name='practice_session_updated')],
                        'constraints': [models.CheckConstraint(condition=models.Q(('owner__isnull', False), models.Q(('session_key', ''), _negated=True), _connector='OR'), name='practice_has_owner_or_session'), models.CheckConstraint(condition=models.Q(('best_of__in', (1, 3, 5, 7))), name='practice_best_of_odd'), models.CheckConstraint(condition=models.Q(('level__in', ('easy', 'standard', 'expert'))), name='practice_level_known'), models.CheckConstraint(condition=models.Q(models.Q(('finished', False), ('winner__isnull', True)), models.Q(('finished', True), ('winner__in', (0, 1))), _connector='OR'), name='practice_winner_when_finished')],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_type_to_play, content_type_to_club),
    ]
