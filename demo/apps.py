from django.apps import AppConfig


class DemoConfig(AppConfig):
    """An app only for its command, ``seed_demo``: no models, no pages."""

    name = "demo"
