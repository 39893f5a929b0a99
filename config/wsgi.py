"""WSGI entry point, served by gunicorn in production."""

import gc
import os

from django.core.wsgi import get_wsgi_application

from config.startup import load_settings
from scoring.players.pegplay import lead_table

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Without DEBUG, no page is served without SECRET_KEY: ImproperlyConfigured, in one line
# (config/startup.py), before Django is set up; gunicorn says it before its first worker.
load_settings(serving="the web server")
application = get_wsgi_application()

# The expert's lead table (some 13 MB) is read now rather than at a player's first
# deal: that request would wait a few hundred milliseconds for it.
lead_table()

# What is loaded by now (Django, the apps, the engine's tables) lives as long as the
# process: keep it out of the collector's full passes, which otherwise walk it all and
# added 100-250 ms to about one request in 30 (docs/benchmarks.md, "Practice games").
gc.freeze()
