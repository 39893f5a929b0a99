"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

from config.startup import load_settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Without DEBUG, no page is served without SECRET_KEY (config/startup.py).
load_settings(serving="the web server")
application = get_asgi_application()
