"""WSGI entry point, served by gunicorn in production."""

import gc
import os

from django.core.wsgi import get_wsgi_application

from scoring.players.pegplay import lead_table

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

# The expert's lead table (some 13 MB) is read now rather than at a player's first
# deal: that request would wait a few hundred milliseconds for it.
lead_table()

# What is loaded by now (Django, the apps, the engine's tables) lives as long as the
# process: keep it out of the collector's full passes, which otherwise walk it all and
# added 100-250 ms to about one request in 30 (docs/benchmarks.md, "Practice games").
gc.freeze()
