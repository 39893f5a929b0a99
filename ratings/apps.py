from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = _("Rating list")

    def ready(self) -> None:
        # The rating list consumes the results of tournaments (which tell it through
        # their port: ratings.ports) and of play (docs/rating.md).
        from play import signals as play_signals
        from printing import builders
        from ratings import receivers

        # The render task builds the printed list by this name (``printing.RATING_LIST``;
        # docs/printing.md), importing ratings.printing when it first does.
        builders.register({"ratings.rating_list": "ratings.printing.rating_list_document"})

        play_signals.rated_match_ended.connect(
            receivers.on_rated_match_ended, dispatch_uid="ratings-online"
        )
