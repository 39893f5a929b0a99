"""gunicorn's settings file: gunicorn reads ``./gunicorn.conf.py`` from the folder it starts
in, the project's (``make serve``, the Docker image's ``web``, the load test).

Its options stay on the command line; this adds one check. Before the first worker, the
master reads the site's settings: a setting Django cannot work with, or no
``SECRET_KEY`` without ``DEBUG``, stops gunicorn in one line (config/startup.py), where
each worker would otherwise fail to load the site with a traceback.
"""

from __future__ import annotations

import sys
from typing import Any


def on_starting(server: Any) -> None:
    from django.core.exceptions import ImproperlyConfigured

    from config.startup import load_settings

    try:
        load_settings(serving="the web server")
    except ImproperlyConfigured as error:
        sys.exit(" ".join(str(error).split()))
