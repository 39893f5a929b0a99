from django.apps import AppConfig


class PrintingConfig(AppConfig):
    """The printing machinery: no models, and nothing an organiser sees in the admin."""

    name = "printing"
