from typing import Any

from django.apps import AppConfig
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _redo_outdated_reviews(
    sender: AppConfig, *, using: str = DEFAULT_DB_ALIAS, **kwargs: Any
) -> None:
    """After a migrate (the release step): reviews of an older version are redone; not
    after a migrate back past the reviews' table, nor on another database."""
    from play.models import GameReview
    from play.tasks import outdated_reviews_requeue

    if using != DEFAULT_DB_ALIAS:
        return
    if GameReview._meta.db_table not in connections[using].introspection.table_names():
        return
    outdated_reviews_requeue()


class PlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "play"
    verbose_name = _("Practice games")

    def ready(self) -> None:
        from play import receivers
        from tournaments import signals

        signals.result_entered.connect(receivers.on_result_entered, dispatch_uid="play-result")
        signals.match_changed.connect(receivers.on_match_changed, dispatch_uid="play-match")
        signals.round_closed.connect(receivers.on_round_closed, dispatch_uid="play-round")
        post_migrate.connect(_redo_outdated_reviews, sender=self, dispatch_uid="play-reviews")
