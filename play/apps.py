from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


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
