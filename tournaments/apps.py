from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

# The printed documents, by the names of their builders (``tournaments.printing.builders``).
DOCUMENTS = ("pairings", "scoresheets", "standings", "crosstable", "playoff", "slips")


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from club.signals import player_changed
        from printing import builders
        from tournaments.services.changes import on_player_changed

        player_changed.connect(on_player_changed, dispatch_uid="tournaments-player-changed")
        # The render task builds the printed documents by these names (docs/printing.md),
        # the functions of tournaments.printing.builders, imported by the first render.
        builders.register(
            {f"tournaments.{kind}": f"tournaments.printing.builders.{kind}" for kind in DOCUMENTS}
        )
