from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club"
    verbose_name = _("Club")

    def ready(self) -> None:
        # A successful login forgives the account's failed logins (a signal receiver).
        from club import lockouts, readers  # noqa: F401

        # An account's change is a change of reader for the pages answered from the cache.
        readers.connect()
